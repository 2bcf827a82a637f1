import Foundation
import PhotoCapture
import Testing
import TestSupport

/// `photocap shoot --location/--artist/--copyright/--description/--comment` and `develop`
/// carrying them: exiftool validates each file and reads the values back.
@Suite struct MetadataCommandTests {
    /// South and west: negative values go into the S/W references, the rationals stay positive;
    /// below sea level: GPSAltitudeRef 1.
    static let options = ["--location", "-33.856784,-151.215297,-12.5", "--artist", "Ana Lima",
                          "--copyright", "(c) 2026 Ana Lima", "--description", "Harbour at dusk",
                          "--comment", "Überprüft: ✓"]

    /// exiftool's numeric reading of the tags photocap writes, one object.
    static func exiftool(_ path: String) throws -> [String: Any] {
        let run = try ExternalTool.run("exiftool", ["-j", "-n", "-GPS:all", "-Artist", "-Copyright", "-ImageDescription",
                                                    "-UserComment", "-Composite:GPSLatitude", "-Composite:GPSLongitude",
                                                    "-Composite:GPSAltitude", path]).checked()
        let list = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [[String: Any]])
        return try #require(list.first)
    }

    static func expectSuppliedValues(_ path: String, _ label: String) throws {
        #expect(try ExternalTool.exiftoolValidationProblems(path) == [], "\(label)")
        let tags = try exiftool(path)
        let latitude = try #require(tags["GPSLatitude"] as? Double, "\(label): \(tags)")
        let longitude = try #require(tags["GPSLongitude"] as? Double, "\(label): \(tags)")
        // 1/10000 of a second of arc is 3 mm; libtiff (TIFF, DNG) stores the seconds as a float.
        #expect(abs(latitude - -33.856784) < 1e-6, "\(label): \(latitude)")
        #expect(abs(longitude - -151.215297) < 1e-6, "\(label): \(longitude)")
        #expect(tags["GPSLatitudeRef"] as? String == "S", "\(label)")
        #expect(tags["GPSLongitudeRef"] as? String == "W", "\(label)")
        #expect(tags["GPSAltitudeRef"] as? Int == 1, "\(label)")
        #expect(abs((tags["GPSAltitude"] as? Double ?? 0) - -12.5) < 1e-3, "\(label): \(tags["GPSAltitude"] ?? "none")")
        #expect(tags["GPSVersionID"] as? String == "2 3 0 0", "\(label)")
        #expect(tags["GPSProcessingMethod"] as? String == "MANUAL", "\(label)")
        #expect(tags["Artist"] as? String == "Ana Lima", "\(label)")
        #expect(tags["Copyright"] as? String == "(c) 2026 Ana Lima", "\(label)")
        #expect(tags["ImageDescription"] as? String == "Harbour at dusk", "\(label)")
        #expect(tags["UserComment"] as? String == "Überprüft: ✓", "\(label)")
    }

    @Test(arguments: ["jpeg", "heic", "tiff", "dng"])
    func shootWritesSuppliedMetadata(format: String) throws {
        let folder = try TemporaryDirectory("metadata-cli")
        let path = folder.path("shot.\(PhotoFormat(rawValue: format)!.fileExtension!)")
        let run = try ShootCommandTests.photocap(["shoot", "--device", "synthetic", "--format", format, "--size", "320x240",
                                                  "--heic-speed", "ultrafast", "--output", path] + Self.options)
        #expect(run.status == 0, "\(run.stderr)")
        try Self.expectSuppliedValues(path, format)
    }

    /// develop carries the DNG's metadata into the developed photo; an option given to develop
    /// replaces the DNG's value.
    @Test func developCarriesTheDNGsMetadata() throws {
        let folder = try TemporaryDirectory("metadata-cli")
        let dng = folder.path("shot.dng")
        let shoot = try ShootCommandTests.photocap(["shoot", "--device", "synthetic", "--format", "dng", "--size", "320x240",
                                                    "--output", dng] + Self.options)
        #expect(shoot.status == 0, "\(shoot.stderr)")
        for format in ["jpeg", "heic", "tiff"] {
            let target = folder.path("developed.\(PhotoFormat(rawValue: format)!.fileExtension!)")
            let run = try ShootCommandTests.photocap(["develop", dng, "--format", format, "--heic-speed", "ultrafast",
                                                      "--output", target])
            #expect(run.status == 0, "\(run.stderr)")
            try Self.expectSuppliedValues(target, "develop → \(format)")
        }
        let target = folder.path("renamed.jpg")
        let run = try ShootCommandTests.photocap(["develop", dng, "--artist", "Rui", "--output", target])
        #expect(run.status == 0, "\(run.stderr)")
        let tags = try Self.exiftool(target)
        #expect(tags["Artist"] as? String == "Rui")
        #expect(tags["Copyright"] as? String == "(c) 2026 Ana Lima")
    }

    @Test func badLocationsAreRefusedBeforeShooting() throws {
        let folder = try TemporaryDirectory("metadata-cli")
        for location in ["91,0", "0,181", "12", "1,2,3,4", "north,east", "1,2,nan"] {
            let path = folder.path("shot.jpg")
            let run = try ShootCommandTests.photocap(["shoot", "--device", "synthetic", "--location", location, "--output", path])
            #expect(run.status != 0, "\(location)")
            #expect(run.stderr.contains("--location"), "\(location): \(run.stderr)")
            #expect(!FileManager.default.fileExists(atPath: path), "\(location)")
        }
    }
}
