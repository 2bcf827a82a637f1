import CPNG
import Imaging

/// PNG reading and writing with libpng's simplified API: any PNG (grey, palette, 16-bit,
/// alpha) read as 8-bit RGB, RGB written as 8-bit RGB.
package enum PNGFile {
    /// The eight bytes every PNG starts with.
    package static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The largest picture read, in pixels (checked before allocating).
    static let maximumArea = 1 << 28

    /// Decodes `data` to packed RGB; alpha is composited over black (libpng's simplified API).
    package static func read(_ data: [UInt8]) throws(CodecError) -> RGBImage {
        guard data.starts(with: signature) else { throw .corruptFile(format: "PNG", reason: "no PNG signature") }
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        // The image owns libpng state from here until finish_read or free.
        defer { png_image_free(&image) }
        let began = data.withUnsafeBytes { png_image_begin_read_from_memory(&image, $0.baseAddress, $0.count) }
        guard began != 0 else { throw .corruptFile(format: "PNG", reason: message(of: image)) }
        let size = PixelSize(width: Int(image.width), height: Int(image.height))
        guard size.area > 0, size.area <= maximumArea else {
            throw .corruptFile(format: "PNG", reason: "implausible size \(size)")
        }
        try checkHoldable(size, in: data)
        image.format = UInt32(PNG_FORMAT_RGB)
        var pixels = [UInt8](repeating: 0, count: size.area * 3)
        let finished = data.withUnsafeBytes { _ in
            pixels.withUnsafeMutableBytes { png_image_finish_read(&image, nil, $0.baseAddress, Int32(size.width * 3), nil) }
        }
        guard finished != 0 else { throw .corruptFile(format: "PNG", reason: message(of: image)) }
        return RGBImage(size: size, pixels: pixels)
    }

    /// Deflate's largest ratio: a 258-byte match coded in two bits.
    static let deflateRatio = 1032

    /// Refuses a size whose rows (at the header's bit depth and channels, filter bytes and all)
    /// no deflate stream of the file's length can hold, before memory is sized for them: a
    /// 270-byte file declaring 16384x16384 once cost 800 MB.
    private static func checkHoldable(_ size: PixelSize, in data: [UInt8]) throws(CodecError) {
        // IHDR, which libpng has checked: bit depth at byte 24, colour type at 25.
        let channels = [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][Int(data[25])] ?? 1
        let rows = size.height * (1 + (size.width * channels * Int(data[24]) + 7) / 8)
        guard rows <= data.count * deflateRatio else {
            throw .corruptFile(format: "PNG", reason: "it declares \(size.width)x\(size.height) pixels, more than its \(data.count) bytes can hold")
        }
    }

    /// Encodes `image` as an 8-bit RGB PNG.
    package static func encode(_ image: RGBImage) throws(CodecError) -> [UInt8] {
        var png = png_image()
        png.version = UInt32(PNG_IMAGE_VERSION)
        png.width = UInt32(image.size.width)
        png.height = UInt32(image.size.height)
        png.format = UInt32(PNG_FORMAT_RGB)
        defer { png_image_free(&png) }
        // The first call measures, the second writes.
        var length = 0
        let stride = Int32(image.size.width * 3)
        let measured = image.pixels.withUnsafeBytes {
            png_image_write_to_memory(&png, nil, &length, 0, $0.baseAddress, stride, nil)
        }
        guard measured != 0, length > 0 else { throw .invalidArgument("libpng cannot encode \(image.size): \(message(of: png))") }
        var output = [UInt8](repeating: 0, count: length)
        let written = image.pixels.withUnsafeBytes { source in
            output.withUnsafeMutableBytes { png_image_write_to_memory(&png, $0.baseAddress, &length, 0, source.baseAddress, stride, nil) }
        }
        guard written != 0 else { throw .invalidArgument("libpng cannot encode \(image.size): \(message(of: png))") }
        return Array(output.prefix(length))
    }

    /// libpng's message for the last failure of `image`.
    private static func message(of image: png_image) -> String {
        var text = image.message
        return withUnsafeBytes(of: &text) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }
}
