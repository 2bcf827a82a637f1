extension Orientation {
    /// Where this transform sends the pixels of an image of `size`, as linear pixel indices in
    /// the output (its width is `apply(to: size).width`): the pixel at (x, y) lands at
    /// `origin + x · dx + y · dy`. Every orientation is such an affine map, which is what lets
    /// a picture be turned a band of rows at a time.
    package func linearMap(of size: PixelSize) -> (origin: Int, dx: Int, dy: Int) {
        let width = apply(to: size).width
        let origin = apply(toPoint: (0, 0), in: size)
        let stepX = apply(toPoint: (min(1, size.width - 1), 0), in: size)
        let stepY = apply(toPoint: (0, min(1, size.height - 1)), in: size)
        return (origin.y * width + origin.x,
                (stepX.x - origin.x) + (stepX.y - origin.y) * width,
                (stepY.x - origin.x) + (stepY.y - origin.y) * width)
    }

    /// Packed pixels of `bytesPerPixel` bytes each (rows without padding) of an image of `size`,
    /// with this orientation applied, as a viewer shows a file that carries it. Any pixel size:
    /// RGB, 16-bit grey, 64-bit RGBA, or sub-byte pixels unpacked by the caller.
    package func apply(toPixels source: [UInt8], of size: PixelSize, bytesPerPixel: Int) -> [UInt8] {
        precondition(source.count == size.area * bytesPerPixel, "\(source.count) bytes are not \(size) pixels of \(bytesPerPixel) bytes")
        guard self != .up else { return source }
        var result = [UInt8](repeating: 0, count: source.count)
        source.withUnsafeBufferPointer { source in
            result.withUnsafeMutableBufferPointer { target in
                place(rows: source, firstRow: 0, of: size, bytesPerPixel: bytesPerPixel, in: target)
            }
        }
        return result
    }

    /// Writes stored rows `firstRow...` of a picture of `size` (`source`: whole rows of packed
    /// pixels of `bytesPerPixel` bytes) where this orientation sends them in `target`, the
    /// turned picture: how a picture is turned a strip at a time, as it is decoded, without a
    /// stored copy beside the turned one.
    package func place(rows source: UnsafeBufferPointer<UInt8>, firstRow: Int, of size: PixelSize, bytesPerPixel: Int,
                       in target: UnsafeMutableBufferPointer<UInt8>) {
        let rowBytes = size.width * bytesPerPixel, rows = source.count / max(1, rowBytes)
        precondition(source.count == rows * rowBytes && firstRow + rows <= size.height && target.count == size.area * bytesPerPixel,
                     "rows \(firstRow)..<\(firstRow + rows) of \(source.count) bytes are not of \(size), or the target is not its size")
        let (origin, dx, dy) = linearMap(of: size)
        for row in 0..<rows {
            var t = (origin + (firstRow + row) * dy) * bytesPerPixel
            var s = row * rowBytes
            for _ in 0..<size.width {
                for byte in 0..<bytesPerPixel { target[t + byte] = source[s + byte] }
                s += bytesPerPixel
                t += dx * bytesPerPixel
            }
        }
    }
}
