import Imaging

extension RAWDeveloper {
    /// The smallest side LibRaw develops (it takes smaller images for no RAW file), with room.
    static let minimumDevelopedSide = 32

    /// A developed preview of a Bayer `frame` that fits `box` with the frame's aspect ratio,
    /// as stored (not turned): LibRaw's development of the frame binned down by whole tiles
    /// (so the preview costs one pass over the frame, not a full-size demosaic), described by
    /// `metadata`'s levels and colour, then scaled to size with an area filter.
    package static func preview(of frame: Frame, metadata: DNGMetadata, fitting box: PixelSize) throws(CodecError) -> RGBImage {
        let target = frame.size.aspectFit(within: box)
        guard !target.isEmpty else { throw .invalidArgument("preview box \(box) for a \(frame.size) frame") }
        let tiles = PixelSize(width: frame.size.width / 2, height: frame.size.height / 2)
        // Half-size development gives one pixel per 2×2 tile; bin so that is still at least the target.
        let factor = max(1, min(tiles.width / target.width, tiles.height / target.height))
        let halfSize = tiles.width >= target.width && tiles.height >= target.height
        var bare = metadata
        (bare.thumbnail, bare.xmp) = (nil, nil)
        let binned: Frame, padded: Frame
        do {
            binned = try frame.unpackedCSI2().binnedBayer(by: factor)
            // LibRaw refuses images under 22 pixels a side; a small frame is developed padded.
            padded = try binned.paddedBayer(toAtLeast: PixelSize(width: minimumDevelopedSide, height: minimumDevelopedSide))
        } catch { throw .imaging(error) }
        var developed = try RAWDeveloper(data: try DNGFile.encode(padded, metadata: bare)).develop(halfSize: halfSize)
        if padded.size != binned.size {
            let scale = halfSize ? 2 : 1
            developed = developed.cropped(to: PixelRect(x: 0, y: 0, size: PixelSize(
                width: min(developed.size.width, binned.size.width / scale),
                height: min(developed.size.height, binned.size.height / scale))))
        }
        do { return try developed.scaled(to: target) } catch { throw .imaging(error) }
    }
}
