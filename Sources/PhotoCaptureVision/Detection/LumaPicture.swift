import Imaging

/// An 8-bit grey picture, upright, as face detectors read it: the downscaled luma of a frame.
public struct LumaPicture: Sendable, Equatable {
    /// Width and height in pixels.
    public let size: PixelSize
    /// One byte per pixel, rows packed, top row first.
    public let pixels: [UInt8]

    /// A picture of `size` from packed rows; `pixels` must hold exactly width × height bytes.
    public init(size: PixelSize, pixels: [UInt8]) {
        precondition(pixels.count == size.area, "a \(size) luma picture needs \(size.area) bytes, got \(pixels.count)")
        (self.size, self.pixels) = (size, pixels)
    }

    /// The Rec. 601 luma of an RGB picture (what a camera's Y plane holds).
    public init(_ image: RGBImage) {
        var luma = [UInt8](repeating: 0, count: image.size.area)
        image.pixels.withUnsafeBufferPointer { rgb in
            for index in 0..<luma.count {
                let (r, g, b) = (Int(rgb[3 * index]), Int(rgb[3 * index + 1]), Int(rgb[3 * index + 2]))
                luma[index] = UInt8((299 * r + 587 * g + 114 * b + 500) / 1000)
            }
        }
        self.init(size: image.size, pixels: luma)
    }

    /// The picture shrunk by box-averaging so that neither side exceeds `box` (kept as is when it
    /// already fits): the analysis size, where detection is fast enough for a live stream.
    public func downscaled(toFit box: PixelSize) -> LumaPicture {
        let target = size.aspectFit(within: box)
        guard target != size, !target.isEmpty else { return self }
        var result = [UInt8](repeating: 0, count: target.area)
        pixels.withUnsafeBufferPointer { source in
            for ty in 0..<target.height {
                let y0 = ty * size.height / target.height, y1 = max(y0 + 1, (ty + 1) * size.height / target.height)
                for tx in 0..<target.width {
                    let x0 = tx * size.width / target.width, x1 = max(x0 + 1, (tx + 1) * size.width / target.width)
                    var sum = 0
                    for y in y0..<y1 { for x in x0..<x1 { sum += Int(source[y * size.width + x]) } }
                    let count = (y1 - y0) * (x1 - x0)
                    result[ty * target.width + tx] = UInt8((sum + count / 2) / count)
                }
            }
        }
        return LumaPicture(size: target, pixels: result)
    }
}
