import PhotoCaptureVision
import Testing

/// Metadata ↔ sensor conversions, checked by moving real pixels: mark a rectangle in a frame,
/// crop and turn the frame with the imaging layer, and find the mark again.
@Suite struct MetadataCoordinatesTests {
    static let frame = PixelSize(width: 64, height: 48)
    static let crop = PixelRect(x: 10, y: 4, size: PixelSize(width: 36, height: 40))
    static let mark = PixelRect(x: 14, y: 9, size: PixelSize(width: 8, height: 5))

    /// The frame with `mark` white on black, cropped and turned upright, and where the white is.
    static func markFoundUpright(_ upright: Orientation) -> NormalizedRect {
        var pixels = [UInt8](repeating: 0, count: frame.area * 3)
        for y in mark.y..<mark.y + mark.size.height {
            for x in mark.x..<mark.x + mark.size.width { for c in 0..<3 { pixels[(y * frame.width + x) * 3 + c] = 255 } }
        }
        let picture = RGBImage(size: frame, pixels: pixels).cropped(to: crop).transformed(by: upright)
        var xs: [Int] = [], ys: [Int] = []
        for y in 0..<picture.size.height {
            for x in 0..<picture.size.width where picture.pixel(x: x, y: y).r == 255 { xs.append(x); ys.append(y) }
        }
        return NormalizedRect(PixelRect(x: xs.min()!, y: ys.min()!, size: PixelSize(width: xs.max()! - xs.min()! + 1, height: ys.max()! - ys.min()! + 1)),
                              in: picture.size)
    }

    @Test(arguments: Orientation.allCases)
    func sensorToMetadataFollowsThePixels(upright: Orientation) {
        let coordinates = MetadataCoordinates(frameSize: Self.frame, sensorCrop: Self.crop, upright: upright)
        let metadata = coordinates.metadataRect(fromSensor: Self.mark)
        let found = Self.markFoundUpright(upright)
        #expect(abs(metadata.x - found.x) < 1e-9 && abs(metadata.y - found.y) < 1e-9, "\(metadata) vs \(found)")
        #expect(abs(metadata.width - found.width) < 1e-9 && abs(metadata.height - found.height) < 1e-9)
        #expect(coordinates.sensorRect(fromMetadata: metadata) == Self.mark)
        #expect(coordinates.uprightSize == upright.apply(to: Self.crop.size))
    }

    @Test func mountingAndRotationMakeTheUprightTurn() {
        // A sensor mounted 90° (counter-clockwise to compensate) held upright: the picture is the
        // frame turned a quarter counter-clockwise, as the photo pipeline turns it.
        let coordinates = MetadataCoordinates(frameSize: Self.frame, mounting: SensorMounting(rotation: 90))
        #expect(coordinates.upright == .left)
        #expect(coordinates.uprightSize == PixelSize(width: 48, height: 64))
        let photo = PixelSize(width: 480, height: 640)
        let metadata = NormalizedRect(x: 0.25, y: 0.5, width: 0.1, height: 0.05)
        #expect(MetadataCoordinates.photoRect(fromMetadata: metadata, photoSize: photo) == PixelRect(x: 120, y: 320, size: PixelSize(width: 48, height: 32)))
        #expect(MetadataCoordinates.metadataRect(fromPhoto: PixelRect(x: 120, y: 320, size: PixelSize(width: 48, height: 32)), photoSize: photo) == metadata)
    }
}
