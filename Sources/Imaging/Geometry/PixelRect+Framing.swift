extension PixelRect {
    /// The crop of a frame of `frame` size with the aspect ratio `ratio` (width:height), as large
    /// as fits, then narrowed `zoom` times about the centre: the rectangle a dynamic aspect ratio
    /// and a zoom factor select.
    ///
    /// Origin and sides are even, because 4:2:0 chroma and Bayer tiles cover 2×2 pixels. The
    /// side that fills the frame (divided by `zoom`) is rounded down to even; the other side is
    /// the nearest even value to what the ratio asks, so the result is off the exact ratio by at
    /// most one pixel. The origin is the even offset nearest the exact centre, at most one pixel
    /// off it. `zoom` below 1 counts as 1; sides never drop below 2.
    package static func centred(ratio: (width: Int, height: Int), zoom: Double = 1, in frame: PixelSize) -> PixelRect {
        precondition(ratio.width > 0 && ratio.height > 0, "an aspect ratio needs positive terms, got \(ratio)")
        let zoom = max(1, zoom)
        func even(_ value: Double) -> Int { max(2, Int(value) & ~1) }
        func nearestEven(_ value: Double) -> Int { max(2, Int((value / 2).rounded()) * 2) }
        let (frameWidth, frameHeight) = (Double(frame.width), Double(frame.height))
        var width: Int, height: Int
        // Compare in integers so a frame that has the ratio exactly fills both sides.
        if frame.width * ratio.height <= frame.height * ratio.width {
            width = even(frameWidth / zoom)
            height = min(nearestEven(Double(width) * Double(ratio.height) / Double(ratio.width)), frame.height & ~1)
        } else {
            height = even(frameHeight / zoom)
            width = min(nearestEven(Double(height) * Double(ratio.width) / Double(ratio.height)), frame.width & ~1)
        }
        width = min(width, max(2, frame.width & ~1))
        height = min(height, max(2, frame.height & ~1))
        // The even offset nearest the exact centre, never past the far edge.
        func origin(_ free: Int) -> Int { max(0, min(Int((Double(free) / 4).rounded()) * 2, free & ~1)) }
        return PixelRect(x: origin(frame.width - width), y: origin(frame.height - height),
                         size: PixelSize(width: width, height: height))
    }

    /// Whether `other` lies entirely inside this rectangle.
    package func contains(_ other: PixelRect) -> Bool {
        other.x >= x && other.y >= y && other.x + other.size.width <= x + size.width
            && other.y + other.size.height <= y + size.height
    }

    /// The rectangle moved by `dx`, `dy`.
    package func offsetBy(dx: Int, dy: Int) -> PixelRect {
        PixelRect(x: x + dx, y: y + dy, size: size)
    }
}

extension RGBImage {
    /// The pixels inside `rect`, which must lie inside the image.
    package func cropped(to rect: PixelRect) -> RGBImage {
        precondition(PixelRect(covering: size).contains(rect), "crop \(rect) outside a \(size) image")
        var result = [UInt8]()
        result.reserveCapacity(rect.size.area * 3)
        for y in rect.y..<rect.y + rect.size.height {
            let start = (y * size.width + rect.x) * 3
            result += pixels[start..<start + rect.size.width * 3]
        }
        return RGBImage(size: rect.size, pixels: result)
    }
}
