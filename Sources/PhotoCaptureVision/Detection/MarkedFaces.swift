import Imaging

/// The faces marked by hand in one photo (a list like `TestImages/faces/marked-faces.txt`), and
/// how a detector's faces compare with them: what the tests assert and the benchmark prints.
package struct MarkedFaces: Sendable {
    /// A list line that is not `file x y width height`.
    package struct BadLine: Error, CustomStringConvertible {
        /// The line's number, from 1.
        package let number: Int
        /// The line.
        package let text: String
        /// A sentence for people.
        package var description: String { "line \(number) is not `file x y width height`: \(text)" }
    }

    /// The photo's file name.
    package let file: String
    /// The faces, in the file's pixels.
    package let boxes: [PixelRect]

    /// The photos of a list, in the order they first appear: one face a line, `file x y width
    /// height`; `#` starts a comment line.
    package static func parse(_ text: String) throws(BadLine) -> [MarkedFaces] {
        var order: [String] = []
        var boxes: [String: [PixelRect]] = [:]
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let fields = line.split(separator: " ")
            guard !fields.isEmpty, !line.hasPrefix("#") else { continue }
            let numbers = fields.dropFirst().compactMap { Int($0) }
            guard fields.count == 5, numbers.count == 4, numbers[2] > 0, numbers[3] > 0 else {
                throw BadLine(number: index + 1, text: String(line))
            }
            let file = String(fields[0])
            if boxes[file] == nil { order.append(file) }
            boxes[file, default: []].append(PixelRect(x: numbers[0], y: numbers[1],
                                                      size: PixelSize(width: numbers[2], height: numbers[3])))
        }
        return order.map { MarkedFaces(file: $0, boxes: boxes[$0] ?? []) }
    }

    /// Whether `found` is `marked`'s face: they overlap (IoU at least 0.3) or `found`'s centre is
    /// inside `marked`, and their sizes (square roots of the areas) are within a factor of 1.6.
    package static func isFace(_ found: NormalizedRect, _ marked: NormalizedRect) -> Bool {
        let overlaps = found.intersectionOverUnion(marked) >= 0.3
            || (marked.x...marked.maxX).contains(found.midX) && (marked.y...marked.maxY).contains(found.midY)
        let ratio = (found.area / marked.area).squareRoot()
        return overlaps && ratio <= 1.6 && ratio >= 1 / 1.6
    }

    /// The marked faces that none of `found` is (``isFace(_:_:)``), and the found faces that are
    /// none of the marked ones; `size` is the photo's.
    package func compare(_ found: [NormalizedRect], photoSize size: PixelSize) -> (missed: [PixelRect], extra: [NormalizedRect]) {
        let marked = boxes.map { NormalizedRect($0, in: size) }
        let missed = boxes.filter { box in !found.contains { Self.isFace($0, NormalizedRect(box, in: size)) } }
        let extra = found.filter { face in !marked.contains { Self.isFace(face, $0) } }
        return (missed, extra)
    }
}
