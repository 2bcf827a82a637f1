// The value types of the imaging layer (PixelSize, Orientation, RGBImage...) are part of this
// module's API; re-export them so `import ImageFiles` is enough.
@_exported import Imaging
import Codecs

// The codec layer's types that this module's API uses, nameable with `import ImageFiles`
// alone (the rest of that layer stays out of the API); `PhotoCapture` re-exports them.
/// An error of the codec layer (TurboJPEG, libheif, libexif, libtiff, LibRaw), as
/// ``ImageFileError`` and ``ImageDecodingError`` carry it.
public typealias CodecError = Codecs.CodecError
/// What an image file holds: format, stored and displayed size, orientation, thumbnail, EXIF.
public typealias ImageFileInfo = Codecs.ImageFileInfo
/// The image file formats photocap reads.
public typealias ImageFileFormat = Codecs.ImageFileFormat
/// Reads a whole regular file, naming what else a path is (a directory, a FIFO, a device, an
/// empty file) instead of reading it.
public typealias InputFile = Codecs.InputFile
/// Why a JPEG cannot be turned losslessly by an orientation (its size is not a multiple of its
/// iMCU where the turn moves an edge), as `CodecError.losslessTurnNotExact(_:)` carries it.
public typealias LosslessTurnRefusal = Codecs.LosslessTurnRefusal
/// Why ``InputFile`` could not read a path.
public typealias FileReadError = Codecs.FileReadError
