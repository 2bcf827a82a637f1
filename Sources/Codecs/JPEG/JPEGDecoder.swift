import CTurboJPEG
import Imaging

/// Decodes JPEG files with TurboJPEG, ignoring any orientation metadata.
package final class JPEGDecoder {
    private let decompressor: JPEGHandle

    /// Creates a decoder.
    package init() throws(CodecError) {
        decompressor = try JPEGHandle(decompressing: ())
    }

    /// The stored size and chroma subsampling ("4:2:0", "4:4:4", …) of `jpeg`.
    package func header(_ jpeg: [UInt8]) throws(CodecError) -> (size: PixelSize, subsampling: String) {
        let header = try decompressor.header(of: jpeg)
        return (header.size, Self.name(ofSubsampling: header.subsampling))
    }

    /// Decodes `jpeg` to packed RGB (R, G, B), rows without padding, as stored: no
    /// orientation is applied. The size the header declares is checked against
    /// ``PixelBudget`` before anything is allocated.
    /// With `acceptingTruncation`, data that stops before the image does is decoded as far as
    /// it goes; libjpeg fills the rest (grey).
    package func decodeRGB(_ jpeg: [UInt8], acceptingTruncation: Bool = false) throws(CodecError) -> (size: PixelSize, rgb: [UInt8]) {
        let header = try decompressor.header(of: jpeg)
        let size = header.size
        try PixelBudget.check(size, declaredBy: "JPEG")
        if !acceptingTruncation { try Self.checkHoldsItsPicture(jpeg) }
        if header.colorspace == Int32(TJCS_CMYK.rawValue) || header.colorspace == Int32(TJCS_YCCK.rawValue) {
            return (size, try decodeCMYKAsRGB(jpeg, size: size, acceptingTruncation: acceptingTruncation))
        }
        return (size, try decompress(Self.decodable(jpeg), size: size, to: TJPF_RGB, bytesPerPixel: 3, acceptingTruncation: acceptingTruncation))
    }

    /// The pixels of `jpeg` (of `size`) in TurboJPEG's pixel format `format`, rows unpadded.
    private func decompress(_ jpeg: [UInt8], size: PixelSize, to format: TJPF, bytesPerPixel: Int,
                            acceptingTruncation: Bool) throws(CodecError) -> [UInt8] {
        var pixels = [UInt8](repeating: 0, count: size.area * bytesPerPixel)
        let code = jpeg.withUnsafeBufferPointer { source in
            pixels.withUnsafeMutableBufferPointer { target in
                tjDecompress2(decompressor.handle, source.baseAddress, UInt(source.count), target.baseAddress,
                              Int32(size.width), Int32(size.width * bytesPerPixel), Int32(size.height), Int32(format.rawValue),
                              TJFLAG_ACCURATEDCT)
            }
        }
        try check(code, "tjDecompress2", jpeg, acceptingTruncation: acceptingTruncation)
        return pixels
    }

    /// A CMYK or YCCK `jpeg` (which TurboJPEG decodes only to CMYK) as RGB, by the naive
    /// conversion every viewer without a profile makes (R = (1 − C)(1 − K), as ImageMagick's):
    /// for a picture to look at and compare, not for print.
    private func decodeCMYKAsRGB(_ jpeg: [UInt8], size: PixelSize, acceptingTruncation: Bool) throws(CodecError) -> [UInt8] {
        let cmyk = try decompress(jpeg, size: size, to: TJPF_CMYK, bytesPerPixel: 4, acceptingTruncation: acceptingTruncation)
        // Adobe's writers, which its APP14 segment names, store the inks inverted (0 is full
        // ink), and libjpeg hands the samples over as stored.
        let inverted = try JPEGFile.headerSegments(of: jpeg).list.contains { $0.isAdobe(in: jpeg) }
        return [UInt8](unsafeUninitializedCapacity: size.area * 3) { rgb, initialized in
            for pixel in 0..<size.area {
                let black = Int(cmyk[pixel * 4 + 3])
                for channel in 0..<3 {
                    let ink = Int(cmyk[pixel * 4 + channel])
                    rgb[pixel * 3 + channel] = UInt8(inverted ? (ink * black + 127) / 255 : ((255 - ink) * (255 - black) + 127) / 255)
                }
            }
            initialized = size.area * 3
        }
    }

    /// Decodes `jpeg` to a J420 planar image. 4:2:0 Y'CbCr files are decoded straight into
    /// the planes; anything else goes through RGB. The declared size is checked against
    /// ``PixelBudget`` first.
    package func decodePlanar(_ jpeg: [UInt8]) throws(CodecError) -> PlanarImage {
        let header = try decompressor.header(of: jpeg)
        try PixelBudget.check(header.size, declaredBy: "JPEG")
        guard header.subsampling == Int32(TJSAMP_420.rawValue), header.colorspace == Int32(TJCS_YCbCr.rawValue) else {
            let decoded = try decodeRGB(jpeg)
            do {
                return try decoded.rgb.withUnsafeBufferPointer { buffer throws(ImagingError) in
                    try PlanarImage(rgb: buffer, size: decoded.size)
                }
            } catch {
                throw .imaging(error)
            }
        }
        try Self.checkHoldsItsPicture(jpeg)
        let jpeg = Self.decodable(jpeg)
        let image: PlanarImage
        do { image = try PlanarImage(size: header.size) } catch { throw .imaging(error) }
        let planes = image.planes
        var targets: [UnsafeMutablePointer<UInt8>?] = [planes.y, planes.cb, planes.cr]
        var strides: [Int32] = [Int32(image.lumaStride), Int32(image.chromaStride), Int32(image.chromaStride)]
        let code = jpeg.withUnsafeBufferPointer { source in
            tjDecompressToYUVPlanes(decompressor.handle, source.baseAddress, UInt(source.count), &targets,
                                    Int32(header.size.width), &strides, Int32(header.size.height), TJFLAG_ACCURATEDCT)
        }
        try check(code, "tjDecompressToYUVPlanes", jpeg)
        return image
    }

    /// Refuses, before the picture is allocated, a file too short for the picture its frame
    /// header declares (``JPEGFile/fewestCodedBytes(of:)``): libjpeg would decode that much
    /// memory before finding the data missing.
    static func checkHoldsItsPicture(_ jpeg: [UInt8]) throws(CodecError) {
        guard let fewest = JPEGFile.fewestCodedBytes(of: jpeg), jpeg.count < fewest else { return }
        throw .corruptFile(format: "JPEG", reason: "its \(jpeg.count) bytes cannot hold the picture its header declares "
                               + "(at least \(fewest) bytes of coded data): the data is missing")
    }

    /// Fails on errors; a warning (for example a truncated file) is an error too, because the
    /// pixels would be incomplete.
    private func check(_ code: Int32, _ function: String, _ jpeg: [UInt8], acceptingTruncation: Bool = false) throws(CodecError) {
        guard code == 0 else {
            let error = decompressor.error(function)
            // libjpeg's warning for data that stops before the image does.
            if case .turboJPEG(_, let message) = error, message.contains("Premature end of JPEG file") {
                if acceptingTruncation { return }
                throw .truncated(format: "JPEG", bytes: jpeg.count)
            }
            throw error
        }
    }

    /// TurboJPEG's chroma subsamplings by the names ``header(_:)`` gives them.
    private static let subsamplingNames: [Int32: String] = [
        Int32(TJSAMP_444.rawValue): "4:4:4", Int32(TJSAMP_422.rawValue): "4:2:2", Int32(TJSAMP_420.rawValue): "4:2:0",
        Int32(TJSAMP_GRAY.rawValue): "grey", Int32(TJSAMP_440.rawValue): "4:4:0", Int32(TJSAMP_411.rawValue): "4:1:1",
    ]

    private static func name(ofSubsampling subsampling: Int32) -> String { subsamplingNames[subsampling] ?? "unknown" }

    /// TurboJPEG's value (`TJSAMP_*`) for a subsampling as ``header(_:)`` names it; nil for "unknown".
    package static func subsampling(named name: String) -> Int32? { subsamplingNames.first { $0.value == name }?.key }
}
