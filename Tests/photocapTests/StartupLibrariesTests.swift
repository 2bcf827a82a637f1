import Foundation
import Testing
import TestSupport

/// The command starts without Foundation's ICU half, libxml2 and libheif (issue 17): it imports
/// FoundationEssentials only, loads libxml2 when an XMP packet is first checked and libheif
/// when HEIF is first read or written. Linking any of these again costs every run milliseconds
/// (libFoundation, FoundationInternationalization, _FoundationICU ~2.7 ms; FoundationXML with
/// libxml2 and the system ICU ~1.5 ms; libheif with x265, libde265, dav1d and aom ~2.5 ms).
@Suite struct StartupLibrariesTests {
    /// Library names (prefixes) the command must not load at start-up.
    static let unwanted = ["libFoundation.so", "libFoundationInternationalization.so", "lib_FoundationICU.so",
                           "libFoundationXML.so", "libxml2.so", "libicu", "libheif.so", "libx265.so", "libde265.so"]

    @Test func theCommandLinksNeitherFoundationsICUNorLibxml2NorLibheif() throws {
        // ldd lists every library the loader maps at start-up, those of the libraries included.
        let run = try ExternalTool.run("ldd", [TestPaths.photocap])
        #expect(run.status == 0, "\(run.stderr)")
        let libraries = run.text.split(separator: "\n").compactMap { line in
            line.split(whereSeparator: { $0 == " " || $0 == "\t" }).first.map(String.init)
        }
        #expect(libraries.contains { $0.hasPrefix("libswiftCore.so") }, "ldd listed: \(libraries)")
        #expect(libraries.filter { name in Self.unwanted.contains { name.hasPrefix($0) } } == [])
    }

    /// Without FoundationInternationalization, Foundation's `TimeZone.current` is always GMT:
    /// the capture time, its offset and a folder's timestamped name come from the C library,
    /// which reads TZ. Kolkata (+05:30, no daylight saving) also checks the offset's minutes.
    @Test func captureTimesAreLocalTimeWithTheirOffset() throws {
        let folder = try TestPaths.temporaryFolder()
        var environment = ProcessInfo.processInfo.environment
        environment["TZ"] = "Asia/Kolkata"
        let before = Date()
        let run = try ExternalTool.run(TestPaths.photocap, ["shoot", "--device", "synthetic", "--size", "320x240",
                                                            "--output", folder.path + "/"], environment: environment)
        #expect(run.status == 0, "\(run.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".jpg") }
        let name = try #require(names.first)
        let tags = try ExternalTool.run("exiftool", ["-s3", "-DateTimeOriginal", "-OffsetTimeOriginal",
                                                     folder.appendingPathComponent(name).path]).text
            .split(separator: "\n").map(String.init)
        #expect(tags.count == 2 && tags[1] == "+05:30", "\(tags)")

        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "Asia/Kolkata")
        formatter.dateFormat = "yyyy:MM:dd HH:mm:ss"
        let taken = try #require(formatter.date(from: tags[0]))
        #expect(taken.timeIntervalSince(before) > -2 && taken.timeIntervalSince(before) < 30, "\(tags[0]) for \(before)")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        #expect(name.hasPrefix("photocap-" + formatter.string(from: taken).prefix(11)), "\(name) for \(tags[0])")
    }
}
