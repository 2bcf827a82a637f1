import ArgumentParser

/// A duration on the command line: a number with a unit, `500ms`, `10s`, `2.5m`, `1h`.
struct TimeSpan: ExpressibleByArgument, Equatable, CustomStringConvertible {
    let duration: Duration

    init(_ duration: Duration) { self.duration = duration }

    init?(argument: String) {
        let units: [(suffix: String, nanoseconds: Double)] = [("ms", 1e6), ("s", 1e9), ("m", 60e9), ("h", 3600e9)]
        guard let unit = units.first(where: { argument.hasSuffix($0.suffix) }),
              let value = Double(argument.dropLast(unit.suffix.count)), value.isFinite, value > 0 else { return nil }
        let nanoseconds = value * unit.nanoseconds
        // A week at most: beyond that the schedule's arithmetic is not the problem.
        guard nanoseconds >= 1e6, nanoseconds <= 7 * 86_400e9 else { return nil }
        duration = .nanoseconds(Int64(nanoseconds))
    }

    var description: String {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return seconds < 1 ? "\(Int((seconds * 1000).rounded()))ms" : "\(seconds)s"
    }

    static var defaultValueDescription: String { "e.g. 500ms, 10s, 2m, 1h" }
}
