import Imaging

/// A TIFF file turned upright by ``TIFFPixelTurner``, as the pieces to write one after the
/// other: the edited bytes that are not strips (``head``), runs of the original file, the
/// turned strips in the scratch file libtiff coded them into, and zeros. Written piece by
/// piece, a turned file is never whole in memory.
package struct TurnedTIFF {
    /// One run of the turned file.
    package enum Piece: Equatable {
        /// Bytes of ``TurnedTIFF/head``.
        case head(Range<Int>)
        /// The same bytes of the original file (strips left where they were).
        case original(Range<Int>)
        /// Bytes of the scratch file: a turned strip.
        case scratch(Range<Int>)
        /// So many zero bytes.
        case zeros(Int)
    }

    /// Where the turned strips go.
    enum Placement {
        /// Over the old strips, which lay in `region`, one after the other, word-aligned; the
        /// rest of the region zeroed.
        case replacing(Range<Int>, [Range<Int>])
        /// After the file's last byte, word-aligned.
        case appending([Range<Int>])

        /// The offsets of the strips in the turned file whose head has `headCount` bytes.
        func offsets(headCount: Int) -> [Int] {
            var position: Int
            let strips: [Range<Int>]
            switch self {
            case .replacing(let region, let ranges): (position, strips) = (region.lowerBound, ranges)
            case .appending(let ranges): (position, strips) = (headCount + headCount % 2, ranges)
            }
            return strips.map { strip in
                defer { position += strip.count + strip.count % 2 }
                return position
            }
        }

        /// The turned file: a head of `headCount` bytes whose `holes` were never read (they come
        /// from the original), with the strips placed.
        func pieces(headCount: Int, holes: [Range<Int>]) -> [Piece] {
            func strips(_ ranges: [Range<Int>]) -> [Piece] {
                ranges.flatMap { range in range.count % 2 == 1 ? [.scratch(range), .zeros(1)] : [.scratch(range)] }
            }
            /// Head bytes `range`, the holes in it taken from the original.
            func head(_ range: Range<Int>) -> [Piece] {
                var pieces: [Piece] = [], position = range.lowerBound
                for hole in holes where hole.overlaps(range) {
                    let hole = hole.clamped(to: range)
                    if position < hole.lowerBound { pieces.append(.head(position..<hole.lowerBound)) }
                    pieces.append(.original(hole))
                    position = hole.upperBound
                }
                if position < range.upperBound { pieces.append(.head(position..<range.upperBound)) }
                return pieces
            }
            switch self {
            case .replacing(let region, let ranges):
                let used = ranges.reduce(0) { $0 + $1.count + $1.count % 2 }
                let rest = region.count - used
                return head(0..<region.lowerBound) + strips(ranges) + (rest > 0 ? [.zeros(rest)] : [])
                    + head(region.upperBound..<headCount)
            case .appending(let ranges):
                // No padding after the file's last byte.
                let placed = strips(ranges)
                return head(0..<headCount) + (headCount % 2 == 1 ? [.zeros(1)] : []) + (placed.last == .zeros(1) ? placed.dropLast() : placed)
            }
        }
    }

    /// The turned file's bytes but its strips (and, read from a descriptor, the old strips'
    /// bytes, which ``pieces`` take from the original).
    package let head: [UInt8]
    /// The turned file, in order.
    package let pieces: [Piece]
    /// The upright picture's size.
    package let size: PixelSize
    /// The orientation the file had.
    package let orientation: Orientation
    /// Why the XMP packet was kept with its old `tiff:Orientation`, when it was.
    package let xmpKept: CodecError?

    /// The turned file's length.
    package var count: Int {
        pieces.reduce(0) { total, piece in
            switch piece {
            case .head(let range), .original(let range), .scratch(let range): total + range.count
            case .zeros(let count): total + count
            }
        }
    }

    /// The turned file in memory, from the `original` file's bytes and the `scratch` file's.
    func assembled(original: [UInt8], scratch: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        for piece in pieces {
            switch piece {
            case .head(let range): bytes += head[range]
            case .original(let range): bytes += original[range]
            case .scratch(let range): bytes += scratch[range]
            case .zeros(let count): bytes += repeatElement(0, count: count)
            }
        }
        return bytes
    }
}
