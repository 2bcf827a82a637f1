import ArgumentParser
import FoundationEssentials
import PhotoCapture

/// `shoot`'s bracket options: `--bracket -2,0,+2` or `--bracket-manual 1/100@100,1/50@200`.
struct BracketOptions: ParsableArguments {
    @Option(name: .customLong("bracket"), parsing: .unconditional,
            help: "Take a bracket: exposure biases in EV, comma-separated (e.g. -2,0,+2 or -1/3,0,+1/3). Files get -b1, -b2... suffixes.")
    var biases: String?

    @Option(name: .customLong("bracket-manual"),
            help: "Take a bracket of manual exposures TIME@ISO, comma-separated (e.g. 1/100@100,1/50@200; 1/100 or @400 keep the other value metered). On V4L2 cameras ISO is the gain control's value.")
    var manual: String?

    @Option(name: .customLong("settle-frames"),
            help: "Frames to wait after each bracket member's exposure change (default: the camera's; 3 on V4L2 cameras).")
    var settleFrames: Int?

    /// The members, in order; empty without a bracket option.
    var members: [BracketedStillImageSettings] {
        (try? parsedMembers()) ?? []
    }

    func validate() throws {
        if biases != nil && manual != nil { throw ValidationError("--bracket and --bracket-manual exclude each other") }
        if let settleFrames, !(0...1000).contains(settleFrames) {
            throw ValidationError("--settle-frames must be from 0 to 1000, got \(settleFrames)")
        }
        if settleFrames != nil && biases == nil && manual == nil {
            throw ValidationError("--settle-frames goes with --bracket or --bracket-manual")
        }
        _ = try parsedMembers()
    }

    private func parsedMembers() throws -> [BracketedStillImageSettings] {
        if let biases {
            return try Self.items(biases, "--bracket").map { item in
                guard let bias = Self.number(item) else {
                    throw ValidationError("--bracket: '\(item)' is not an exposure bias in EV (e.g. -2, +1, -1/3)")
                }
                return .autoExposure(exposureTargetBias: bias)
            }
        }
        if let manual {
            return try Self.items(manual, "--bracket-manual").map { item in
                let parts = item.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                let time = parts[0].hasSuffix("s") ? String(parts[0].dropLast()) : parts[0]
                let duration = time.isEmpty ? nil : Self.number(time)
                let iso = parts.count > 1 ? Self.number(parts[1]) : nil
                guard time.isEmpty || duration != nil, parts.count == 1 || iso != nil, duration != nil || iso != nil else {
                    throw ValidationError("--bracket-manual: '\(item)' is not TIME@ISO (e.g. 1/100@200, 0.5@100, 1/60, @400)")
                }
                return .manualExposure(exposureDuration: duration, iso: iso)
            }
        }
        return []
    }

    private static func items(_ list: String, _ option: String) throws -> [String] {
        let items = list.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingWhitespace }
        guard !items.contains(where: \.isEmpty) else { throw ValidationError("\(option): empty member in '\(list)'") }
        return items
    }

    /// `2`, `+0.5`, `-1/3`, `1/100`.
    private static func number(_ text: String) -> Double? {
        let parts = text.split(separator: "/", maxSplits: 1).map(String.init)
        guard let first = parts.first, let value = Double(first), value.isFinite else { return nil }
        guard parts.count == 2 else { return value }
        guard let divisor = Double(parts[1]), divisor != 0, divisor.isFinite else { return nil }
        return value / divisor
    }
}
