/// A full-range BT.601 Y'CbCr 4:2:0 image in three planes (JFIF's colour space, "J420").
///
/// This is the one intermediate form of the pipeline: every frame is converted into it once,
/// and every encoder and scaler reads it. The planes are written only by the code that creates
/// the image, before it is shared, which is what makes the type `Sendable`.
package final class PlanarImage: @unchecked Sendable {
    /// Width and height of the luma plane.
    package let size: PixelSize
    /// Width and height of each chroma plane.
    package let chromaSize: PixelSize
    /// Bytes per row of the luma plane.
    package let lumaStride: Int
    /// Bytes per row of each chroma plane.
    package let chromaStride: Int
    private let storage: UnsafeMutableRawBufferPointer

    /// Allocates an image of `size` (contents undefined until written).
    package init(size: PixelSize) throws(ImagingError) {
        guard !size.isEmpty else { throw .invalidSize(size) }
        self.size = size
        chromaSize = PixelSize(width: (size.width + 1) / 2, height: (size.height + 1) / 2)
        (lumaStride, chromaStride) = Self.strides(for: size)
        storage = BufferPool.shared.take(byteCount: Self.byteCount(for: size))
    }

    /// 64-byte rows keep every SIMD load of libyuv and libjpeg-turbo aligned.
    private static func strides(for size: PixelSize) -> (luma: Int, chroma: Int) {
        ((size.width + 63) & ~63, ((size.width + 1) / 2 + 63) & ~63)
    }

    /// The bytes of the three planes of an image of `size`.
    private static func byteCount(for size: PixelSize) -> Int {
        let (luma, chroma) = strides(for: size)
        return luma * size.height + 2 * chroma * ((size.height + 1) / 2)
    }

    /// Has the memory for an image of `size` made ready on another thread, so the image that
    /// a capture allocates soon after finds it (see ``BufferPool/prepare(byteCount:)``).
    package static func prepareStorage(for size: PixelSize) {
        guard !size.isEmpty else { return }
        BufferPool.shared.prepare(byteCount: byteCount(for: size))
    }

    deinit { BufferPool.shared.give(storage) }

    private var lumaCount: Int { lumaStride * size.height }
    private var chromaCount: Int { chromaStride * chromaSize.height }

    /// The start of plane 0 (Y), 1 (Cb) or 2 (Cr).
    package func baseAddress(ofPlane plane: Int) -> UnsafeMutablePointer<UInt8> {
        precondition((0...2).contains(plane), "a planar image has planes 0, 1 and 2")
        let offset = plane == 0 ? 0 : lumaCount + (plane - 1) * chromaCount
        return (storage.baseAddress! + offset).assumingMemoryBound(to: UInt8.self)
    }

    /// Bytes per row of plane 0, 1 or 2.
    package func stride(ofPlane plane: Int) -> Int { plane == 0 ? lumaStride : chromaStride }

    /// Size of plane 0, 1 or 2.
    package func size(ofPlane plane: Int) -> PixelSize { plane == 0 ? size : chromaSize }

    /// The three plane pointers, Y, Cb, Cr.
    package var planes: (y: UnsafeMutablePointer<UInt8>, cb: UnsafeMutablePointer<UInt8>,
                        cr: UnsafeMutablePointer<UInt8>) {
        (baseAddress(ofPlane: 0), baseAddress(ofPlane: 1), baseAddress(ofPlane: 2))
    }

    /// The plane's rows without stride padding, concatenated.
    package func packedPlane(_ plane: Int) -> [UInt8] {
        let planeSize = size(ofPlane: plane)
        let stride = stride(ofPlane: plane)
        let base = baseAddress(ofPlane: plane)
        var bytes = [UInt8]()
        bytes.reserveCapacity(planeSize.area)
        for row in 0..<planeSize.height {
            bytes.append(contentsOf: UnsafeBufferPointer(start: base + row * stride, count: planeSize.width))
        }
        return bytes
    }
}
