import Imaging
import Testing

/// ``PixelRect/centred(ratio:zoom:in:)``: the crop a dynamic aspect ratio and a zoom factor
/// select, checked against the definition (largest centred rectangle of the ratio, narrowed by
/// the zoom, even for 4:2:0) rather than against values it produced.
@Suite struct CentredCropTests {
    static let frames = [PixelSize(width: 1000, height: 750), PixelSize(width: 750, height: 1000),
                         PixelSize(width: 1920, height: 1080), PixelSize(width: 640, height: 360),
                         PixelSize(width: 4032, height: 3024), PixelSize(width: 1001, height: 751),
                         PixelSize(width: 96, height: 54)]
    static let ratios = [(1, 1), (3, 4), (4, 3), (9, 16), (16, 9)]
    static let zooms = [1.0, 1.5, 2.0, 3.7, 8.0]

    @Test(arguments: frames)
    func largestCentredEvenCropOfTheRatio(frame: PixelSize) {
        for (rw, rh) in Self.ratios {
            for zoom in Self.zooms {
                let label = "\(frame) \(rw):\(rh) zoom \(zoom)"
                let crop = PixelRect.centred(ratio: (rw, rh), zoom: zoom, in: frame)
                let (w, h) = (crop.size.width, crop.size.height)
                #expect(PixelRect(covering: frame).contains(crop), "\(label): \(crop)")
                #expect(crop.x % 2 == 0 && crop.y % 2 == 0 && w % 2 == 0 && h % 2 == 0, "\(label): \(crop) not even")
                // The ratio within one pixel of the shorter-rounded side.
                let exactHeight = Double(w) * Double(rh) / Double(rw)
                let exactWidth = Double(h) * Double(rw) / Double(rh)
                #expect(abs(Double(h) - exactHeight) <= 1 || abs(Double(w) - exactWidth) <= 1, "\(label): \(crop)")
                // Largest: the side the ratio lets fill the frame is the frame's side over the
                // zoom, rounded down to even; the other side fits.
                let widthFills = Double(frame.width) / Double(frame.height) <= Double(rw) / Double(rh)
                let filling = widthFills ? w : h
                let limit = Double(widthFills ? frame.width : frame.height) / zoom
                #expect(Double(filling) <= limit && Double(filling) > limit - 2, "\(label): \(crop) not the largest")
                // Centred to within one pixel.
                #expect(abs(2 * crop.x + w - frame.width) <= 2 && abs(2 * crop.y + h - frame.height) <= 2,
                        "\(label): \(crop) off centre")
            }
        }
    }

    @Test func aFrameOfTheRatioIsKeptWhole() {
        #expect(PixelRect.centred(ratio: (4, 3), in: PixelSize(width: 1000, height: 750))
                == PixelRect(covering: PixelSize(width: 1000, height: 750)))
        #expect(PixelRect.centred(ratio: (16, 9), in: PixelSize(width: 1280, height: 720))
                == PixelRect(covering: PixelSize(width: 1280, height: 720)))
        // Worked examples: 1:1 of 720p is the middle 720 columns; 16:9 of 1000x750 is 1000x562.5.
        #expect(PixelRect.centred(ratio: (1, 1), in: PixelSize(width: 1280, height: 720))
                == PixelRect(x: 280, y: 0, size: PixelSize(width: 720, height: 720)))
        #expect(PixelRect.centred(ratio: (16, 9), in: PixelSize(width: 1000, height: 750)).size
                == PixelSize(width: 1000, height: 562))
        #expect(PixelRect.centred(ratio: (4, 3), zoom: 2, in: PixelSize(width: 4032, height: 3024))
                == PixelRect(x: 1008, y: 756, size: PixelSize(width: 2016, height: 1512)))
    }

    @Test func croppingAnImageKeepsThePixelsOfTheRectangle() {
        let size = PixelSize(width: 5, height: 4)
        let image = RGBImage(size: size, pixels: (0..<size.area * 3).map { UInt8($0) })
        let part = image.cropped(to: PixelRect(x: 1, y: 2, size: PixelSize(width: 3, height: 2)))
        #expect(part.size == PixelSize(width: 3, height: 2))
        #expect(part.pixel(x: 0, y: 0) == image.pixel(x: 1, y: 2))
        #expect(part.pixel(x: 2, y: 1) == image.pixel(x: 3, y: 3))
    }
}
