import CImagingKernels
import CYUV

extension PlanarImage {
    /// What computes a turn of the planes.
    package enum RotationKernel: Sendable, CaseIterable {
        /// Quarter turns in 16×16 tiles (`pc_rotate_plane`), several times faster than
        /// libyuv's 8-row transpose; half turns through libyuv.
        case tiles
        /// libyuv's `I420Rotate` for every turn.
        case libyuv
    }

    /// Turns the first `rows` rows of this image clockwise by `quarterTurns` (1, 2 or 3) into
    /// `output`, the turned block's top-left corner at pixel (`x`, `y`), both even so the chroma
    /// planes line up.
    ///
    /// Only that block of `output` is written. The block must lie inside `output`. With
    /// `keepingInCache`, the tiles kernel writes it with ordinary stores, for a reader that comes
    /// right after (a fused conversion's encoder); otherwise whole lines stream to memory.
    package func rotate(rows: Int, quarterTurns: Int, into output: PlanarImage, x: Int, y: Int,
                        kernel: RotationKernel = .tiles, keepingInCache: Bool = false) throws(ImagingError) {
        let block = PixelSize(width: size.width, height: rows)
        let turned = quarterTurns % 2 == 0 ? block : PixelSize(width: rows, height: size.width)
        // A wrong block would make the kernels write outside the planes: refuse it.
        guard (1...3).contains(quarterTurns), (1...size.height).contains(rows), x >= 0, y >= 0, x % 2 == 0, y % 2 == 0,
              x + turned.width <= output.size.width, y + turned.height <= output.size.height
        else { throw .invalidSize(turned) }
        let source = planes, target = output.planes
        let lumaOffset = y * output.lumaStride + x
        let chromaOffset = (y / 2) * output.chromaStride + x / 2
        guard kernel == .libyuv || quarterTurns == 2 else {
            let chroma = PixelSize(width: (block.width + 1) / 2, height: (block.height + 1) / 2)
            pc_rotate_plane(source.y, lumaStride, target.y + lumaOffset, output.lumaStride,
                            Int32(block.width), Int32(block.height), Int32(quarterTurns), keepingInCache ? 0 : 1)
            for (from, to) in [(source.cb, target.cb), (source.cr, target.cr)] {
                pc_rotate_plane(from, chromaStride, to + chromaOffset, output.chromaStride,
                                Int32(chroma.width), Int32(chroma.height), Int32(quarterTurns), keepingInCache ? 0 : 1)
            }
            return
        }
        let mode = [kRotate90, kRotate180, kRotate270][quarterTurns - 1]
        let code = I420Rotate(
            source.y, Int32(lumaStride), source.cb, Int32(chromaStride), source.cr, Int32(chromaStride),
            target.y + lumaOffset, Int32(output.lumaStride),
            target.cb + chromaOffset, Int32(output.chromaStride),
            target.cr + chromaOffset, Int32(output.chromaStride),
            Int32(block.width), Int32(block.height), mode)
        guard code == 0 else { throw .libyuvFailed(function: "I420Rotate", code: code) }
    }
}
