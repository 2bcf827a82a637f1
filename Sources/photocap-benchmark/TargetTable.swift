import Foundation

/// The target table: each tracked ratio of this run beside its target, printed last so a CI log
/// shows them together.
struct TargetTable {
    private var rows: [(name: String, ratio: Double?, fastest: Double?, target: String, note: String)] = []

    /// Adds a row; a nil ratio prints `note` (why it was not measured) instead.
    mutating func add(_ name: String, _ ratio: Double?, target: String, note: String = "not measured (tool missing)") {
        rows.append((name, ratio, nil, target, note))
    }

    /// Adds a row of whole processes: the ratio of the medians, which the target is for, and
    /// that of the fastest runs beside it (on a VM whose fresh memory now and then faults in
    /// slowly, the two can differ by a third).
    mutating func add(_ name: String, processes ratio: ProcessComparison.ProcessRatio?, target: String,
                      note: String = "not measured (tool missing)") {
        rows.append((name, ratio?.median, ratio?.fastest, target, note))
    }

    func print() {
        Swift.print("targets, this run, \(ProcessInfo.processInfo.activeProcessorCount) cores:")
        for row in rows {
            let measured = row.ratio.map { String(format: "%5.2fx", $0) } ?? row.note
            let fastest = row.fastest.map { String(format: "  (fastest runs %.2fx)", $0) } ?? ""
            Swift.print("  " + row.name.padded(to: 66) + " " + measured.padded(to: 8) + "  target " + row.target + fastest)
        }
    }
}
