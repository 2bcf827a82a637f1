import CImagingKernels
import Testing

/// The row kernels' AVX2 form gives the bytes of their baseline form, and both the formula's
/// (kernels.c): at lengths around every step size, so the tails are covered too.
@Suite(.serialized) struct RowKernelTests {
    static let lengths = [0, 1, 15, 16, 17, 31, 32, 33, 63, 64, 65, 4031, 4032, 4033]

    /// Random rows: every byte value turns up in the longer ones.
    static func row(_ count: Int, seed: UInt64) -> [UInt8] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
    }

    /// Runs `body` with the baseline form forced, then restores the processor's choice.
    static func portable<T>(_ body: () -> T) -> T {
        pc_kernels_set_portable(1)
        defer { pc_kernels_set_portable(0) }
        return body()
    }

    @Test func rangeExpansionMatchesTheFormulaInEitherForm() {
        for count in Self.lengths {
            let source = Self.row(count, seed: UInt64(count) + 1)
            let luma = source.map { UInt8(min(255, ((Int($0) > 16 ? Int($0) - 16 : 0) * 149 + 64) >> 7)) }
            let chroma = source.map { UInt8(max(0, min(255, (((Int($0) - 128) * 146 + 64) >> 7) + 128))) }
            for portable in [false, true] {
                var expandedLuma = source, expandedChroma = source
                let run = {
                    expandedLuma.withUnsafeMutableBufferPointer { pc_expand_luma_range($0.baseAddress, $0.count) }
                    expandedChroma.withUnsafeMutableBufferPointer { pc_expand_chroma_range($0.baseAddress, $0.count) }
                }
                if portable { Self.portable(run) } else { run() }
                #expect(expandedLuma == luma, "luma, \(count) samples, portable: \(portable)")
                #expect(expandedChroma == chroma, "chroma, \(count) samples, portable: \(portable)")
            }
        }
    }

    @Test func rowSumsMatchInEitherForm() {
        for count in Self.lengths {
            let rows = (0..<5).map { Self.row(count, seed: UInt64(count * 10 + $0)) }
            let expected = (0..<count).map { column in UInt16(rows.reduce(0) { $0 + Int($1[column]) }) }
            for portable in [false, true] {
                var sums = [UInt16](repeating: 0xFFFF, count: count)
                let run = {
                    for (index, row) in rows.enumerated() {
                        sums.withUnsafeMutableBufferPointer { sums in
                            row.withUnsafeBufferPointer { pc_accumulate_row(sums.baseAddress, $0.baseAddress, count, index == 0 ? 1 : 0) }
                        }
                    }
                }
                if portable { Self.portable(run) } else { run() }
                #expect(sums == expected, "\(count) samples, portable: \(portable)")
            }
        }
    }

    @Test func thisProcessorTakesTheAVX2FormWhenItHasIt() throws {
        let cpuinfo = try String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)
        let hasAVX2 = cpuinfo.split(separator: "\n").first { $0.hasPrefix("flags") }?.split(separator: " ").contains("avx2") ?? false
        #expect((pc_kernels_use_avx2() != 0) == hasAVX2)
        #expect(Self.portable { pc_kernels_use_avx2() } == 0)
    }
}
