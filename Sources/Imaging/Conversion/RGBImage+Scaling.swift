import CYUV

extension RGBImage {
    /// A copy scaled to `size` with an area (box) filter, in RGB (no chroma subsampling).
    package func scaled(to target: PixelSize) throws(ImagingError) -> RGBImage {
        guard !target.isEmpty else { throw .invalidSize(target) }
        if target == size { return self }
        var output = [UInt8](repeating: 0, count: target.area * 3)
        let code = pixels.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { destination in
                RGBScale(source.baseAddress, Int32(size.width * 3), Int32(size.width), Int32(size.height),
                         destination.baseAddress, Int32(target.width * 3), Int32(target.width), Int32(target.height),
                         kFilterBox)
            }
        }
        guard code == 0 else { throw .libyuvFailed(function: "RGBScale", code: code) }
        return RGBImage(size: target, pixels: output)
    }
}
