import CImagingKernels

/// A picture's luma halved level after level (2×2 means), for ``FrameMerger``'s coarse-to-fine
/// alignment. Level 0 is the image's own plane, not a copy.
final class LumaPyramid: @unchecked Sendable {
    /// One level: its samples, row stride and size.
    struct Level {
        let base: UnsafePointer<UInt8>
        let stride: Int
        let size: PixelSize
    }

    let levels: [Level]
    /// Keeps level 0's plane alive.
    private let image: PlanarImage
    private let storage: [UnsafeMutablePointer<UInt8>]

    /// Halves until `downsamplings` levels are made or a side would drop below `smallestSide`.
    init(_ image: PlanarImage, downsamplings: Int, smallestSide: Int) {
        self.image = image
        var levels = [Level(base: UnsafePointer(image.baseAddress(ofPlane: 0)), stride: image.lumaStride, size: image.size)]
        var storage: [UnsafeMutablePointer<UInt8>] = []
        while levels.count <= downsamplings, let last = levels.last,
              min(last.size.width, last.size.height) / 2 >= smallestSide {
            let size = PixelSize(width: last.size.width / 2, height: last.size.height / 2)
            let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: size.area)
            pc_downsample_half(last.base, last.stride, Int32(last.size.width), Int32(last.size.height), buffer, size.width)
            storage.append(buffer)
            levels.append(Level(base: UnsafePointer(buffer), stride: size.width, size: size))
        }
        self.levels = levels
        self.storage = storage
    }

    deinit { storage.forEach { $0.deallocate() } }
}
