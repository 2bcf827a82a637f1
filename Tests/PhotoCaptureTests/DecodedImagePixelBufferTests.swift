import Foundation
import PhotoCapture
import Testing
import TestSupport

/// A decoded file's pixels as a photo's ``PixelBuffer`` (the capture layer's extension of
/// ``DecodedImage``).
@Suite struct DecodedImagePixelBufferTests {
    @Test("a pixel buffer of the decoded picture: its size, its colours within 4:2:0's rounding")
    func pixelBuffer() throws {
        let png = TestPaths.testImages.appendingPathComponent("faces/astronaut.png").path
        let decoded = try ImageDecoder().decode(fileAt: png)
        let buffer = try decoded.pixelBuffer()
        #expect(buffer.size == decoded.size && buffer.planeCount == 3)
        // Y'CbCr 4:2:0 and back: chroma averaged over 2x2 pixels.
        #expect(try buffer.rgbImage().meanAbsoluteDifference(to: decoded.image) < 6)
    }
}
