import Codecs
import FoundationEssentials
import Imaging

/// TIFF: turned in its own kind.
extension ImageOrienter {
    /// The picture turned in its own kind (bit depth, samples, photometric, compression), every
    /// other byte of the file kept (``TIFFPixelTurner``).
    func tiff(_ data: [UInt8]) throws(ImageFileError) -> (bytes: [UInt8], size: PixelSize, warnings: [Warning]) {
        guard let turned = try ImageFileError.damaged({ () throws(CodecError) in try TIFFPixelTurner.upright(data) }) else {
            throw ImageFileError(.damaged(.corruptFile(format: "TIFF", reason: "the Orientation read twice differs")))
        }
        return (turned.bytes, turned.size, turned.xmpKept.map { [.xmpOrientationKept(because: $0)] } ?? [])
    }
}
