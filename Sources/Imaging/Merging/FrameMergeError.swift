/// Why ``FrameMerger`` cannot merge the frames it was given.
package enum FrameMergeError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A neighbour (at `index` in the list) is not the reference's size.
    case sizeMismatch(index: Int, neighbour: PixelSize, reference: PixelSize)
    /// The reference is smaller than one 8×8 tile on a side.
    case tooSmall(PixelSize)

    /// One line for people.
    package var description: String {
        switch self {
        case .sizeMismatch(let index, let neighbour, let reference):
            return "neighbour \(index) is \(neighbour), the reference \(reference): frames to merge must have one size"
        case .tooSmall(let size):
            return "a \(size) reference is too small to merge (8x8 pixels at least)"
        }
    }
}
