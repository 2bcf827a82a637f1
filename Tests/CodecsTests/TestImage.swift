import Codecs
import Foundation
import Imaging
import Testing
import TestSupport

/// The synthetic picture the codec tests encode.
enum TestImage {
    /// An image of `size` whose four quadrants have distinct colours and whose top-left
    /// quadrant holds a white square, so every one of the 8 orientations gives a different
    /// picture. Quadrant edges fall on multiples of 16 for the sizes used here, which keeps
    /// JPEG/HEVC chroma ringing small.
    static func quadrants(_ size: PixelSize) -> RGBImage {
        var rgb = [UInt8](repeating: 0, count: size.area * 3)
        let halfWidth = size.width / 2, halfHeight = size.height / 2
        for y in 0..<size.height {
            for x in 0..<size.width {
                let colour: (UInt8, UInt8, UInt8)
                switch (x < halfWidth, y < halfHeight) {
                case (true, true): colour = (220, 40, 40)     // red, top-left
                case (false, true): colour = (40, 200, 60)    // green, top-right
                case (true, false): colour = (40, 60, 210)    // blue, bottom-left
                case (false, false): colour = (230, 210, 40)  // yellow, bottom-right
                }
                let marker = x >= halfWidth / 4 && x < halfWidth / 2 && y >= halfHeight / 4 && y < halfHeight / 2
                let index = (y * size.width + x) * 3
                (rgb[index], rgb[index + 1], rgb[index + 2]) = marker ? (250, 250, 250) : colour
            }
        }
        return RGBImage(size: size, pixels: rgb)
    }

    /// The planar form of ``quadrants(_:)``, as the encoders take it.
    static func planarQuadrants(_ size: PixelSize) throws -> PlanarImage {
        try quadrants(size).planarImage()
    }
}

extension RGBImage {
    /// Wraps what ``JPEGDecoder/decodeRGB(_:)`` and ``HEICDecoder`` return.
    init(_ decoded: (size: PixelSize, rgb: [UInt8])) {
        self.init(size: decoded.size, pixels: decoded.rgb)
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs the test only when ``ThirdPartyImages`` are present.
    static var needsThirdPartyImages: Self {
        .enabled(if: ThirdPartyImages.folder != nil, Comment(rawValue: ThirdPartyImages.absentMessage))
    }
}
