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

    @Test func rangeExpansionMatchesTheFormulaInEitherForm() {
        for count in Self.lengths {
            let source = Self.row(count, seed: UInt64(count) + 1)
            let luma = source.map { UInt8(min(255, ((Int($0) > 16 ? Int($0) - 16 : 0) * 149 + 64) >> 7)) }
            let chroma = source.map { UInt8(max(0, min(255, (((Int($0) - 128) * 146 + 64) >> 7) + 128))) }
            for form in KernelForms.all {
                var expandedLuma = source, expandedChroma = source
                KernelForms.with(form) {
                    #expect((pc_kernels_use_avx2() != 0) == (form == PC_KERNELS_AVX2))
                    expandedLuma.withUnsafeMutableBufferPointer { pc_expand_luma_range($0.baseAddress, $0.count) }
                    expandedChroma.withUnsafeMutableBufferPointer { pc_expand_chroma_range($0.baseAddress, $0.count) }
                }
                #expect(expandedLuma == luma, "luma, \(count) samples, form \(form.rawValue)")
                #expect(expandedChroma == chroma, "chroma, \(count) samples, form \(form.rawValue)")
            }
        }
    }

    /// A block of rows in one call: padded rows leave the padding alone; unpadded ones are one run.
    @Test(arguments: [(width: 64, stride: 64), (width: 32, stride: 64), (width: 33, stride: 40), (width: 1, stride: 1)])
    func blocksOfRowsExpandEachRowAndNotThePadding(width: Int, stride: Int) {
        let rows = 7
        let source = Self.row(stride * rows, seed: UInt64(width * 1000 + stride))
        func expected(_ expand: (UInt8) -> UInt8) -> [UInt8] {
            source.enumerated().map { $0.offset % stride < width ? expand($0.element) : $0.element }
        }
        let luma = expected { UInt8(min(255, ((Int($0) > 16 ? Int($0) - 16 : 0) * 149 + 64) >> 7)) }
        let chroma = expected { UInt8(max(0, min(255, (((Int($0) - 128) * 146 + 64) >> 7) + 128))) }
        for form in KernelForms.all {
            var expandedLuma = source, expandedChroma = source
            KernelForms.with(form) {
                expandedLuma.withUnsafeMutableBufferPointer { pc_expand_luma_rows($0.baseAddress, stride, width, rows) }
                expandedChroma.withUnsafeMutableBufferPointer { pc_expand_chroma_rows($0.baseAddress, stride, width, rows) }
            }
            #expect(expandedLuma == luma, "luma, form \(form.rawValue)")
            #expect(expandedChroma == chroma, "chroma, form \(form.rawValue)")
        }
    }

    /// Rows added to column sums in calls of several rows (padded rows: the padding is not
    /// added), the first call starting the sums afresh, the later ones adding to them.
    @Test func rowSumsMatchInEitherForm() {
        let rowCount = 5
        for count in Self.lengths {
            let stride = count + 3
            let block = Self.row(stride * rowCount, seed: UInt64(count * 10 + 1))
            let expected = (0..<count).map { column in UInt16((0..<rowCount).reduce(0) { $0 + Int(block[$1 * stride + column]) }) }
            // All rows in one call; one, then four; two, then three.
            for split in [rowCount, 1, 2] {
                for form in KernelForms.all {
                    var sums = [UInt16](repeating: 0xFFFF, count: count)
                    KernelForms.with(form) {
                        sums.withUnsafeMutableBufferPointer { sums in
                            block.withUnsafeBufferPointer { block in
                                pc_accumulate_rows(sums.baseAddress, block.baseAddress, stride, count, split, 1)
                                if split < rowCount {
                                    pc_accumulate_rows(sums.baseAddress, block.baseAddress! + split * stride, stride, count, rowCount - split, 0)
                                }
                            }
                        }
                    }
                    #expect(sums == expected, "\(count) samples, rows split after \(split), form \(form.rawValue)")
                }
            }
        }
    }

    /// The tallest box the thumbnail allows (257 rows of 255 sum to 65,535) stays exact.
    @Test func rowSumsReachTheLargest16BitSum() {
        let (count, rows) = (65, 257)
        let block = [UInt8](repeating: 255, count: count * rows)
        for form in KernelForms.all {
            var sums = [UInt16](repeating: 0, count: count)
            KernelForms.with(form) {
                sums.withUnsafeMutableBufferPointer { sums in
                    block.withUnsafeBufferPointer { pc_accumulate_rows(sums.baseAddress, $0.baseAddress, count, count, rows, 1) }
                }
            }
            #expect(sums == [UInt16](repeating: 65535, count: count), "form \(form.rawValue)")
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
        KernelForms.with(PC_KERNELS_AUTOMATIC) {
            #expect((pc_kernels_use_avx2() != 0) == (optimised && KernelForms.hasAVX2))
            #expect((pc_kernels_set_form(PC_KERNELS_AVX2) == 1) == KernelForms.hasAVX2)
            pc_kernels_set_form(PC_KERNELS_AUTOMATIC)
            #expect((pc_kernels_use_avx2() != 0) == (optimised && KernelForms.hasAVX2))
        }
    }
}
