import CImagingKernels

/// A small copy of a ``PlanarImage`` (a photo's thumbnail), made band by band while the bands
/// of its rows are still in cache, on the threads that write them: every pixel the rounded mean
/// of the whole source pixels its box covers (boxes split the source at ⌊i·source/target⌋).
///
/// Scaled afterwards, a 12 MP image is read again whole from memory, on one thread, after the
/// last band: some 1 ms on the way to the photo. Here each band adds its rows to column sums
/// (16-bit, one row of sums per thumbnail row) and a thumbnail row is finished by the thread
/// that adds its last source row.
///
/// The source rows come in parts (a strip encoder's strips): each part's bands arrive in order
/// on one thread, different parts on different threads. A thumbnail row whose box spans parts
/// keeps sums per part and is finished by ``finish()``, once every band is in.
///
/// Unchecked: a row of sums belongs to one part, and so to one thread, until ``finish()``,
/// which the caller runs after every band (the strip encoder's semaphore orders them).
package final class BandedReduction: @unchecked Sendable {
    /// The result, complete after ``finish()``.
    package let image: PlanarImage
    private let planes: [Plane]

    /// Nil when `size` is larger than `source` on a side, or so much smaller that a box holds
    /// more rows than 16-bit sums allow.
    package init?(from source: PixelSize, to size: PixelSize, parts: [Range<Int>]) throws(ImagingError) {
        guard size.width <= source.width, size.height <= source.height, !parts.isEmpty else { return nil }
        let target = try PlanarImage(size: size)
        let chroma = PixelSize(width: (source.width + 1) / 2, height: (source.height + 1) / 2)
        let luma = Plane(source: source, target: target.size(ofPlane: 0), partStarts: parts.map(\.lowerBound))
        let chromaPlanes = (0..<2).map { _ in
            Plane(source: chroma, target: target.size(ofPlane: 1), partStarts: parts.map { $0.lowerBound / 2 })
        }
        guard let luma, let cb = chromaPlanes[0], let cr = chromaPlanes[1] else { return nil }
        (image, planes) = (target, [luma, cb, cr])
    }

    /// Adds rows `rows` of the source (an even start; one band of one part, after the part's
    /// earlier bands), read from `source`, whose first row is source row `firstRow` (even): the
    /// whole image (0) or a band buffer.
    package func add(rows: Range<Int>, of source: PlanarImage, firstRow: Int = 0) {
        for (index, plane) in planes.enumerated() {
            let planeRows = index == 0 ? rows : (rows.lowerBound / 2)..<((rows.upperBound + 1) / 2)
            plane.add(rows: planeRows, from: source.baseAddress(ofPlane: index), firstRow: index == 0 ? firstRow : firstRow / 2,
                      stride: source.stride(ofPlane: index),
                      into: image.baseAddress(ofPlane: index), stride: image.stride(ofPlane: index))
        }
    }

    /// Finishes the rows whose boxes span parts; call once, after every band.
    package func finish() -> PlanarImage {
        for (index, plane) in planes.enumerated() {
            plane.finishSpanningRows(into: image.baseAddress(ofPlane: index), stride: image.stride(ofPlane: index))
        }
        return image
    }

    /// One plane's boxes and sums.
    private final class Plane {
        let width: Int
        /// Where each target row's box starts, and the source height last.
        let rowStarts: [Int]
        /// Where each target column's box starts, and the source width last.
        let columnStarts: [Int32]
        /// Where each part starts (source rows), and the source height last.
        let partBounds: [Int]
        /// Each target row's first row of sums: one row of sums per part its box meets.
        let firstSlot: [Int]
        /// The first part each target row's box meets (whose sums are at ``firstSlot``).
        let firstPart: [Int]
        let sums: UnsafeMutablePointer<UInt16>

        init?(source: PixelSize, target: PixelSize, partStarts: [Int]) {
            let rowStarts = (0...target.height).map { $0 * source.height / target.height }
            // Each sum adds at most this many rows of bytes.
            let tallest = zip(rowStarts, rowStarts.dropFirst()).map { $1 - $0 }.max() ?? 0
            guard tallest * 255 <= Int(UInt16.max) else { return nil }
            width = source.width
            self.rowStarts = rowStarts
            columnStarts = (0...target.width).map { Int32($0 * source.width / target.width) }
            partBounds = partStarts + [source.height]
            var firstSlot: [Int] = [], firstPart: [Int] = [], slots = 0
            for row in 0..<target.height {
                let parts = Self.parts(meeting: rowStarts[row]..<rowStarts[row + 1], bounds: partBounds)
                firstSlot.append(slots)
                firstPart.append(parts.lowerBound)
                slots += parts.count
            }
            self.firstSlot = firstSlot + [slots]
            self.firstPart = firstPart
            sums = .allocate(capacity: max(1, slots * source.width))
        }

        deinit { sums.deallocate() }

        /// The parts whose rows meet `rows`.
        static func parts(meeting rows: Range<Int>, bounds: [Int]) -> Range<Int> {
            let first = (bounds.lastIndex { $0 <= rows.lowerBound } ?? 0)
            let last = (bounds.lastIndex { $0 < rows.upperBound } ?? 0)
            return first..<min(bounds.count - 1, last + 1)
        }

        /// Adds `rows`, read from `source`, which holds rows from `firstRow` on.
        func add(rows: Range<Int>, from source: UnsafePointer<UInt8>, firstRow: Int, stride: Int,
                 into target: UnsafeMutablePointer<UInt8>, stride targetStride: Int) {
            guard !rows.isEmpty else { return }
            let part = partBounds.lastIndex { $0 <= rows.lowerBound } ?? 0
            let partRows = partBounds[part]..<partBounds[part + 1]
            // The target row whose box holds the band's first row.
            var row = (rowStarts.lastIndex { $0 <= rows.lowerBound } ?? 0)
            var line = rows.lowerBound
            // The band's rows of one box at a time, in one call: its sums stay in registers.
            while line < rows.upperBound {
                while rowStarts[row + 1] <= line { row += 1 }
                let box = rowStarts[row]..<rowStarts[row + 1]
                let ownRows = box.clamped(to: partRows)
                let slot = firstSlot[row] + part - firstPart[row]
                let end = min(rows.upperBound, ownRows.upperBound)
                pc_accumulate_rows(sums + slot * width, source + (line - firstRow) * stride, stride, width, end - line,
                                   line == ownRows.lowerBound ? 1 : 0)
                if end == ownRows.upperBound, firstSlot[row + 1] - firstSlot[row] == 1 {
                    pc_box_reduce_row(sums + slot * width, columnStarts, Int32(columnStarts.count - 1), UInt32(box.count),
                                      target + row * targetStride)
                }
                line = end
            }
        }

        func finishSpanningRows(into target: UnsafeMutablePointer<UInt8>, stride: Int) {
            for row in 0..<(rowStarts.count - 1) where firstSlot[row + 1] - firstSlot[row] > 1 {
                let first = sums + firstSlot[row] * width
                for slot in (firstSlot[row] + 1)..<firstSlot[row + 1] {
                    pc_add_column_sums(first, sums + slot * width, width)
                }
                pc_box_reduce_row(first, columnStarts, Int32(columnStarts.count - 1), UInt32(rowStarts[row + 1] - rowStarts[row]),
                                  target + row * stride)
            }
        }
    }
}
