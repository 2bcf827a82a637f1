/// What ``FrameMerger/merge(reference:neighbours:noiseLevel:)`` found and did.
package struct FrameMergeReport: Hashable, Sendable {
    /// One neighbour's part in the merge.
    package struct Neighbour: Hashable, Sendable {
        /// How far the neighbour's picture lies from the reference's, in luma pixels: its pixel
        /// (x + dx, y + dy) shows the reference's (x, y).
        package var dx: Int, dy: Int
        /// The weighted share of the picture it contributed to, 0...1: 1 where it matched the
        /// reference within the noise everywhere, less where it was rejected as motion (or had
        /// no data, at the edges its translation uncovers).
        package var contribution: Double
    }

    /// The reference's noise level σ (8-bit luma), estimated or given.
    package var noiseLevel: Double
    /// The neighbours, in the order given.
    package var neighbours: [Neighbour]

    /// The reference and the neighbours that contributed to at least 5% of the picture.
    package var framesUsed: Int { 1 + neighbours.count { $0.contribution >= 0.05 } }
}
