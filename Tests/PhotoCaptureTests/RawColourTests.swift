import Codecs
import Foundation
import PhotoCapture
import Testing
import TestSupport

/// Acceptance 3: RAW data of the synthetic sensor — linear light, green twice as sensitive as
/// red, a black level — developed through LibRaw (white balance as shot, the colour matrix,
/// sRGB) gives back ``SyntheticScene``'s colours, in every processed format and bit depth, and
/// so do the DNG's preview and a third-party developer (dcraw) reading the DNG.
@Suite struct RawColourTests {
    static let size = RawCaptureTests.size

    /// Flat areas of the upright scene, away from edges and the glyph, with their colours.
    static func patches(_ size: PixelSize) -> [(name: String, rect: PixelRect, colour: (UInt8, UInt8, UInt8))] {
        func rect(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> PixelRect {
            let (w, h) = (Double(size.width), Double(size.height))
            return PixelRect(x: Int(x0 * w), y: Int(y0 * h), size: PixelSize(width: Int((x1 - x0) * w), height: Int((y1 - y0) * h)))
        }
        return [
            ("red", rect(0.02, 0.04, 0.12, 0.16), SyntheticScene.topLeft),
            ("green", rect(0.60, 0.05, 0.95, 0.44), SyntheticScene.topRight),
            ("blue", rect(0.02, 0.84, 0.12, 0.96), SyntheticScene.bottomLeft),
            ("yellow", rect(0.60, 0.56, 0.95, 0.95), SyntheticScene.bottomRight),
            ("white", rect(0.162, 0.25, 0.198, 0.75), SyntheticScene.glyph),
        ]
    }

    /// Largest error of a channel's mean over a patch, in 8-bit levels. Measured (worst patch):
    /// TIFF 3 at any depth (the pipeline's Y'CbCr 4:2:0 round trip of saturated colours), JPEG
    /// and HEIC at quality 95 2, the DNG preview 2, dcraw 0-2. Computed for comparison: white
    /// balance left undone puts the red quadrant's red 50 levels low, an ignored black level
    /// lifts the dark channels by about 40, a linear tone curve darkens them by about 35.
    static let tolerance = 4.0

    static func expectColours(_ image: RGBImage, _ label: String) {
        for patch in patches(image.size) {
            let error = image.largestChannelError(in: patch.rect, from: patch.colour)
            #expect(error <= Self.tolerance, "\(label) \(patch.name): \(image.meanColour(in: patch.rect)) vs \(patch.colour), off by \(error)")
        }
    }

    static func decode(_ path: String, _ format: PhotoFormat) throws -> RGBImage {
        switch format {
        case .jpeg: return try ReferenceDecoder.djpeg(path)
        case .heic:
            let decoded = try HEICDecoder.decodeRGB([UInt8](Data(contentsOf: URL(fileURLWithPath: path))), applyingTransformations: true)
            return RGBImage(size: decoded.size, pixels: decoded.rgb)
        default: return try ReferenceDecoder.imageMagickStored(path)
        }
    }

    @Test("Developed JPEG, HEIC and TIFF show the scene's colours", arguments: [PhotoFormat.jpeg, .heic, .tiff])
    func everyProcessedFormat(format: PhotoFormat) async throws {
        let (session, output) = try await RawCaptureTests.output()
        defer { Task { await session.stopRunning() } }
        let folder = try TemporaryDirectory("raw-colours")
        var settings = PhotoSettings(rawPixelFormat: .sgrbg12, processedFormat: format)
        (settings.quality, settings.heicEncodingSpeed) = (95, .ultrafast)
        var photos: [CapturePhoto] = []
        for try await photo in try output.capturePhotos(with: settings) { photos.append(photo) }
        let processed = try #require(photos.last)
        let path = folder.path("developed.\(format.fileExtension!)")
        try processed.write(to: path)
        let decoded = try Self.decode(path, format)
        #expect(decoded.size == Self.size)
        Self.expectColours(decoded, "\(format)")
        #expect(try ExternalTool.exiftoolValidationProblems(path) == [])
    }

    /// Every depth, lossless output; the DNG's preview (extracted by exiftool, decoded by
    /// ImageMagick) and dcraw's development of the DNG too.
    @Test("Every bit depth develops to the scene's colours", arguments: [8, 10, 12, 16])
    func everyBitDepth(bits: Int) async throws {
        let (session, output) = try await RawCaptureTests.output()
        defer { Task { await session.stopRunning() } }
        let folder = try TemporaryDirectory("raw-colours")
        let format = FramePixelFormat.bayer(.gbrg, bits: bits)!
        var photos: [CapturePhoto] = []
        for try await photo in try output.capturePhotos(with: PhotoSettings(rawPixelFormat: format, processedFormat: .tiff)) {
            photos.append(photo)
        }
        let (raw, tiff) = (photos[0], photos[1])
        let tiffPath = folder.path("developed.tiff")
        try tiff.write(to: tiffPath)
        Self.expectColours(try ReferenceDecoder.imageMagickStored(tiffPath), "\(bits)-bit TIFF")

        let dngPath = folder.path("raw.dng")
        try raw.write(to: dngPath)
        Self.expectColours(try ReferenceDecoder.dcraw(dngPath), "\(bits)-bit dcraw")
        let preview = try ExternalTool.run("exiftool", ["-b", "-ThumbnailTIFF", dngPath]).checked().stdout
        let previewPath = folder.path("preview.tiff")
        try preview.write(to: URL(fileURLWithPath: previewPath))
        let previewImage = try ReferenceDecoder.imageMagickStored(previewPath)
        #expect(previewImage.size == PixelSize(width: 256, height: 171))
        Self.expectColours(previewImage, "\(bits)-bit DNG preview")
    }
}
