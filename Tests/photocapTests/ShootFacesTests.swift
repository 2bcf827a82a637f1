import Foundation
import PhotoCaptureVision
import Testing
import TestSupport

/// `photocap shoot --faces` and `--smart-framing` writing the faces in view into the photo's XMP
/// as MWG regions, judged by exiftool against a real face hand-marked in the
/// picture: the astronaut portrait, 512x512, face at 175,70 90x90.
@Suite struct ShootFacesTests {
    static let side = 512.0
    /// The hand-marked face, in pixels of the upright portrait.
    static let face = (x: 175.0, y: 70.0, width: 90.0, height: 90.0)

    let folder: TemporaryDirectory

    init() throws { folder = try TemporaryDirectory("photocap-faces") }

    /// The portrait as a raw RGB24 frame file, turned `clockwise` degrees first (as a sensor
    /// mounted 90° counter-clockwise delivers an upright scene when it is turned 90° clockwise).
    func frame(clockwise: Int) throws -> [String] {
        let path = folder.path("astronaut-\(clockwise).rgb")
        let portrait = TestPaths.testImages.appendingPathComponent("faces/astronaut.png").path
        _ = try ExternalTool.run("convert", [portrait, "-rotate", "\(clockwise)", "-depth", "8", "rgb:\(path)"]).checked()
        return ["--frame-file", path, "--frame-format", "rgb24", "--frame-size", "512x512"]
    }

    /// Runs `shoot` with `arguments` and `--json`; returns the report and exiftool's reading
    /// (`-struct`, numbers) of the photo, which must validate without warnings.
    func shoot(_ arguments: [String], to name: String) throws -> (report: [String: Any], tags: [String: Any]) {
        let path = folder.path(name)
        let run = try ExternalTool.run(TestPaths.photocap, ["shoot"] + arguments + ["--output", path, "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any])
        #expect(try ExternalTool.exiftoolValidationProblems(path) == [], "\(name)")
        let read = try ExternalTool.run("exiftool", ["-j", "-n", "-struct", "-XMP-mwg-rs:RegionInfo", "-IFD0:Orientation", path]).checked()
        let tags = try #require((try JSONSerialization.jsonObject(with: read.stdout) as? [[String: Any]])?.first)
        return (report, tags)
    }

    /// The one MWG area exiftool reads: centre x, centre y, width, height.
    func area(_ tags: [String: Any]) throws -> [Double] {
        let info = try #require(tags["RegionInfo"] as? [String: Any], "\(tags)")
        let list = try #require(info["RegionList"] as? [[String: Any]])
        #expect(list.count == 1 && list.first?["Type"] as? String == "Face", "\(list)")
        let area = try #require(list.first?["Area"] as? [String: Any])
        #expect(area["Unit"] as? String == "normalized")
        return ["X", "Y", "W", "H"].compactMap { area[$0] as? Double }
    }

    /// Whether `found` (centre x, centre y, width, height) is on the `truth` box: the centre
    /// within a fifth of the box, the size within a third (the detector's box is not the hand's).
    func isOn(_ found: [Double], _ truth: (x: Double, y: Double, width: Double, height: Double)) -> Bool {
        guard found.count == 4 else { return false }
        let centre = (truth.x + truth.width / 2, truth.y + truth.height / 2)
        return abs(found[0] - centre.0) <= 0.2 * truth.width && abs(found[1] - centre.1) <= 0.2 * truth.height
            && abs(found[2] - truth.width) <= truth.width / 3 && abs(found[3] - truth.height) <= truth.height / 3
    }

    /// The hand-marked face normalised to the 512x512 picture.
    static let normalizedFace = (x: face.x / side, y: face.y / side, width: face.width / side, height: face.height / side)

    @Test func anUprightPhotoHasTheFaceWhereItIs() throws {
        let (report, tags) = try shoot(try frame(clockwise: 0) + ["--faces"], to: "upright.jpg")
        #expect(tags["Orientation"] as? Int == 1, "\(tags)")
        let dimensions = try #require((tags["RegionInfo"] as? [String: Any])?["AppliedToDimensions"] as? [String: Any])
        #expect(dimensions["W"] as? Int == 512 && dimensions["H"] as? Int == 512 && dimensions["Unit"] as? String == "pixel",
                "\(dimensions)")
        #expect(isOn(try area(tags), Self.normalizedFace), "\(tags) vs \(Self.normalizedFace)")
        // --json lists the region written, normalised to the upright photo (top-left based).
        let regions = try #require(report["regions"] as? [[String: Any]], "\(report)")
        let listed = regions.first.map { region in
            ["x", "y", "width", "height"].compactMap { region[$0] as? Double }
        } ?? []
        #expect(regions.count == 1 && listed.count == 4
                && isOn([listed[0] + listed[2] / 2, listed[1] + listed[3] / 2, listed[2], listed[3]], Self.normalizedFace), "\(regions)")
    }

    /// A sensor mounted 90° counter-clockwise, not compensated: the file keeps the sensor's
    /// pixels with Orientation 8, and MWG's rule puts the area on those stored pixels — where
    /// the face is in the frame file, the portrait turned 90° clockwise: a pixel (x, y) of the
    /// portrait is at (511 − y, x), so the face box is at (512 − 70 − 90, 175) = (352, 175).
    @Test(arguments: ["jpeg", "heic"])
    func aPhotoWithOrientation8HasTheAreaOnItsStoredPixels(format: String) throws {
        let (report, tags) = try shoot(try frame(clockwise: 90) + ["--faces", "--no-compensation", "--sensor-rotation", "90",
                                                                   "--format", format], to: "turned.\(format)")
        #expect(tags["Orientation"] as? Int == 8, "\(tags)")
        let stored = (x: (Self.side - Self.face.y - Self.face.height) / Self.side, y: Self.face.x / Self.side,
                      width: Self.face.height / Self.side, height: Self.face.width / Self.side)
        #expect(isOn(try area(tags), stored), "\(tags) vs \(stored)")
        // The report speaks of the upright photo: the face where the portrait has it.
        let region = try #require((report["regions"] as? [[String: Any]])?.first, "\(report)")
        let listed = ["x", "y", "width", "height"].compactMap { region[$0] as? Double }
        #expect(listed.count == 4 && isOn([listed[0] + listed[2] / 2, listed[1] + listed[3] / 2, listed[2], listed[3]],
                                          Self.normalizedFace), "\(region)")
    }

    /// `--smart-framing` writes the faces under the framing it chose: one centred person framed
    /// 3:4 ×2 in 640x480 keeps the centred 180x240 (the largest 3:4 is 360x480, halved), at
    /// (230, 120), and the face's region is normalised to that crop.
    @Test func smartFramingWritesTheFaceInItsCrop() throws {
        let person = try OnePersonFrame(folderName: "photocap-faces-framing")
        let (report, tags) = try shoot(person.arguments + ["--smart-framing", "--framing-timeout", "10"], to: "framed.jpg")
        #expect(report["dimensions"] as? [String: Int] == ["width": 180, "height": 240], "\(report)")
        let truth = person.face
        let inCrop = (x: (truth.x * 640 - 230) / 180, y: (truth.y * 480 - 120) / 240,
                      width: truth.width * 640 / 180, height: truth.height * 480 / 240)
        #expect(isOn(try area(tags), inCrop), "\(tags) vs \(inCrop)")
    }

    @Test func facesIntoADNGAreRefused() throws {
        let run = try ExternalTool.run(TestPaths.photocap, ["shoot", "--device", "synthetic", "--faces", "--format", "dng"])
        #expect(run.status == 64 && run.stderr.contains("--faces writes face regions into a processed photo"), "\(run.stderr)")
    }
}
