import Foundation
import Testing
import TestSupport

/// The command starts without Foundation's ICU half, libxml2, libheif, libtiff, LibRaw and
/// OpenCV: it imports FoundationEssentials only, loads libxml2 when an XMP packet is
/// first checked, libheif when HEIF is first read or written, libtiff when TIFF or DNG is and
/// LibRaw when RAW data is, and hands the commands that need faces to photocap-vision. Linking
/// any of these again costs every run time (libFoundation, FoundationInternationalization,
/// _FoundationICU ~2.7 ms; FoundationXML with libxml2 and the system ICU ~1.5 ms; libheif with
/// x265, libde265, dav1d and aom ~2.5 ms; libtiff with libwebp, libzstd, liblzma, libLerc and
/// libjbig ~0.5 ms; LibRaw with libgomp and liblcms2 ~0.4 ms; OpenCV's objdetect with dnn,
/// protobuf, LAPACK and GL ~7 ms; libcamera with the 29 libraries it needs ~16 ms, and a
/// photocap linking it would not start where libcamera is not installed).
@Suite struct StartupLibrariesTests {
    /// Library names (prefixes) the command must not load at start-up.
    static let unwanted = ["libFoundation.so", "libFoundationInternationalization.so", "lib_FoundationICU.so",
                           "libFoundationXML.so", "libxml2.so", "libicu", "libheif.so", "libx265.so", "libde265.so",
                           "libtiff.so", "libwebp.so", "libLerc.so", "libjbig.so", "libraw_r.so", "libgomp.so",
                           "liblcms2.so", "libopencv_", "libprotobuf.so", "libcamera.so", "libcamera-base.so",
                           "libphotocap-libcamera.so"]

    /// The libraries ldd lists for `executable`: every one the loader maps at start-up, those of
    /// the libraries included.
    static func startupLibraries(_ executable: String) throws -> [String] {
        let run = try ExternalTool.run("ldd", [executable])
        #expect(run.status == 0, "\(run.stderr)")
        return run.text.split(separator: "\n").compactMap { line in
            line.split(whereSeparator: { $0 == " " || $0 == "\t" }).first.map(String.init)
        }
    }

    @Test func theCommandStartsWithoutTheLibrariesItLoadsWhenNeeded() throws {
        let libraries = try Self.startupLibraries(TestPaths.photocap)
        // The release build links the Swift runtime statically (Package.swift's staticSwiftRuntime).
        #expect(libraries.contains { $0.hasPrefix("libswiftCore.so") } == !TestPaths.binariesAreRelease, "ldd listed: \(libraries)")
        #expect(libraries.filter { name in Self.unwanted.contains { name.hasPrefix($0) } } == [])
        // photocap-vision, beside it, is the one with OpenCV.
        let vision = try Self.startupLibraries(TestPaths.photocapVision)
        #expect(vision.contains { $0.hasPrefix("libopencv_objdetect.so") }, "ldd listed: \(vision)")
    }

    /// A library loaded on first use that cannot be loaded (here a file that is no library,
    /// found first through LD_LIBRARY_PATH) ends the request with an error naming it and why, and
    /// nothing is written.
    @Test(arguments: [("tiff", "libtiff.so.6"), ("heic", "libheif.so.1"), ("raw", nil)])
    func aLibraryThatCannotBeLoadedEndsTheRequestWithItsReason(format: String, library: String?) throws {
        // LibRaw's soname follows its version: the one this machine's loader knows.
        let known = try ExternalTool.run("ldconfig", ["-p"]).text
        let name = try #require(library ?? known.split(whereSeparator: \.isWhitespace).first { $0.hasPrefix("libraw_r.so.") }.map(String.init))
        let folder = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("not a library\n".utf8).write(to: folder.appendingPathComponent(name))
        let output = folder.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: false)
        let arguments = format == "raw" ? ["--raw-plus", "jpeg"] : ["--format", format]
        var environment = ProcessInfo.processInfo.environment
        environment["LD_LIBRARY_PATH"] = folder.path
        let run = try ExternalTool.run(TestPaths.photocap, ["shoot", "--device", "synthetic"] + arguments + ["--output", output.path + "/"],
                                       environment: environment)
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix("photocap: error: request 1: encoding failed: "), "\(run.stderr)")
        #expect(run.stderr.hasSuffix("failed: \(folder.path)/\(name): file too short\n"), "\(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: output.path) == [])
    }

    /// The commands that need faces continue in photocap-vision; without it beside photocap, a
    /// message says what to build, and no photo is taken.
    @Test func faceCommandsContinueInPhotocapVisionOrSayWhatIsMissing() throws {
        let folder = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try ExternalTool.run(TestPaths.photocap, ["watch", "--device", "synthetic", "--duration", "1", "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.text.contains("\"framesPerSecond\""), "\(run.text)")

        let lone = folder.appendingPathComponent("photocap").path
        // cp, not FileManager: its copy of a running executable failed with ETXTBSY here, and a
        // file this process wrote could still be open in a child forked meanwhile.
        let copy = try ExternalTool.run("cp", [TestPaths.photocap, lone])
        #expect(copy.status == 0, "\(copy.stderr)")
        for arguments in [["watch", "--duration", "1"], ["shoot", "--smart-framing", "--output", folder.path + "/"]] {
            let alone = try ExternalTool.run(lone, arguments)
            #expect(alone.status == 1)
            let expected = "photocap: error: \(arguments[0] == "watch" ? "watch" : "shoot --smart-framing") runs in photocap-vision, "
                + "which links OpenCV's face detection, and \(folder.path)/photocap-vision cannot be run (No such file or directory): "
                + "build it with `swift build --product photocap-vision` and keep it beside photocap\n"
            #expect(alone.stderr == expected)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["photocap"])
    }

    /// libcamera's cameras come through photocap's shim, loaded from beside the executable:
    /// with it there, `devices` lists without a word about it; without it (a photocap copied
    /// alone), or with a file there that is no library, `devices` still lists the other cameras
    /// and says why libcamera's are not listed.
    @Test func theLibcameraShimIsLoadedFromBesideTheCommandOrItsAbsenceExplained() throws {
        let shim = URL(fileURLWithPath: TestPaths.photocap).deletingLastPathComponent().appendingPathComponent("libphotocap-libcamera.so")
        #expect(FileManager.default.fileExists(atPath: shim.path), "the photocap-libcamera product is built beside photocap")
        var environment = ProcessInfo.processInfo.environment
        environment["LD_LIBRARY_PATH"] = nil
        let beside = try ExternalTool.run(TestPaths.photocap, ["devices"], environment: environment)
        #expect(beside.status == 0, "\(beside.stderr)")
        #expect(!beside.stderr.contains("libcamera"), "\(beside.stderr)")
        #expect(beside.text.contains("synthetic: photocap synthetic camera"))

        let folder = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let lone = folder.appendingPathComponent("photocap").path
        let copy = try ExternalTool.run("cp", [TestPaths.photocap, lone])
        #expect(copy.status == 0, "\(copy.stderr)")
        let alone = try ExternalTool.run(lone, ["devices"], environment: environment)
        #expect(alone.status == 0, "\(alone.stderr)")
        #expect(alone.text == beside.text)
        #expect(alone.stderr == "photocap: camera failure: photocap's libcamera support is not loaded: "
            + "libphotocap-libcamera.so: cannot open shared object file: No such file or directory\n")

        try Data("not a library\n".utf8).write(to: folder.appendingPathComponent("libphotocap-libcamera.so"))
        let broken = try ExternalTool.run(lone, ["devices"], environment: environment)
        #expect(broken.status == 0, "\(broken.stderr)")
        #expect(broken.stderr == "photocap: camera failure: photocap's libcamera support is not loaded: "
            + "\(folder.path)/libphotocap-libcamera.so: file too short\n")
    }

    /// Without FoundationInternationalization, Foundation's `TimeZone.current` is always GMT:
    /// the capture time, its offset and a folder's timestamped name come from the C library,
    /// which reads TZ. Kolkata (+05:30, no daylight saving) also checks the offset's minutes.
    @Test func captureTimesAreLocalTimeWithTheirOffset() throws {
        let folder = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
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
