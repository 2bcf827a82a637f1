import Codecs
import ImageFiles
import Imaging

extension PhotoCaptureError {
    /// `body`'s value; a codec error becomes ``Code/encoding(_:)``, keeping its type. Work that
    /// calls both layers wraps each call in its own, so no error arrives here untyped.
    static func encoding<T>(_ body: () throws(CodecError) -> T) throws(PhotoCaptureError) -> T {
        do { return try body() } catch { throw PhotoCaptureError(.encoding(error)) }
    }

    /// `body`'s value; a file layer's error becomes ``Code/file(_:)``, keeping its type.
    package static func file<T>(_ body: () throws(ImageFileError) -> T) throws(PhotoCaptureError) -> T {
        do { return try body() } catch { throw PhotoCaptureError(.file(error)) }
    }

    /// `body`'s value; an imaging error becomes ``Code/imaging(_:)``, keeping its type.
    static func imaging<T>(_ body: () throws(ImagingError) -> T) throws(PhotoCaptureError) -> T {
        do { return try body() } catch { throw PhotoCaptureError(.imaging(error)) }
    }
}
