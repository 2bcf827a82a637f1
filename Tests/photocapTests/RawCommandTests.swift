import Codecs
import Foundation
import PhotoCapture
import Testing
import TestSupport

/// `photocap shoot --format dng`, `--raw-plus` and `photocap develop` as a user runs them
///.
@Suite struct RawCommandTests {
    static func photocap(_ arguments: [String]) throws -> ExternalTool.Output { try ShootCommandTests.photocap(arguments) }

    static func json(_ line: Substring) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    @Test func shootFormatDNGWritesAValidDNG() throws {
        let folder = try TemporaryDirectory("raw-cli")
        let path = folder.path("raw.dng")
        let run = try Self.photocap(["shoot", "--device", "synthetic", "--format", "dng", "--size", "640x480",
                                     "--sensor-rotation", "90", "--json", "--output", path])
        #expect(run.status == 0, "\(run.stderr)")
        let report = try Self.json(try #require(run.text.split(separator: "\n").first))
        #expect(report["isRawPhoto"] as? Bool == true)
        #expect(report["format"] as? String == "dng")
        #expect(report["orientationWritten"] as? Int == 8)  // the mounting's whole correction
        let raw = try #require(report["raw"] as? [String: Any])
        #expect(raw["pixelFormat"] as? String == "RG16")
        #expect(raw["cfaPattern"] as? String == "RGGB")
        #expect(raw["whiteLevel"] as? Int == 65535)
        #expect(raw["blackLevel"] as? Int == 4096)
        #expect(try ExternalTool.exiftoolValidationProblems(path) == [])
        let identified = try ExternalTool.run("dcraw", ["-i", "-v", path]).checked().text
        #expect(identified.contains("Full size:    640 x 480") && identified.contains("Filter pattern: RG/GB"), "\(identified)")
        let info = try Self.photocap(["info", path])
        #expect(info.text.contains("DNG") && info.text.contains("640x480") && info.text.contains("256x192"), "\(info.text)")
    }

    /// At the synthetic camera's default size (4032x3024), with no option but the format: the
    /// DNG's developed preview once read a temporary array after it was freed, which only the
    /// release build's optimiser exposed (a segmentation fault every time; 3264x2448 and
    /// smaller passed). `.ci/test` runs this against the release binary.
    @Test(arguments: [["--format", "dng"], ["--raw-plus", "jpeg"]])
    func aDefaultSizeRawPhotoAsAUserTakesIt(options: [String]) throws {
        let folder = try TemporaryDirectory("raw-cli")
        let path = folder.path("default.dng")
        let run = try Self.photocap(["shoot", "--device", "synthetic"] + options + ["--output", path])
        #expect(run.status == 0, "status \(run.status): \(run.stderr)")
        #expect(try ExternalTool.exiftoolValidationProblems(path) == [])
        // LibRaw reads the whole sensor, and the developed thumbnail, where the crash was.
        let identified = try ExternalTool.run("raw-identify", ["-v", path]).checked().text
        let sizes = identified.split(separator: "\n").map { $0.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
        #expect(sizes.contains("Full size: 4032 x 3024") && sizes.contains("Thumb size: 256 x 192"), "LibRaw: \(identified)")
        if options.contains("--raw-plus") {
            let jpeg = folder.path("default.jpg")
            #expect(try ExternalTool.exiftoolValidationProblems(jpeg) == [])
            #expect(try ReferenceDecoder.djpeg(jpeg).size == PixelSize(width: 4032, height: 3024))
        }
    }

    /// A CSI-2 packed frame file (`--frame-format pGCC`, packed here by the test's own packer)
    /// becomes a DNG whose every sample dcraw reads back as written; `--raw-plus` develops it.
    @Test(arguments: ["pGCC", "pRAA"])
    func aPackedFrameFileBecomesALosslessDNG(code: String) throws {
        let folder = try TemporaryDirectory("raw-cli")
        let bits = code.hasSuffix("AA") ? 10 : 12
        let values = CSI2Packer.pattern(width: 64, height: 48, bits: bits)
        let framePath = try folder.write(CSI2Packer.pack(values, width: 64, bits: bits), named: "frame.raw")
        let path = folder.path("packed.dng")
        let run = try Self.photocap(["shoot", "--frame-file", framePath, "--frame-format", code, "--frame-size", "64x48",
                                     "--raw-plus", "jpeg", "--json", "--output", path])
        #expect(run.status == 0, "\(run.stderr)")
        let reports = try run.text.split(separator: "\n").map(Self.json)
        #expect(reports.map { $0["isRawPhoto"] as? Bool } == [true, false])
        let raw = try #require(reports.first?["raw"] as? [String: Any])
        #expect(raw["pixelFormat"] as? String == code)
        #expect(raw["whiteLevel"] as? Int == (1 << bits) - 1 && raw["storedBitsPerSample"] as? Int == 16)
        #expect(try ExternalTool.exiftoolValidationProblems(path) == [])
        #expect(try ReferenceDecoder.dcrawRawSamples(path).samples == values)
        #expect(try ReferenceDecoder.djpeg(folder.path("packed.jpg")).size
            == PixelSize(width: 64, height: 48))
    }

    /// `--raw-plus`: one request, two files with one stem, two JSON lines with one uniqueID.
    @Test(arguments: ["jpeg", "heic", "tiff"])
    func rawPlusWritesBothFiles(processed: String) throws {
        let folder = try TemporaryDirectory("raw-cli")
        let ext = PhotoFormat(rawValue: processed)!.fileExtension!
        let run = try Self.photocap(["shoot", "--device", "synthetic", "--raw-plus", processed, "--heic-speed", "ultrafast",
                                     "--pixel-format", "BA10", "--size", "640x480", "--json",
                                     "--output", folder.path("shot.\(ext)")])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted() == ["shot.dng", "shot.\(ext)"])
        let reports = try run.text.split(separator: "\n").map(Self.json)
        #expect(reports.map { $0["isRawPhoto"] as? Bool } == [true, false])
        #expect(reports.map { $0["format"] as? String } == ["dng", processed])
        #expect(Set(reports.compactMap { $0["uniqueID"] as? Int }).count == 1)
        #expect(reports[1]["encodingRoute"] as? String == "developed")
        #expect((reports[0]["raw"] as? [String: Any])?["pixelFormat"] as? String == "BA10")
        for name in ["shot.dng", "shot.\(ext)"] {
            #expect(try ExternalTool.exiftoolValidationProblems(folder.path(name)) == [], "\(name)")
        }
        // The processed file shows the scene (white balance and tone curve applied: the raw
        // samples themselves differ from it by over 30).
        let path = folder.path("shot.\(ext)")
        let developed: RGBImage
        if processed == "heic" {
            let decoded = try HEICDecoder.decodeRGB([UInt8](Data(contentsOf: URL(fileURLWithPath: path))), applyingTransformations: true)
            developed = RGBImage(size: decoded.size, pixels: decoded.rgb)
        } else {
            developed = processed == "jpeg" ? try ReferenceDecoder.djpeg(path) : try ReferenceDecoder.imageMagickStored(path)
        }
        let difference = developed.meanAbsoluteDifference(to: SyntheticScene.image(size: PixelSize(width: 640, height: 480)))
        #expect(difference <= ShootCommandTests.lossyTolerance, "--raw-plus \(processed) differs by \(difference)")
    }

    /// `--raw-plus` with a stem alone (`--output shot`): the DNG is shot.dng and the photo gets
    /// its own extension, never the bare name.
    @Test func rawPlusWithAStemNamesBothFiles() throws {
        let folder = try TemporaryDirectory("raw-cli")
        let run = try Self.photocap(["shoot", "--device", "synthetic", "--raw-plus", "jpeg", "--pixel-format", "BA10", "--size", "64x48",
                                     "--output", folder.path("shot")])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted() == ["shot.dng", "shot.jpg"])
        #expect(try ExternalTool.exiftoolValidationProblems(folder.path("shot.jpg")) == [])
    }

    /// Acceptance 5, and nothing is written: a device without Bayer formats, a taken name,
    /// contradictory options.
    @Test func impossibleRawRequestsFailWithoutWriting() throws {
        let folder = try TemporaryDirectory("raw-cli")
        let framePath = try folder.writeFrame(of: SyntheticScene.image(size: PixelSize(width: 64, height: 48)), format: .yuyv, named: "frame.yuv")
        let target = folder.url.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        for options in [["--format", "dng"], ["--raw-plus", "jpeg"]] {
            let run = try Self.photocap(["shoot", "--frame-file", framePath, "--frame-format", "yuyv", "--frame-size", "64x48",
                                         "--output", target.path + "/"] + options)
            #expect(run.status == 1)
            #expect(run.stderr.contains("delivers no Bayer (RAW) format"), "\(run.stderr)")
        }
        // The DNG's name is taken: nothing is captured, the JPEG is not written either.
        try Data([1]).write(to: target.appendingPathComponent("shot.dng"))
        let taken = try Self.photocap(["shoot", "--device", "synthetic", "--raw-plus", "jpeg", "--size", "64x48",
                                       "--output", target.appendingPathComponent("shot.jpg").path])
        #expect(taken.status == 1 && taken.stderr.contains("shot.dng already exists"), "\(taken.stderr)")
        let wrongFormat = try Self.photocap(["shoot", "--device", "synthetic", "--format", "dng", "--pixel-format", "NV12",
                                             "--output", target.path + "/"])
        #expect(wrongFormat.status == 1 && wrongFormat.stderr.contains("not a Bayer"), "\(wrongFormat.stderr)")
        for options in [["--raw-plus", "jpeg", "--format", "heic"], ["--raw-plus", "dng"]] {
            let run = try Self.photocap(["shoot", "--device", "synthetic", "--output", target.path + "/"] + options)
            #expect(run.status != 0, "\(options)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: target.path) == ["shot.dng"])
    }

    @Test func developWritesTheProcessedPhotoBesideTheDNG() throws {
        let folder = try TemporaryDirectory("raw-cli")
        let dng = folder.path("shot.dng")
        let shot = try Self.photocap(["shoot", "--device", "synthetic", "--format", "dng", "--size", "640x480",
                                      "--sensor-rotation", "90", "--rotation", "180", "--output", dng])
        #expect(shot.status == 0, "\(shot.stderr)")
        // Default: the mounting in the pixels, the device's half turn in the metadata.
        let run = try Self.photocap(["develop", dng, "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let report = try Self.json(try #require(run.text.split(separator: "\n").first))
        #expect(report["path"] as? String == folder.path("shot.jpg"))
        #expect(report["orientationWritten"] as? Int == 3 && report["compensationApplied"] as? Bool == true)
        let jpeg = folder.path("shot.jpg")
        #expect(try ExternalTool.exiftoolValidationProblems(jpeg) == [])
        let upright = SyntheticScene.image(size: PixelSize(width: 480, height: 640)).transformed(by: .down)
        #expect(try ReferenceDecoder.imageMagickAutoOriented(jpeg).meanAbsoluteDifference(to: upright) <= 4)

        for (flag, ext, orientation) in [("--no-compensation", "tiff", 6), ("--upright", "heic", 1)] {
            let out = folder.path("out\(flag).\(ext)")
            let developed = try Self.photocap(["develop", dng, "--format", ext, flag, "--heic-speed", "ultrafast", "--output", out])
            #expect(developed.status == 0, "\(developed.stderr)")
            #expect(try ImageFileInfo(data: [UInt8](Data(contentsOf: URL(fileURLWithPath: out)))).orientation.exifValue == orientation)
            #expect(try ExternalTool.exiftoolValidationProblems(out) == [])
        }
        // Never over an existing file unless asked.
        let again = try Self.photocap(["develop", dng])
        #expect(again.status == 1 && again.stderr.contains("already exists"), "\(again.stderr)")
        #expect(try Self.photocap(["develop", dng, "--overwrite"]).status == 0)
    }

    /// Acceptance 5: a truncated DNG or a file that is no DNG is refused with a clear message,
    /// and nothing is written.
    @Test func developRefusesDamagedAndForeignFiles() throws {
        let folder = try TemporaryDirectory("raw-cli")
        let dng = folder.path("whole.dng")
        #expect(try Self.photocap(["shoot", "--device", "synthetic", "--format", "dng", "--size", "320x240", "--output", dng]).status == 0)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: dng))
        let cut = try folder.write([UInt8](bytes.prefix(bytes.count * 2 / 3)), named: "cut.dng")
        let jpeg = folder.path("photo.jpg")
        #expect(try Self.photocap(["shoot", "--device", "synthetic", "--size", "320x240", "--output", jpeg]).status == 0)
        for (file, message) in [(cut, "truncated or damaged"), (jpeg, "not a DNG"),
                                (folder.path("missing.dng"), "no such file")] {
            let out = folder.path("out.jpg")
            let run = try Self.photocap(["develop", file, "--output", out])
            #expect(run.status == 1)
            #expect(run.stderr.hasPrefix("photocap: error: cannot develop \(file): ") && run.stderr.contains(message), "\(run.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out))
        }
        // A file that cannot be read at all: the reason alone, not the reader's own sentence.
        let missing = folder.path("missing.dng")
        #expect(try Self.photocap(["develop", missing]).stderr == "photocap: error: cannot develop \(missing): no such file\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted() == ["cut.dng", "photo.jpg", "whole.dng"])
    }

    /// Zeroes the StripByteCounts of a DNG's CFA image (argv: source, target): the raw data is
    /// gone while every offset stays inside the file. Python, independent of photocap's reader.
    static let zeroRawData = #"""
# Sets every StripByteCounts value of a DNG's CFA image (the IFD with NewSubFileType 0: IFD0
# or one of its SubIFDs) to 0: the raw data is gone while every offset stays inside the file.
import struct, sys
data = bytearray(open(sys.argv[1], "rb").read())
endian = "<" if data[:2] == b"II" else ">"
def entries(ifd):
    count = struct.unpack(endian + "H", data[ifd:ifd + 2])[0]
    for index in range(count):
        at = ifd + 2 + 12 * index
        tag, kind, n = struct.unpack(endian + "HHI", data[at:at + 8])
        yield at, tag, kind, n
def value(at, kind, n):
    size = {3: 2, 4: 4}[kind]
    where = at + 8 if size * n <= 4 else struct.unpack(endian + "I", data[at + 8:at + 12])[0]
    return [struct.unpack(endian + ("H" if size == 2 else "I"), data[where + size * i:where + size * (i + 1)])[0] for i in range(n)], where, size
ifd0 = struct.unpack(endian + "I", data[4:8])[0]
candidates = [ifd0]
for at, tag, kind, n in entries(ifd0):
    if tag == 330: candidates += value(at, kind, n)[0]
for ifd in candidates:
    tags = {tag: (at, kind, n) for at, tag, kind, n in entries(ifd)}
    if 254 in tags and value(*tags[254])[0][0] != 0: continue
    counts, where, size = value(*tags[279])
    for i in range(len(counts)):
        data[where + size * i:where + size * (i + 1)] = b"\0" * size
    open(sys.argv[2], "wb").write(data)
    sys.exit(0)
sys.exit("no CFA image")
"""#

    /// A developed photo says what the camera recorded: Make, Model and the exposure come from
    /// the DNG (they were once photocap's own, and the exposure was dropped), in JPEG and
    /// in TIFF (whose libtiff writer once dropped FNumber and FocalLength).
    @Test(arguments: ["jpeg", "tiff"])
    func developCarriesTheDNGsCameraAndExposure(format: String) throws {
        let folder = try TemporaryDirectory("develop-camera")
        let dng = folder.path("raw.dng")
        #expect(try Self.photocap(["shoot", "--device", "synthetic", "--format", "dng", "--size", "640x480", "--output", dng]).status == 0)
        try ExternalTool.run("exiftool", ["-q", "-overwrite_original", "-Make=Canon", "-Model=EOS 5D Mark IV", "-ExposureTime=1/125",
                                          "-FNumber=5.6", "-ISO=400", "-FocalLength=50", "-ExposureCompensation=-0.7", dng]).checked()
        let developed = folder.url.appendingPathComponent("developed.\(format == "jpeg" ? "jpg" : "tif")").path
        let run = try Self.photocap(["develop", dng, "--format", format, "--output", developed])
        #expect(run.status == 0, "\(run.stderr)")
        let tags = try ExternalTool.run("exiftool", ["-s3", "-Make", "-Model", "-ExposureTime", "-FNumber", "-ISO", "-FocalLength",
                                                     "-ExposureCompensation", developed]).checked().text
        #expect(tags.split(separator: "\n") == ["Canon", "EOS 5D Mark IV", "1/125", "5.6", "400", "50.0 mm", "-0.7"], "\(tags)")
        #expect(try ExternalTool.exiftoolValidationProblems(developed) == [])
    }

    /// A DNG whose raw data is missing is refused, naming it, and nothing is written (it used
    /// to develop into a black JPEG with exit 0).
    @Test func developRefusesADNGWithoutRawData() throws {
        let folder = try TemporaryDirectory("develop-empty")
        let dng = folder.path("raw.dng")
        #expect(try Self.photocap(["shoot", "--device", "synthetic", "--format", "dng", "--size", "640x480", "--output", dng]).status == 0)
        let empty = folder.path("empty.dng")
        try ExternalTool.run("python3", ["-c", Self.zeroRawData, dng, empty]).checked()
        let output = folder.url.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        let run = try Self.photocap(["develop", empty, "--format", "jpeg", "--output", output.path + "/"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("empty.dng: corrupt DNG file: its raw data is missing: the CFA image's 1 strip(s) hold 0 bytes"), "\(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: output.path).isEmpty)
    }

    /// Apple delivers RAW and processed as two photos: when the processed one cannot be written
    /// (a full disk), the DNG that was written and reported stays, and the failure is reported
    /// for the JPEG alone. The disk is a tmpfs with room for the DNG only.
    @Test func aFullDiskAfterTheDNGKeepsTheReportedDNG() throws {
        let arguments = ["shoot", "--device", "synthetic", "--size", "1024x768", "--raw-plus", "jpeg"]
        let sizing = try TemporaryDirectory("raw-cli")
        let probe = try Self.photocap(arguments + ["--output", sizing.url.appendingPathComponent("rp.dng").path])
        #expect(probe.status == 0, "\(probe.stderr)")
        func bytes(_ path: String) throws -> Int { try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) }
        let dngBytes = try bytes(sizing.url.appendingPathComponent("rp.dng").path)
        let jpegBytes = try bytes(sizing.url.appendingPathComponent("rp.jpg").path)
        let page = 4096
        try #require(jpegBytes > 4 * page, "the JPEG (\(jpegBytes) bytes) must not fit the slack")

        let disk = try TemporaryDirectory("raw-full-disk")
        let room = (dngBytes + page - 1) / page * page + 2 * page
        try ExternalTool.run("mount", ["-t", "tmpfs", "-o", "size=\(room)", "tmpfs", disk.url.path]).checked()
        defer { _ = try? ExternalTool.run("umount", [disk.url.path]) }
        let dng = disk.url.appendingPathComponent("rp.dng").path
        let run = try Self.photocap(arguments + ["--output", dng])

        #expect(run.status == 1, "status \(run.status): \(run.stderr)")
        #expect(run.text.hasPrefix("\(dng): dng 1024x768"), "the DNG was not reported: \(run.text)")
        #expect(run.stderr.contains("rp.jpg") && run.stderr.contains("No space left on device"), "\(run.stderr)")
        #expect(try bytes(dng) == dngBytes, "the reported DNG is gone or changed")
        #expect(try ExternalTool.exiftoolValidationProblems(dng) == [])
        #expect(try FileManager.default.contentsOfDirectory(atPath: disk.url.path) == ["rp.dng"])
    }
}
