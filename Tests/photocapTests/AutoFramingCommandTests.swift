import Foundation
import Imaging
import Testing
import TestSupport

/// `watch --auto-framing --preview-file`: the preview shows the framed picture the camera
/// applies; with `--overlay`, the whole picture with the applied crop drawn on it. On the group
/// photo's clip (``AutoFramingTimingTests``), whose first scene is one person in the middle.
@Suite struct AutoFramingCommandTests {
    typealias Applied = AutoFramingTimingTests.Applied

    func watch(_ extra: [String], in folder: URL) throws -> (applied: [Applied], preview: RGBImage) {
        let clip = try AutoFramingTimingTests.makeClip(in: folder)
        let preview = folder.appendingPathComponent("preview.jpg").path
        let run = try ExternalTool.run(TestPaths.photocap, ["watch", "--frame-file", clip, "--auto-framing", "--json", "--duration", "5",
                                                            "--preview-file", preview] + extra)
        #expect(run.status == 0, "\(run.stderr)")
        let applied = run.text.split(separator: "\n").compactMap { try? JSONDecoder().decode(Applied.self, from: Data($0.utf8)) }
        return (applied, try ReferenceDecoder.djpeg(preview))
    }

    @Test func thePreviewShowsTheFramedPicture() throws {
        let folder = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (applied, preview) = try watch([], in: folder)
        // The preview of the last second was taken with one of the framings applied.
        let sizes = applied.map { PixelSize(width: $0.crop.width, height: $0.crop.height) }
        #expect(sizes.contains(preview.size), "preview \(preview.size), framings applied \(sizes)")
        #expect(applied.contains { !$0.isWhole }, "one person: \(applied.map(\.aspectRatio))")
    }

    @Test func theOverlayShowsTheWholePictureWithTheCrop() throws {
        let folder = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (applied, preview) = try watch(["--overlay", "--faces"], in: folder)
        #expect(preview.size == PixelSize(width: AutoFramingTimingTests.clipSize.width, height: AutoFramingTimingTests.clipSize.height))
        // The crop's outline (magenta) runs down its sides, where the picture is grey.
        let last = try #require(applied.last { !$0.isWhole }, "no crop applied: \(applied.map(\.aspectRatio))")
        let magenta = (0..<preview.size.height).filter { y in
            [last.crop.x, last.crop.x + last.crop.width - 1].allSatisfy { x in
                let pixel = preview.pixels[(y * preview.size.width + x) * 3..<(y * preview.size.width + x) * 3 + 3].map(Int.init)
                // Magenta over grey, a 1-pixel line after JPEG's chroma subsampling: red and
                // blue well above green (the grey background has them equal).
                return pixel[0] - pixel[1] > 50 && pixel[2] - pixel[1] > 40
            }
        }
        #expect(magenta.count >= preview.size.height / 2, "\(magenta.count) rows with the crop's sides at \(last.crop)")
    }
}
