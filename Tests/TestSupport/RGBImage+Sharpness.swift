import Imaging

extension RGBImage {
    /// How sharp the picture is: the mean squared gradient of its luma (BT.601 weights), between
    /// horizontal and vertical neighbours. A blur spreads each edge over more pixels with smaller
    /// steps, so it falls as the blur grows.
    public var lumaGradientEnergy: Double {
        let (width, height) = (size.width, size.height)
        guard width > 1, height > 1 else { return 0 }
        var luma = [Double](repeating: 0, count: width * height)
        for index in luma.indices {
            let (r, g, b) = (Double(pixels[index * 3]), Double(pixels[index * 3 + 1]), Double(pixels[index * 3 + 2]))
            luma[index] = 0.299 * r + 0.587 * g + 0.114 * b
        }
        var energy = 0.0
        for y in 0..<(height - 1) {
            for x in 0..<(width - 1) {
                let here = luma[y * width + x]
                let dx = luma[y * width + x + 1] - here, dy = luma[(y + 1) * width + x] - here
                energy += dx * dx + dy * dy
            }
        }
        return energy / Double((width - 1) * (height - 1))
    }
}
