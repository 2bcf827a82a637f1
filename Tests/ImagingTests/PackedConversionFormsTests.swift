import CImagingKernels
import Imaging
import Testing

/// YUYV and UYVY to full-range planes in one AVX2 pass (`pc_packed_to_i420_expanded`) against
/// the baseline form, libyuv's YUY2ToI420 or UYVYToI420 followed by the range expansion: the
/// whole conversion pass, byte for byte, through every path that reads the frame (rows down and
/// up, quarter-turned bands, crops, odd heights, widths that are no multiple of 32, padded rows).
@Suite struct PackedConversionFormsTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let size: PixelSize
        let bytesPerRow: Int?
        let crop: PixelRect?
        var testDescription: String { "\(size.width)x\(size.height), stride \(bytesPerRow.map(String.init) ?? "tight"), crop \(crop.map { "\($0)" } ?? "none")" }
    }

    static let cases = [
        Case(size: PixelSize(width: 64, height: 32), bytesPerRow: nil, crop: nil),
        Case(size: PixelSize(width: 98, height: 37), bytesPerRow: nil, crop: nil),
        Case(size: PixelSize(width: 130, height: 66), bytesPerRow: 300, crop: nil),
        Case(size: PixelSize(width: 2, height: 2), bytesPerRow: nil, crop: nil),
        Case(size: PixelSize(width: 34, height: 3), bytesPerRow: nil, crop: nil),
        Case(size: PixelSize(width: 640, height: 481), bytesPerRow: nil,
             crop: PixelRect(x: 34, y: 20, size: PixelSize(width: 300, height: 200))),
    ]

    /// Every byte value, in and out of the limited range, so the clamps are met.
    static func frame(_ testCase: Case, format: FramePixelFormat) throws -> Frame {
        let stride = testCase.bytesPerRow ?? testCase.size.width * 2
        var state: UInt32 = 7
        let bytes = (0..<stride * testCase.size.height).map { _ -> UInt8 in
            state = state &* 1_103_515_245 &+ 12345
            return UInt8(truncatingIfNeeded: state >> 16)
        }
        return try Frame(format: format, size: testCase.size, bytesPerRow: testCase.bytesPerRow, range: .limited,
                         storage: FrameStorage(copying: bytes))
    }

    static func planes(_ image: PlanarImage) -> [[UInt8]] {
        (0..<3).map { plane in
            let size = image.size(ofPlane: plane), stride = image.stride(ofPlane: plane)
            let base = image.baseAddress(ofPlane: plane)
            return (0..<size.height).flatMap { row in Array(UnsafeBufferPointer(start: base + row * stride, count: size.width)) }
        }
    }

    @Test(.enabled(if: KernelForms.hasAVX2, "the one pass is AVX2 only"), arguments: cases)
    func theOnePassGivesTheBaselineBytes(testCase: Case) throws {
        // Small strips, so bands and blocks meet the odd rows and the short last ones.
        let converter = FrameConverter(stripHeight: 6, quarterTurnStripHeight: 8, quarterTurnBlockHeight: 6, threads: 2)
        let orientations: [Orientation] = [.up, .down, .upMirrored, .downMirrored, .right, .left, .rightMirrored, .leftMirrored]
        for format in [FramePixelFormat.yuyv, .uyvy] {
            let frame = try Self.frame(testCase, format: format)
            for orientation in orientations {
                let baseline = try KernelForms.with(PC_KERNELS_BASELINE) { try converter.convert(frame, crop: testCase.crop, applying: orientation) }
                let onePass = try KernelForms.with(PC_KERNELS_AVX2) { try converter.convert(frame, crop: testCase.crop, applying: orientation) }
                let (expected, actual) = (Self.planes(baseline), Self.planes(onePass))
                for plane in 0..<3 {
                    let first = expected[plane].indices.first { expected[plane][$0] != actual[plane][$0] }
                    #expect(first == nil, "\(format) \(orientation), plane \(plane): first difference at sample \(first ?? 0)")
                }
            }
        }
    }

    /// It does take over: the kernel writes full-range samples where libyuv alone would not.
    @Test(.enabled(if: KernelForms.hasAVX2, "the one pass is AVX2 only"))
    func theOnePassWritesFullRangeSamples() throws {
        // Luma 16 and 235 become 0 and 255; chroma 16 and 240 become 0 and 255. YUYV, then the
        // same pixels as UYVY.
        let yuyv: [UInt8] = [16, 16, 235, 240] + [UInt8](repeating: 128, count: 60)
        let uyvy: [UInt8] = [16, 16, 240, 235] + [UInt8](repeating: 128, count: 60)
        for (pixels, isUYVY) in [(yuyv, Int32(0)), (uyvy, 1)] {
            var y = [UInt8](repeating: 1, count: 32), u = [UInt8](repeating: 1, count: 16), v = u
            let done = KernelForms.with(PC_KERNELS_AVX2) {
                pc_packed_to_i420_expanded(pixels, 64, &y, 32, &u, &v, 16, 32, 1, isUYVY)
            }
            #expect(done == 1)
            // Luma 128: (112 × 149 + 64) >> 7 = 130.
            #expect(Array(y.prefix(3)) == [0, 255, 130], "uyvy: \(isUYVY)")
            #expect(u[0] == 0 && v[0] == 255, "uyvy: \(isUYVY)")
            #expect(KernelForms.with(PC_KERNELS_BASELINE) { pc_packed_to_i420_expanded(pixels, 64, &y, 32, &u, &v, 16, 32, 1, isUYVY) } == 0)
        }
    }
}
