import CPNG
#if canImport(Glibc)
import Glibc
#endif
import Imaging

extension PNGFile {
    /// `data` turned by `orientation` in its own kind: colour type, bit depth (an 8- or 16-bit
    /// grey depth map stays one), palette, transparency, colour space and text kept, the pixel
    /// density's axes swapped with the picture's. Exact: samples are moved, never resampled.
    package static func turned(_ data: [UInt8], by orientation: Orientation) throws(CodecError) -> [UInt8] {
        guard data.starts(with: signature) else { throw .corruptFile(format: "PNG", reason: "no PNG signature") }
        var message = [CChar](repeating: 0, count: 256)
        var width: UInt32 = 0, height: UInt32 = 0
        var bytesPerPixel: Int32 = 0
        let samples = data.withUnsafeBufferPointer { bytes in
            pc_png_samples_read(bytes.baseAddress, bytes.count, maximumArea, &width, &height, &bytesPerPixel, &message, message.count)
        }
        guard let samples else { throw .corruptFile(format: "PNG", reason: String(cMessage: message)) }
        defer { pc_png_samples_free(samples) }
        let size = PixelSize(width: Int(width), height: Int(height))
        let pixels = Array(UnsafeBufferPointer(start: pc_png_samples_pixels(samples), count: size.area * Int(bytesPerPixel)))
        let turned = orientation.apply(toPixels: pixels, of: size, bytesPerPixel: Int(bytesPerPixel))
        let turnedSize = orientation.apply(to: size)
        var output: UnsafeMutablePointer<UInt8>?
        var outputSize = 0
        let status = turned.withUnsafeBufferPointer {
            pc_png_samples_write(samples, $0.baseAddress, UInt32(turnedSize.width), UInt32(turnedSize.height), &output, &outputSize,
                                 &message, message.count)
        }
        defer { free(output) }
        guard status == 0, let output else {
            throw .invalidArgument("libpng cannot write the turned \(turnedSize) picture: \(String(cMessage: message))")
        }
        return Array(UnsafeBufferPointer(start: output, count: outputSize))
    }
}
