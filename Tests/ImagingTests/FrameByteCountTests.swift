import Imaging
import Testing

@Suite struct FrameByteCountTests {
    @Test("byte counts that overflow Int throw sizeOverflow instead of trapping")
    func overflow() throws {
        let huge = PixelSize(width: 4_294_967_296, height: 4_294_967_296)
        for format in [FramePixelFormat.yuyv, .nv12, .i420, .rgb24, .srggb16] {
            #expect(throws: ImagingError.sizeOverflow(huge, format: format)) {
                try format.frameByteCount(size: huge, bytesPerRow: format.minimumBytesPerRow(width: 4_294_967_296))
            }
        }
        // NV12 overflows only in the chroma rows: height + height / 2 rows of Int.max / 2 bytes.
        #expect(throws: ImagingError.sizeOverflow(PixelSize(width: 2, height: 2), format: .nv12)) {
            try FramePixelFormat.nv12.frameByteCount(size: PixelSize(width: 2, height: 2), bytesPerRow: Int.max / 2)
        }
        #expect(throws: ImagingError.invalidSize(PixelSize(width: -2, height: 2))) {
            try FramePixelFormat.yuyv.frameByteCount(size: PixelSize(width: -2, height: 2), bytesPerRow: 4)
        }
        #expect(FramePixelFormat.yuyv.checkedMinimumBytesPerRow(width: Int.max) == nil)
    }

    @Test("ordinary sizes keep their byte counts (V4L2 single-plane layouts)")
    func ordinary() throws {
        let size = PixelSize(width: 640, height: 481)
        #expect(try FramePixelFormat.yuyv.frameByteCount(size: size, bytesPerRow: 1280) == 1280 * 481)
        #expect(try FramePixelFormat.nv12.frameByteCount(size: size, bytesPerRow: 640) == 640 * (481 + 241))
        #expect(try FramePixelFormat.i420.frameByteCount(size: size, bytesPerRow: 640) == 640 * 481 + 2 * 320 * 241)
        #expect(try FramePixelFormat.mjpeg.frameByteCount(size: size, bytesPerRow: 0) == 0)
    }

    @Test("the pixel budget refuses past its limit, overflowing products included, and can be raised")
    func budget() throws {
        #expect(PixelBudget.maximumPixels == PixelBudget.defaultMaximumPixels)
        #expect(try PixelBudget.check(PixelSize(width: 16384, height: 16384)) == 1 << 28)
        #expect(throws: ImagingError.pixelBudgetExceeded(size: PixelSize(width: 16385, height: 16384), limit: 1 << 28)) {
            try PixelBudget.check(PixelSize(width: 16385, height: 16384))
        }
        #expect(throws: ImagingError.pixelBudgetExceeded(size: PixelSize(width: Int.max, height: 2), limit: 1 << 28)) {
            try PixelBudget.check(PixelSize(width: Int.max, height: 2))
        }
        #expect(throws: ImagingError.invalidSize(PixelSize(width: 0, height: 5))) { try PixelBudget.check(PixelSize(width: 0, height: 5)) }
    }
}
