import CImagingKernels
import Testing

/// The row kernels' AVX2 form gives the bytes of their baseline form, and both the formula's
/// (kernels.c): at lengths around every step size, so the tails are covered too. The AVX2 form
/// is forced, as a debug build (these tests) does not choose it by itself.
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

    static let hasAVX2: Bool = {
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        return cpuinfo.split(separator: "\n").first { $0.hasPrefix("flags") }?.split(separator: " ").contains("avx2") ?? false
    }()

    /// The forms this processor can run.
    static let forms = Self.hasAVX2 ? [PC_KERNELS_BASELINE, PC_KERNELS_AVX2] : [PC_KERNELS_BASELINE]

    /// Runs `body` with `form` forced, then restores the automatic choice.
    static func with<T>(_ form: pc_kernel_form, _ body: () -> T) -> T {
        #expect(pc_kernels_set_form(form) == 1)
        defer { pc_kernels_set_form(PC_KERNELS_AUTOMATIC) }
        return body()
    }

    @Test func rangeExpansionMatchesTheFormulaInEitherForm() {
        for count in Self.lengths {
            let source = Self.row(count, seed: UInt64(count) + 1)
            let luma = source.map { UInt8(min(255, ((Int($0) > 16 ? Int($0) - 16 : 0) * 149 + 64) >> 7)) }
            let chroma = source.map { UInt8(max(0, min(255, (((Int($0) - 128) * 146 + 64) >> 7) + 128))) }
            for form in Self.forms {
                var expandedLuma = source, expandedChroma = source
                Self.with(form) {
                    #expect((pc_kernels_use_avx2() != 0) == (form == PC_KERNELS_AVX2))
                    expandedLuma.withUnsafeMutableBufferPointer { pc_expand_luma_range($0.baseAddress, $0.count) }
                    expandedChroma.withUnsafeMutableBufferPointer { pc_expand_chroma_range($0.baseAddress, $0.count) }
                }
                #expect(expandedLuma == luma, "luma, \(count) samples, form \(form.rawValue)")
                #expect(expandedChroma == chroma, "chroma, \(count) samples, form \(form.rawValue)")
            }
        }
    }

    @Test func rowSumsMatchInEitherForm() {
        for count in Self.lengths {
            let rows = (0..<5).map { Self.row(count, seed: UInt64(count * 10 + $0)) }
            let expected = (0..<count).map { column in UInt16(rows.reduce(0) { $0 + Int($1[column]) }) }
            for form in Self.forms {
                var sums = [UInt16](repeating: 0xFFFF, count: count)
                Self.with(form) {
                    for (index, row) in rows.enumerated() {
                        sums.withUnsafeMutableBufferPointer { sums in
                            row.withUnsafeBufferPointer { pc_accumulate_row(sums.baseAddress, $0.baseAddress, count, index == 0 ? 1 : 0) }
                        }
                    }
                }
                #expect(sums == expected, "\(count) samples, form \(form.rawValue)")
            }
        }
    }

    /// The automatic choice is AVX2 only in an optimised build (`swift test -c release`) on a
    /// processor with it: unoptimised, the baseline form is faster. CI's benchmark, a release
    /// build, prints its choice too ("row kernels: AVX2").
    @Test func theAutomaticChoiceIsAVX2OnlyOptimisedAndAVX2CanOnlyBeForcedWhereItRuns() {
        #if DEBUG
        let optimised = false
        #else
        let optimised = true
        #endif
        #expect((pc_kernels_use_avx2() != 0) == (optimised && Self.hasAVX2))
        #expect((pc_kernels_set_form(PC_KERNELS_AVX2) == 1) == Self.hasAVX2)
        pc_kernels_set_form(PC_KERNELS_AUTOMATIC)
        #expect((pc_kernels_use_avx2() != 0) == (optimised && Self.hasAVX2))
    }
}
