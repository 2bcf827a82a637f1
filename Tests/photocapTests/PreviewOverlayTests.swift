import PhotoCaptureVision
import Testing
@testable import photocap_vision

/// The drawing behind `watch --overlay`: exact pixels of outlines, digits and the overlay's
/// placement in the preview.
@Suite struct PreviewOverlayTests {
    static let grey = RGBCanvas.Colour(r: 50, g: 60, b: 70)
    static let red = RGBCanvas.Colour(r: 255, g: 0, b: 0)

    static func blank(_ width: Int, _ height: Int) -> RGBCanvas {
        RGBCanvas(RGBImage(size: PixelSize(width: width, height: height),
                           pixels: [UInt8]((0..<width * height).flatMap { _ in [grey.r, grey.g, grey.b] })))
    }

    @Test func outlineCoversItsEdgesInsideAndNothingElse() {
        var canvas = Self.blank(100, 80)
        canvas.strokeRectangle(PixelRect(x: 10, y: 20, size: PixelSize(width: 30, height: 20)), lineWidth: 2, colour: Self.red)
        // On the outline: corners, both pixels of each edge's width.
        for (x, y) in [(10, 20), (39, 20), (10, 39), (39, 39), (11, 30), (38, 30), (25, 21), (25, 38)] {
            #expect(canvas.colour(x: x, y: y) == Self.red, "(\(x), \(y))")
        }
        // Inside the outline and outside the rectangle: untouched.
        for (x, y) in [(12, 30), (37, 30), (25, 22), (25, 37), (9, 20), (40, 20), (25, 19), (25, 40), (0, 0), (99, 79)] {
            #expect(canvas.colour(x: x, y: y) == Self.grey, "(\(x), \(y))")
        }
        let changed = stride(from: 0, to: canvas.image.pixels.count, by: 3).filter { canvas.image.pixels[$0] == 255 }.count
        #expect(changed == 30 * 20 - 26 * 16)
    }

    @Test func outlineLeavingThePictureIsClipped() {
        var canvas = Self.blank(20, 20)
        canvas.strokeRectangle(PixelRect(x: -5, y: 15, size: PixelSize(width: 10, height: 10)), lineWidth: 1, colour: Self.red)
        #expect(canvas.colour(x: 4, y: 15) == Self.red && canvas.colour(x: 4, y: 19) == Self.red)
        #expect(canvas.colour(x: 0, y: 15) == Self.red && canvas.colour(x: 3, y: 17) == Self.grey)
    }

    @Test func digitsDrawTheirBitmap() {
        var canvas = Self.blank(20, 10)
        canvas.drawNumber(17, x: 1, y: 2, scale: 1, colour: Self.red)
        #expect(RGBCanvas.numberSize(17, scale: 1) == PixelSize(width: 7, height: 5))
        func row(_ y: Int) -> String {
            String((0..<9).map { canvas.colour(x: $0, y: y) == Self.red ? "#" : "." })
        }
        // "1" then "7", one column apart, from (1, 2).
        #expect((1...7).map(row) == [".........", "..#..###.", ".##....#.", "..#....#.", "..#....#.", ".###...#.", "........."])
        // Scaled: each cell is scale × scale pixels.
        var big = Self.blank(12, 12)
        big.drawNumber(8, x: 0, y: 0, scale: 3, colour: Self.red)
        #expect(big.colour(x: 0, y: 0) == Self.red && big.colour(x: 2, y: 2) == Self.red && big.colour(x: 8, y: 14 / 3) == Self.red)
        #expect(big.colour(x: 4, y: 4) == Self.grey, "the 8's upper hole")
    }

    @Test func overlayPutsFacesAndCropInPreviewPixels() {
        let canvas = Self.blank(64, 48)
        let overlay = PreviewOverlay(faces: [.init(id: 3, bounds: NormalizedRect(x: 0.25, y: 0.5, width: 0.25, height: 0.25))],
                                     crop: NormalizedRect(x: 0.125, y: 0, width: 0.75, height: 1))
        let drawn = RGBCanvas(overlay.drawn(on: canvas.image))
        // The face: (16, 24) 16x12, one pixel lines at this size.
        #expect(drawn.colour(x: 16, y: 24) == PreviewOverlay.faceColour && drawn.colour(x: 31, y: 35) == PreviewOverlay.faceColour)
        #expect(drawn.colour(x: 20, y: 30) == Self.grey && drawn.colour(x: 32, y: 35) == Self.grey)
        // The crop: x 8...55, the whole height.
        #expect(drawn.colour(x: 8, y: 5) == PreviewOverlay.framingColour && drawn.colour(x: 55, y: 5) == PreviewOverlay.framingColour)
        #expect(drawn.colour(x: 7, y: 5) == Self.grey && drawn.colour(x: 56, y: 5) == Self.grey)
        // The ID's label sits above the face: dark background, digit pixels in the face colour.
        let label = (16..<26).flatMap { x in (10..<24).map { y in drawn.colour(x: x, y: y) } }
        #expect(label.contains(PreviewOverlay.labelBackground) && label.contains(PreviewOverlay.faceColour))
    }

    @Test func overlayFromAFramingUsesItsCentredCrop() {
        let overlay = PreviewOverlay(faces: [], framing: Framing(aspectRatio: AspectRatio(parsing: "1:1")!), uprightSize: PixelSize(width: 640, height: 480))
        #expect(overlay.crop == NormalizedRect(x: 0.125, y: 0, width: 0.75, height: 1))
    }
}
