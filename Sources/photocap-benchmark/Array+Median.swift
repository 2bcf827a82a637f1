extension Array where Element == Double {
    /// The middle value; for an even count, the mean of the two middle ones (with two rounds,
    /// taking the upper one would report the slower run as the median).
    var median: Double {
        precondition(!isEmpty, "no samples")
        let sorted = self.sorted()
        return count % 2 == 1 ? sorted[count / 2] : (sorted[count / 2 - 1] + sorted[count / 2]) / 2
    }
}
