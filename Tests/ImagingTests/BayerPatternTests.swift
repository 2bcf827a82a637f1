import Imaging
import Testing

/// The colour filter tiles, pinned to linux/videodev2.h (e.g. SGRBG8 "GRGR.. BGBG.."), since
/// the synthetic mosaic and the demosaic share them and a round trip alone cannot catch a
/// wrong tile.
@Suite struct BayerPatternTests {
    @Test func tilesFollowTheKernelsDefinitions() {
        // 0 red, 1 green, 2 blue; first row, then second row.
        #expect(FramePixelFormat.srggb8.bayerPattern?.colorIndices == [0, 1, 1, 2])  // RGRG.. GBGB..
        #expect(FramePixelFormat.sgrbg10.bayerPattern?.colorIndices == [1, 0, 2, 1])  // GRGR.. BGBG..
        #expect(FramePixelFormat.sgbrg12.bayerPattern?.colorIndices == [1, 2, 0, 1])  // GBGB.. RGRG..
        #expect(FramePixelFormat.sbggr16.bayerPattern?.colorIndices == [2, 1, 1, 0])  // BGBG.. GRGR..
        #expect(FramePixelFormat.allCases.filter(\.isBayer).count == 24)  // 16 unpacked, 8 CSI-2 packed
    }
}
