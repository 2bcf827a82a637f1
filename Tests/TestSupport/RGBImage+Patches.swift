import Imaging

extension RGBImage {
    /// The mean red, green and blue of the pixels in `rect`.
    public func meanColour(in rect: PixelRect) -> [Double] {
        var sums = [0.0, 0.0, 0.0]
        for y in rect.y..<(rect.y + rect.size.height) {
            for x in rect.x..<(rect.x + rect.size.width) {
                let index = (y * size.width + x) * 3
                for channel in 0..<3 { sums[channel] += Double(pixels[index + channel]) }
            }
        }
        return sums.map { $0 / Double(rect.size.area) }
    }

    /// The largest difference of a channel's mean in `rect` from `colour`.
    public func largestChannelError(in rect: PixelRect, from colour: (UInt8, UInt8, UInt8)) -> Double {
        let mean = meanColour(in: rect)
        return zip(mean, [colour.0, colour.1, colour.2]).map { abs($0 - Double($1)) }.max()!
    }
}
