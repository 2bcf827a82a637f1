import FoundationEssentials
import Imaging
import PhotoCapture

extension RGBImage {
    /// The picture as an 8-bit RGB PNG (libpng).
    public func pngData() throws(GoldenImageError) -> Data {
        do { return try ImageEncoder.pngData(self) } catch { throw GoldenImageError(.undecodable(error), path: "PNG") }
    }

    /// Writes the picture as a PNG at `path`, atomically, making its folder; an existing file
    /// is replaced only with `overwrite`.
    public func writePNG(to path: String, overwrite: Bool) throws(GoldenImageError) {
        let data: Data
        do { data = try ImageEncoder.pngData(self) } catch { throw GoldenImageError(.unencodable(error), path: path) }
        do {
            try FileManager.default.createDirectory(at: URL(fileURLWithPath: path).deletingLastPathComponent(),
                                                    withIntermediateDirectories: true)
        } catch {
            throw GoldenImageError(.unwritable(reason: error.fileErrorReason), path: path)
        }
        do { try AtomicFileWriter.write(data, to: path, overwrite: overwrite) } catch {
            throw GoldenImageError(.writeFailed(error), path: path)
        }
    }
}
