import Foundation
import Testing
import TestSupport

/// `photocap orient` over a folder: files turned in parallel, each outcome reported,
/// a refused file in the middle never stopping the rest, results under the same relative paths,
/// a summary, and exit 1 when anything was refused.
@Suite struct BatchOrientTests {
    static func recurser(_ name: String) -> String {
        OrientCommandTests.thirdParty.appendingPathComponent("recurser-exif-orientation-examples/\(name).jpg").path
    }

    struct Line: Decodable {
        let path: String?
        let target: String?
        let outcome: String?
        let orientation: Int?
        let error: String?
        let summary: [String: Int]?
    }

    @Test func aFolderOfMixedFilesIsTurnedFileByFile() throws {
        let folder = try TemporaryDirectory("batch-orient")
        let input = folder.url.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: input.appendingPathComponent("sub"), withIntermediateDirectories: true)
        func copy(_ name: String, to relative: String) throws {
            try FileManager.default.copyItem(atPath: Self.recurser(name), toPath: input.appendingPathComponent(relative).path)
        }
        try copy("Landscape_1", to: "a-upright.jpg")
        try copy("Landscape_6", to: "b-turned.jpg")
        try copy("Landscape_2", to: "c-mirrored.jpg")
        // Corrupt, and sorted into the middle of the batch.
        let whole = try Data(contentsOf: URL(fileURLWithPath: Self.recurser("Landscape_8")))
        try whole.prefix(3000).write(to: input.appendingPathComponent("d-corrupt.jpg"))
        try copy("Portrait_3", to: "sub/e-turned.jpg")
        let raw = try OrientCommandTests.photocap(["shoot", "--device", "synthetic", "--format", "dng", "--size", "64x48",
                                                   "--output", input.appendingPathComponent("f-raw.dng").path])
        #expect(raw.status == 0, "\(raw.stderr)")
        try Data("not a photo".utf8).write(to: input.appendingPathComponent("notes.txt"))

        let output = folder.path("out")
        let run = try OrientCommandTests.photocap(["orient", input.path, "--recursive", "--json", "--output", output + "/"])
        #expect(run.status == 1, "a refused file makes the exit status 1: \(run.stderr)")
        let lines = try run.text.split(separator: "\n").map { try JSONDecoder().decode(Line.self, from: Data($0.utf8)) }
        var outcomes: [String: Line] = [:]
        for line in lines where line.path != nil { outcomes[(line.path! as NSString).lastPathComponent] = line }
        #expect(outcomes.count == 6, "every image file reported, notes.txt not: \(outcomes.keys.sorted())")
        #expect(outcomes["a-upright.jpg"]?.outcome == "alreadyUpright")
        #expect(outcomes["b-turned.jpg"]?.outcome == "turned" && outcomes["b-turned.jpg"]?.orientation == 6)
        #expect(outcomes["c-mirrored.jpg"]?.outcome == "turned" && outcomes["c-mirrored.jpg"]?.orientation == 2)
        #expect(outcomes["d-corrupt.jpg"]?.outcome == "refused")
        #expect(outcomes["d-corrupt.jpg"]?.error?.contains("truncated at byte 3000") == true, "\(String(describing: outcomes["d-corrupt.jpg"]))")
        #expect(outcomes["e-turned.jpg"]?.outcome == "turned" && outcomes["e-turned.jpg"]?.orientation == 3)
        #expect(outcomes["f-raw.dng"]?.outcome == "refused")
        #expect(outcomes["f-raw.dng"]?.error?.contains("RAW files are never re-oriented") == true)
        #expect(lines.last?.summary == ["turned": 3, "alreadyUpright": 1, "exifCorrected": 0, "transformsSet": 0, "refused": 2])

        // The results keep their relative paths; nothing for the refused files.
        let written = try FileManager.default.subpathsOfDirectory(atPath: output).sorted()
        #expect(written == ["a-upright.jpg", "b-turned.jpg", "c-mirrored.jpg", "sub", "sub/e-turned.jpg"])
        // exiftool, not photocap, reads each result: Orientation 1 (or none) and upright sizes.
        for (name, size) in [("b-turned.jpg", "1800 1200"), ("c-mirrored.jpg", "1800 1200"), ("sub/e-turned.jpg", "1200 1800")] {
            let path = (output as NSString).appendingPathComponent(name)
            let tags = try ExternalTool.run("exiftool", ["-n", "-s3", "-Orientation", "-ImageWidth", "-ImageHeight", path]).text
            let values = tags.split(separator: "\n").map(String.init)
            #expect(values.first == "1" && values.suffix(2).joined(separator: " ") == size, "\(name): \(tags)")
        }

        // Without --recursive the subfolder is left out; without --json, one line per file and
        // the summary on stderr.
        let flat = try OrientCommandTests.photocap(["orient", input.path, "--output", folder.path("flat") + "/"])
        #expect(flat.status == 1)
        #expect(flat.text.split(separator: "\n").count == 3, "\(flat.text)")
        #expect(flat.stderr.contains("orient: 2 turned, 1 already upright, 2 refused"), "\(flat.stderr)")
    }
}
