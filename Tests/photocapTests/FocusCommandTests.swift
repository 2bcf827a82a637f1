import Foundation
import PhotoCapture
import Testing
import TestSupport

/// `photocap shoot --focus` as a user runs it on the synthetic camera, whose simulated lens
/// blurs the picture away from the subject's in-focus position (600): sharpness is judged on the
/// JPEG as libjpeg-turbo's djpeg decodes it.
@Suite struct FocusCommandTests {
    static func photocap(_ arguments: [String]) throws -> ExternalTool.Output {
        try ExternalTool.run(TestPaths.photocap, arguments)
    }

    static func json(_ output: ExternalTool.Output) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(output.text.utf8)) as? [String: Any])
    }

    /// Shoots with `focus` into `folder`; the JSON report and the decoded picture's sharpness.
    static func shoot(_ focus: [String], in folder: URL, name: String) throws -> (report: [String: Any], sharpness: Double) {
        let path = folder.appendingPathComponent(name).path
        let run = try photocap(["shoot", "--device", "synthetic", "--size", "320x240", "--json", "--output", path] + focus)
        #expect(run.status == 0, "\(run.stderr)")
        return (try json(run), try ReferenceDecoder.djpeg(path).lumaGradientEnergy)
    }

    @Test func manualPositionsFocusTheLensAndAreReportedAndClamped() throws {
        let folder = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let near = try Self.shoot(["--focus", "manual:600"], in: folder, name: "near.jpg")
        let off = try Self.shoot(["--focus", "manual:250"], in: folder, name: "off.jpg")
        let far = try Self.shoot(["--focus", "manual:5000"], in: folder, name: "far.jpg")

        let focus = try #require(near.report["focus"] as? [String: Any])
        #expect(focus["mode"] as? String == "locked")
        #expect(focus["requestedLensPosition"] as? Double == 600 && focus["lensPosition"] as? Double == 600)
        let clamped = try #require(far.report["focus"] as? [String: Any])
        #expect(clamped["lensPosition"] as? Double == 1023)
        #expect((far.report["adjustments"] as? [String])?.contains("lens position 5000 → 1023 (focus control range)") == true)
        // Sharpest at the subject; the further off, the softer.
        #expect(near.sharpness > off.sharpness * 2, "\(near.sharpness) vs \(off.sharpness)")
        #expect(off.sharpness > far.sharpness, "\(off.sharpness) vs \(far.sharpness)")
    }

    @Test func onceAndAutoReportTheScanAndGiveASharpPicture() throws {
        let folder = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let blurred = try Self.shoot(["--focus", "manual:100"], in: folder, name: "blurred.jpg")
        let once = try Self.shoot(["--focus", "once", "--focus-timeout", "2"], in: folder, name: "once.jpg")
        let auto = try Self.shoot(["--focus", "auto"], in: folder, name: "auto.jpg")

        let focus = try #require(once.report["focus"] as? [String: Any])
        #expect(focus["mode"] as? String == "autoFocus" && focus["autoFocus"] as? String == "reached")
        #expect(focus["lensPosition"] as? Double == 600 && focus["autoFocusTimeoutSeconds"] as? Double == 2)
        #expect((auto.report["focus"] as? [String: Any])?["mode"] as? String == "continuousAutoFocus")
        #expect(once.sharpness > blurred.sharpness * 2, "\(once.sharpness) vs \(blurred.sharpness)")
        #expect(abs(auto.sharpness - once.sharpness) < once.sharpness * 0.05, "\(auto.sharpness) vs \(once.sharpness)")
    }

    @Test func aBracketIsFocusedOnceForAllItsMembers() throws {
        let folder = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try Self.photocap(["shoot", "--device", "synthetic", "--size", "320x240", "--bracket", "-1,0,+1", "--focus", "once",
                                     "--json", "--output", folder.appendingPathComponent("b.jpg").path])
        #expect(run.status == 0, "\(run.stderr)")
        let reports = try run.text.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        #expect(reports.count == 3)
        for report in reports {
            let focus = try #require(report["focus"] as? [String: Any])
            #expect(focus["autoFocus"] as? String == "reached" && focus["lensPosition"] as? Double == 600)
        }
    }

    @Test func devicesListsTheFocusModesAndLensRange() throws {
        let run = try Self.photocap(["devices", "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(run.text.utf8)) as? [[String: Any]])
        let synthetic = try #require(entries.first { $0["id"] as? String == "synthetic" })
        #expect(synthetic["focusModes"] as? [String] == ["locked", "autoFocus", "continuousAutoFocus"])
        #expect(synthetic["lensPosition"] as? String == "focus_absolute 0...1023 step 1")
    }

    /// A camera without focus controls: refused before anything is captured, and nothing written.
    @Test func aCameraWithoutFocusIsRefusedBeforeCapture() throws {
        let folder = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let frame = folder.appendingPathComponent("frame.yuv")
        try Data(count: 64 * 48 * 2).write(to: frame)
        let run = try Self.photocap(["shoot", "--frame-file", frame.path, "--frame-format", "yuyv", "--frame-size", "64x48",
                                     "--focus", "once", "--output", folder.appendingPathComponent("x.jpg").path])
        #expect(run.status == 1)
        #expect(run.stderr.contains("has no focus control"), "\(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["frame.yuv"])
    }

    @Test(arguments: [
        (["--focus", "manual:near"], "--focus must be auto, manual:VALUE"),
        (["--focus", "sharp"], "--focus must be auto, manual:VALUE"),
        (["--focus", "auto", "--focus-timeout", "2"], "--focus-timeout goes with --focus once"),
        (["--focus", "once", "--focus-timeout", "0"], "--focus-timeout must be above 0"),
    ])
    func invalidFocusOptionsAreRefused(_ arguments: [String], _ message: String) throws {
        let run = try Self.photocap(["shoot", "--device", "synthetic"] + arguments)
        #expect(run.status == 64, "\(run.stderr)")
        #expect(run.stderr.contains(message), "\(run.stderr)")
    }
}
