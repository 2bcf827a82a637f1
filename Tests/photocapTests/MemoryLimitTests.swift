#if canImport(Glibc)
import Glibc
#endif
import Codecs
import Foundation
import Imaging
import PhotoCapture
import PhotocapCommands
import Testing
import TestSupport

/// `--max-pixels` on compare, and the default budget's respect for the memory the process may
/// use: photocap run inside a memory-limited cgroup refuses, from the header, a picture whose
/// decode cannot fit, naming the figures and where the limit came from.
@Suite(.serialized) struct MemoryLimitTests {
    static func photocap(_ arguments: [String]) throws -> MeasuredRun {
        try MeasuredRun.run(TestPaths.photocap, arguments, deadline: 60)
    }

    @Test("compare --max-pixels: a picture past a lowered budget is refused (exit 2), let through once it is raised")
    func compareBudget() throws {
        let seeds = try HostileSeeds(size: 512)  // 262144 pixels
        for format in ["jpeg", "tiff"] {
            let file = seeds.paths[format]!
            let refused = try Self.photocap(["compare", file, file, "--max-pixels", "200000"])
            #expect(refused.status == 2 && refused.stderr.contains("512x512 pixels (0.3 MP), more than the pixel budget of 200000"),
                    "\(format): \(refused.stderr)")
            let raised = try Self.photocap(["compare", file, file, "--max-pixels", "262144"])
            #expect(raised.status == 0 && String(decoding: raised.stdout, as: UTF8.self).contains("matches the golden"),
                    "\(format): \(raised.stderr)")
        }
    }

    @Test("develop --max-pixels refuses a 16384x16384 DNG from its header, before reading its 268 MB: ≤ 64 MB")
    func developRefusesFromTheHeader() throws {
        let seeds = try HostileSeeds()
        let folder = try TemporaryDirectory("photocap-develop-limit")
        // The seed's 8-bit CFA image declaring 16384x16384, the file as long as those samples
        // (a sparse tail: nothing is stored), so only the budget stands in the way.
        let file = try folder.write(HostileSeeds.tiff(try seeds.bytes("dng"), declaring: 16384, 16384), named: "huge.dng")
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: file))
        try handle.truncate(atOffset: 16384 * 16384 + 65536)
        try handle.close()
        let output = folder.url.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        let (run, peak) = try MeasuredRun.runTimed(TestPaths.photocap, ["develop", file, "--output", output.path + "/", "--max-pixels", "1000000"],
                                                   deadline: 60)
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr.contains("declares 16384x16384 pixels (268.4 MP), more than the pixel budget of 1000000"), "\(run.stderr)")
        // Reading the file alone would cost its 268 MB; photocap itself starts at some 20 MB.
        #expect(peak <= 64 * 1024 * 1024, "peak \(peak / 1_048_576) MB (/usr/bin/time)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: output.path).isEmpty)
    }

    @Test("develop stays within the bytes a pixel the budget counts for it, JPEG and HEIC",
          arguments: ["jpeg", "heic"])
    func developStaysWithinItsFootprint(format: String) throws {
        let folder = try TemporaryDirectory("photocap-develop-footprint")
        let dng = folder.path("shot.dng")
        let shot = try Self.photocap(["shoot", "--device", "synthetic", "--format", "dng", "--size", "4032x3024", "--output", dng])
        #expect(shot.status == 0, "\(shot.stderr)")
        let (run, peak) = try MeasuredRun.runTimed(TestPaths.photocap, ["develop", dng, "--format", format, "--output", folder.url.path + "/"],
                                                   deadline: 60)
        #expect(run.status == 0, "\(run.stderr)")
        // The budget refuses from the header what would not fit; an estimate under what
        // development takes lets the kernel kill it part way instead. photocap itself starts at
        // some 30 MB (40 with x265 loaded).
        let pixels = 4032 * 3024
        #expect(peak <= RawDevelopment.bytesPerPixel(developing: PixelSize(width: 4032, height: 3024)) * pixels + 64 * 1024 * 1024,
                "peak \(peak / 1_048_576) MB, \(Double(peak - 40 * 1_048_576) / Double(pixels)) bytes a pixel over the start")
    }

    /// LibRaw develops a picture whole, some 13 bytes a pixel before it is encoded (3.5 GB at
    /// this size, 5.8 GB before the bands); past 64 MP photocap develops it in bands of the
    /// conversion pass, beside the sensor data alone, and a JPEG's or TIFF's strips are coded
    /// from those bands. A HEIC is coded from the converted planes, the sensor data let go of
    /// before x265 starts. The DNG is a real photo (libheif's pug,
    /// tiled) mosaicked as a 16-bit sensor with a black level and white balance would record it.
    @Test("develop of a 16384x16384 16-bit DNG to JPEG, TIFF or HEIC stays within 1.2 GB")
    func developsTheLargestDNGInBands() throws {
        let folder = try TemporaryDirectory("photocap-develop-16k")
        let dng = folder.path("huge.dng")
        _ = FileManager.default.createFile(atPath: dng, contents: Data(try Self.hugeDNG()))
        for format in ["jpeg", "tiff", "heic"] {
            let output = folder.path("huge.\(format)")
            // x265 codes the HEIC's 256 tiles one after another: minutes on two cores.
            let (run, peak) = try MeasuredRun.runTimed(TestPaths.photocap, ["develop", dng, "--format", format, "--output", output],
                                                       deadline: format == "heic" ? 1200 : 300)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(peak <= 1_200_000_000, "\(format): peak \(peak / 1_048_576) MB (/usr/bin/time)")
            let size = try ExternalTool.run("exiftool", ["-s3", "-ImageSize", output]).checked()
            #expect(size.text.trimmingCharacters(in: .whitespacesAndNewlines) == "16384x16384")
            try FileManager.default.removeItem(atPath: output)
        }
        // The memory check counts what the bands hold, not LibRaw's whole development (4.8 GB
        // here): a 2 GB cgroup lets it through, and it fits.
        guard let group = LimitedGroup.made(bytes: 2 << 30) else { return }
        let limited = try group.photocap(["develop", dng, "--output", folder.path("limited.jpg")])
        #expect(limited.status == 0, "status \(String(describing: limited.status)), signal \(String(describing: limited.signal)): \(limited.stderr)")
    }

    /// A 16384x16384 16-bit RGGB DNG of libheif's pug photo, tiled: its sRGB samples made linear,
    /// scaled by a white balance of (0.5, 1, 0.7) over a black level of 1024 (the sensor's
    /// response, which development must undo), rows copied side by side.
    static func hugeDNG() throws -> [UInt8] {
        let pug = try Data(contentsOf: TestPaths.testImages.appendingPathComponent("third-party/pillow-heif/pillow_heif_pug.heic"))
        let decoded = try HEICDecoder.decodeRGB([UInt8](pug), applyingTransformations: true)
        let tileSize = PixelSize(width: decoded.size.width & ~1, height: decoded.size.height & ~1)
        let rows = (0..<tileSize.height).flatMap { decoded.rgb[($0 * decoded.size.width * 3)..<($0 * decoded.size.width + tileSize.width) * 3] }
        let black = 1024.0
        let curves = [0.5, 1, 0.7].map { gain in
            (0..<256).map { value -> UInt16 in
                let v = Double(value) / 255
                let linear = v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
                return UInt16(black + linear * gain * (65535 - black))
            }
        }
        let tile = try FrameBuilder.bayerFrame(from: RGBImage(size: tileSize, pixels: rows), format: .srggb16, curves: curves)
        let size = PixelSize(width: 16384, height: 16384)
        let storage = FrameStorage(count: size.area * 2) { target in
            tile.storage.withUnsafeBytes { source in
                for y in 0..<size.height {
                    let from = source.baseAddress! + (y % tileSize.height) * tile.bytesPerRow
                    var x = 0
                    while x < size.width {
                        let count = min(tileSize.width, size.width - x)
                        (target.baseAddress! + (y * size.width + x) * 2).copyMemory(from: from, byteCount: count * 2)
                        x += count
                    }
                }
            }
        }
        var metadata = DNGMetadata(exif: EXIFMetadata(orientation: .up), uniqueCameraModel: "tiled pug")
        (metadata.asShotNeutral, metadata.blackLevel) = ([0.5, 1, 0.7], Int(black))
        return try DNGFile.encode(try Frame(format: .srggb16, size: size, storage: storage), metadata: metadata)
    }

    /// A TIFF turned in place is read but for its strips, which are decoded from the file into
    /// the one picture held; the turned strips go to a scratch file and the result is written
    /// piece by piece (once the file, its turned picture and the coded strips were all held).
    @Test("orient --in-place of an uncompressed TIFF holds one picture's worth, not the file beside it")
    func tiffOrientHoldsOnePicture() throws {
        let folder = try TemporaryDirectory("photocap-tiff-footprint")
        let path = try Self.uncompressedTIFF(depth: 8, in: folder)
        let fileBytes = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(fileBytes > 48 * 1024 * 1024)
        let (run, peak) = try MeasuredRun.runTimed(TestPaths.photocap, ["orient", "--in-place", path], deadline: 60)
        #expect(run.status == 0 && String(decoding: run.stdout, as: UTF8.self).contains("orientation 6 -> 1 (4096x4096)"), "\(run.stderr)")
        // photocap itself starts at some 14 MB.
        #expect(peak <= fileBytes + 48 * 1024 * 1024,
                "peak \(peak / 1_048_576) MB, \(Double(peak) / Double(fileBytes)) times the file")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["rgb8.tif"], "a scratch file was left")
    }

    /// A child of this process's memory cgroup (v2 `memory.max` or v1 `memory.limit_in_bytes`)
    /// limited to `bytes`, removed on deinit; nil where cgroups cannot be made (not root, no
    /// memory controller).
    final class LimitedGroup {
        let folder: String
        let procs: String
        let limitFile: String

        /// A group limited to `bytes`, or nil after saying the test is skipped.
        static func made(bytes: Int) -> LimitedGroup? {
            let group = LimitedGroup(bytes: bytes)
            if group == nil { print("skipped: no memory cgroup can be made here") }
            return group
        }

        init?(bytes: Int) {
            guard let text = try? String(contentsOfFile: "/proc/self/cgroup", encoding: .utf8) else { return nil }
            var candidates: [(mount: String, path: String, file: String)] = []
            for line in text.split(separator: "\n") {
                let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
                guard fields.count == 3 else { continue }
                if fields[1].split(separator: ",").contains("memory") {
                    candidates.append(("/sys/fs/cgroup/memory", String(fields[2]), "memory.limit_in_bytes"))
                } else if fields[0] == "0" && fields[1].isEmpty {
                    candidates.append(("/sys/fs/cgroup", String(fields[2]), "memory.max"))
                }
            }
            for candidate in candidates {
                let folder = candidate.mount + candidate.path + "/photocap-memory-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
                guard mkdir(folder, 0o755) == 0 else { continue }
                let limitFile = folder + "/" + candidate.file
                guard FileManager.default.fileExists(atPath: limitFile),
                      (try? "\(bytes)\n".write(toFile: limitFile, atomically: false, encoding: .utf8)) != nil else {
                    rmdir(folder)
                    continue
                }
                (self.folder, self.procs, self.limitFile) = (folder, folder + "/cgroup.procs", limitFile)
                return
            }
            return nil
        }

        deinit { rmdir(folder) }

        /// photocap with `arguments`, moved into the group before it starts.
        func photocap(_ arguments: [String]) throws -> MeasuredRun {
            try MeasuredRun.run("/bin/sh", ["-c", "echo $$ > \"$0\" && exec \"$@\"", procs, TestPaths.photocap] + arguments,
                                deadline: 60)
        }
    }

    @Test("in a cgroup limited to 512 MB, compare and orient refuse a 16384x16384 picture from its header, with the figures")
    func refusedInACgroup() throws {
        let limit = 512 * 1024 * 1024
        guard let group = LimitedGroup.made(bytes: limit) else { return }
        let seeds = try HostileSeeds()
        let folder = try TemporaryDirectory("photocap-memory")
        let file = try folder.write(HostileSeeds.jpeg(try seeds.bytes("jpeg"), declaring: 16384, 16384), named: "big.jpg")
        let output = folder.url.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        let pixels = 16384 * 16384
        for (command, status, perPixel) in [(["compare", file, file], Int32(2), 9), (["orient", file, "--output", output.path], 1, 6)] {
            let run = try group.photocap(command)
            #expect(run.status == status, "\(command[0]): \(run.stderr)")
            #expect(run.stderr.contains("declares 16384x16384 pixels (268.4 MP)"), "\(run.stderr)")
            #expect(run.stderr.contains("needs \(pixels * perPixel) bytes"), "\(command[0]): \(run.stderr)")
            #expect(run.stderr.contains("more than the \(limit) bytes (0.5 GB) this process may use"), "\(run.stderr)")
            #expect(run.stderr.contains("the memory limit of cgroup ") && run.stderr.contains(group.limitFile), "\(run.stderr)")
            #expect(run.peakBytes < 200 * 1024 * 1024, "peak \(run.peakBytes / 1_048_576) MB")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: output.path).isEmpty)
        // A budget given on purpose is the user's: the memory check steps aside, the pixel check stays.
        let chosen = try group.photocap(["compare", file, file, "--max-pixels", "1000"])
        #expect(chosen.status == 2 && chosen.stderr.contains("more than the pixel budget of 1000"), "\(chosen.stderr)")
    }

    /// The budget counts 6 bytes a pixel for `orient` (an 8-bit RGB picture and its turned
    /// copy). A TIFF turned in its own kind from its file holds its stored picture only, which
    /// for 16-bit RGBA is 8 bytes a pixel: counted at 6, such a picture passed the check in a
    /// cgroup it could not fit and was killed part way.
    @Test("in a cgroup limited to 256 MB, orient turns 8- and 16-bit RGB TIFFs holding their picture only, and refuses a 16-bit RGBA one that cannot fit")
    func tiffOrientCountsWhatItHolds() throws {
        let limit = 256 * 1024 * 1024
        guard let group = LimitedGroup.made(bytes: limit) else { return }
        let folder = try TemporaryDirectory("photocap-tiff-memory")
        let output = folder.url.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        for (depth, alpha, height, fits) in [(16, false, 4096, true), (16, true, 8704, false), (8, false, 4096, true)] {
            let path = try Self.uncompressedTIFF(depth: depth, alpha: alpha, height: height, in: folder)
            let run = try group.photocap(["orient", path, "--output", output.path])
            if fits {
                #expect(run.status == 0, "\(depth)-bit: \(run.stderr)")
                #expect(String(decoding: run.stdout, as: UTF8.self).contains("orientation 6 -> 1 (\(height)x4096)"), "\(run.stderr)")
            } else {
                #expect(run.status == 1, "\(depth)-bit: status \(String(describing: run.status)), signal \(String(describing: run.signal)): \(run.stderr)")
                // The stored picture: 8 bytes a pixel.
                #expect(run.stderr.contains("declares 4096x8704 pixels (35.7 MP)") && run.stderr.contains("needs \(4096 * 8704 * 8) bytes"),
                        "\(run.stderr)")
                #expect(run.stderr.contains("more than the \(limit) bytes"), "\(run.stderr)")
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: output.path).sorted() == ["rgb16.tif", "rgb8.tif"])
    }

    /// A 4096-wide, `height`-tall uncompressed RGB (or RGBA) TIFF of `depth`-bit samples with
    /// Orientation 6 in `folder`, named `rgbDEPTH.tif` (`rgbaDEPTH.tif`), made by ImageMagick.
    static func uncompressedTIFF(depth: Int, alpha: Bool = false, height: Int = 4096, in folder: TemporaryDirectory) throws -> String {
        let path = folder.path("rgb\(alpha ? "a" : "")\(depth).tif")
        try ExternalTool.run("convert", ["-size", "4096x\(height)", "gradient:red-blue", "-alpha", alpha ? "set" : "off",
                                         "-depth", "\(depth)", "-compress", "none", "-orient", "RightTop", path]).checked()
        return path
    }

    /// A 16384x16384 colour JPEG (4:2:0, a few MB: flat 64-pixel blocks) with Orientation 6
    /// (none when `orientation` is nil) in `folder`, made by cjpeg with `options` from rows piped
    /// to it (the 805 MB picture is never stored whole).
    static func hugeJPEG(in folder: TemporaryDirectory, name: String = "huge.jpg", options: [String] = [],
                         orientation: Int? = 6) throws -> String {
        let path = folder.path(name)
        let side = 16384
        let cjpeg = Process()
        cjpeg.executableURL = URL(fileURLWithPath: try ExternalTool.path(of: "cjpeg"))
        cjpeg.arguments = ["-quality", "85"] + options + ["-outfile", path]
        let input = Pipe()
        cjpeg.standardInput = input
        cjpeg.standardError = FileHandle.nullDevice
        try cjpeg.run()
        let writer = input.fileHandleForWriting
        writer.write(Data("P6\n\(side) \(side)\n255\n".utf8))
        var row = [UInt8](repeating: 0, count: side * 3)
        for y in 0..<side {
            if y % 64 == 0 {
                let shift = y / 64 * 13
                for x in 0..<side {
                    let block = x / 64
                    row[3 * x] = UInt8(truncatingIfNeeded: block * 37 + shift)
                    row[3 * x + 1] = UInt8(truncatingIfNeeded: block * 11 + 2 * shift)
                    row[3 * x + 2] = UInt8(truncatingIfNeeded: block * 5 + 3 * shift)
                }
            }
            writer.write(Data(row))
        }
        try writer.close()
        cjpeg.waitUntilExit()
        try #require(cjpeg.terminationStatus == 0)
        if let orientation { try ExternalTool.run("exiftool", ["-q", "-overwrite_original", "-Orientation#=\(orientation)", path]) }
        return path
    }

    /// One 8-bit RGB picture of this size is 805 MB, its 4:2:0 planes half that; the re-encoding
    /// turn holds about one picture. The lossless turn holds the source's DCT coefficients
    /// (805 MB: 4:2:0, 2 bytes each), and would hold the turned ones as many again if they were
    /// not made and written in strips of 32 MiB.
    @Test("orient turns a 16384x16384 JPEG with Orientation 6 within about one decoded picture: ≤ 1.2 GB, ≤ 20 s",
          arguments: [[], ["--lossless"]])
    func orientHugeJPEG(options: [String]) throws {
        let folder = try TemporaryDirectory("photocap-huge")
        let file = try Self.hugeJPEG(in: folder)
        let output = folder.url.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        let run = try Self.photocap(["orient"] + options + [file, "--output", output.path])
        #expect(run.status == 0, "\(options): \(run.stderr)")
        #expect(run.peakBytes <= 1_200_000_000, "\(options): peak \(run.peakBytes / 1_000_000) MB")
        #expect(run.seconds <= 20, "\(options): took \(run.seconds) s")
        let tags = try ExternalTool.run("exiftool", ["-s3", "-Orientation#", "-ImageSize", output.appendingPathComponent("huge.jpg").path])
        #expect(tags.text.split(separator: "\n") == ["1", "16384x16384"], "\(options): \(tags.text)")
    }

    /// A 16384x16384 1-bit grey PNG in `folder` (67 KB: stripes), written by Python's zlib a
    /// row at a time.
    static func hugeBilevelPNG(in folder: TemporaryDirectory) throws -> String {
        let path = folder.path("huge.png")
        let script = """
            import struct, sys, zlib
            def chunk(kind, data):
                return struct.pack('>I', len(data)) + kind + data + struct.pack('>I', zlib.crc32(kind + data) & 0xffffffff)
            side = 16384
            rows = [b'\\x00' + bytes([0xF0]) * (side // 8), b'\\x00' + bytes([0x0F]) * (side // 8)]
            packer = zlib.compressobj(9)
            data = b''.join(packer.compress(rows[(y // 4) % 2]) for y in range(side)) + packer.flush()
            with open(sys.argv[1], 'wb') as out:
                out.write(b'\\x89PNG\\r\\n\\x1a\\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', side, side, 1, 0, 0, 0, 0)))
                out.write(chunk(b'IDAT', data) + chunk(b'IEND', b''))
            """
        try ExternalTool.run("python3", ["-c", script, path]).checked()
        return path
    }

    @Test("compare holds one picture: 16384x16384 PNG and JPEG (Orientation 6) against themselves, each ≤ 1.2 GB, ≤ 20 s")
    func compareHugePictures() throws {
        let folder = try TemporaryDirectory("photocap-huge-compare")
        for file in [try Self.hugeBilevelPNG(in: folder), try Self.hugeJPEG(in: folder)] {
            let run = try Self.photocap(["compare", file, file])
            #expect(run.status == 0, "\(file): \(run.stderr)")
            #expect(String(decoding: run.stdout, as: UTF8.self).contains("matches the golden (16384x16384, mean difference 0"),
                    "\(file): \(String(decoding: run.stdout, as: UTF8.self))")
            // Two RGB pictures of this size would be 1.6 GB; one is 805 MB.
            #expect(run.peakBytes <= 1_200_000_000, "\(file): peak \(run.peakBytes / 1_000_000) MB")
            #expect(run.seconds <= 20, "\(file): took \(run.seconds) s")
        }
    }

    /// The picture djpeg decodes from the JPEG at `jpeg`, as a PNG of stored (uncompressed)
    /// deflate blocks at `path`: as large as the picture (805 MB at 16384x16384), so a reader
    /// that held the file whole would show it. Written by Python from djpeg's rows, a row at a
    /// time.
    static func storedPNG(decodedFrom jpeg: String, to path: String) throws {
        let script = """
            import struct, sys, zlib
            def chunk(kind, data):
                return struct.pack('>I', len(data)) + kind + data + struct.pack('>I', zlib.crc32(kind + data) & 0xffffffff)
            source = sys.stdin.buffer
            fields = []
            while len(fields) < 4:
                line = source.readline()
                fields += line.split(b'#')[0].split()
            width, height = int(fields[1]), int(fields[2])
            packer = zlib.compressobj(0)
            with open(sys.argv[1], 'wb') as out:
                out.write(b'\\x89PNG\\r\\n\\x1a\\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', width, height, 8, 2, 0, 0, 0)))
                for y in range(height):
                    out.write(chunk(b'IDAT', packer.compress(b'\\x00' + source.read(width * 3))))
                out.write(chunk(b'IDAT', packer.flush()) + chunk(b'IEND', b''))
            """
        try ExternalTool.run("sh", ["-c", "djpeg -ppm \"$1\" | python3 -c \"$2\" \"$3\"", "sh", jpeg, script, path]).checked()
    }

    /// Both files are read a row at a time, side by side: a PNG from its descriptor (never the
    /// file whole), a progressive JPEG holding its DCT coefficients (805 MB at 4:2:0, 2 bytes
    /// each) but not its 805 MB picture beside them. Its golden is djpeg's decode of it.
    @Test("16384x16384: matching files compared row for row, a stored PNG ≤ 64 MB, a progressive JPEG ≤ 1.2 GB, and decoded whole ≤ 1.2 GB")
    func compareMatchingHugeFilesRowForRow() throws {
        let folder = try TemporaryDirectory("photocap-huge-rows")
        let jpeg = try Self.hugeJPEG(in: folder, name: "progressive.jpg", options: ["-progressive"], orientation: nil)
        let png = folder.path("golden.png")
        try Self.storedPNG(decodedFrom: jpeg, to: png)
        let fileBytes = try #require(try FileManager.default.attributesOfItem(atPath: png)[.size] as? Int)
        #expect(fileBytes > 800_000_000)
        for (file, bound) in [(png, 64_000_000), (jpeg, 1_200_000_000)] {
            let run = try Self.photocap(["compare", file, png])
            #expect(run.status == 0 && String(decoding: run.stdout, as: UTF8.self).contains("matches the golden (16384x16384, mean difference 0, max 0"),
                    "\(file): \(String(decoding: run.stdout, as: UTF8.self)) \(run.stderr)")
            #expect(run.peakBytes <= bound, "\(file): peak \(run.peakBytes / 1_000_000) MB")
            #expect(run.seconds <= 30, "\(file): took \(run.seconds) s")
        }
        // Decoded whole (to record it, or to look for a turn), the progressive JPEG is re-coded
        // as baseline first: its coefficients are gone before its picture is made (1.6 GB
        // together), and its pixels are still djpeg's.
        let recorded = folder.path("recorded.png")
        let record = try MeasuredRun.run("/usr/bin/env", ["PHOTOCAP_RECORD_GOLDENS=1", TestPaths.photocap, "compare", jpeg, recorded],
                                         deadline: 60)
        #expect(record.status == 0, "\(record.stderr)")
        #expect(record.peakBytes <= 1_200_000_000, "decoded whole: peak \(record.peakBytes / 1_000_000) MB")
        let same = try Self.photocap(["compare", recorded, png])
        #expect(same.status == 0 && String(decoding: same.stdout, as: UTF8.self).contains("mean difference 0, max 0"),
                "\(String(decoding: same.stdout, as: UTF8.self)) \(same.stderr)")
    }

    /// A 16384x16384 uncompressed 8-bit RGB TIFF of one strip (805 MB) in `folder`, the picture
    /// of ``hugeBilevelPNG(in:)``, with `orientation` (an EXIF value); written by Python a row at
    /// a time after its header and IFD0, so the picture is never held whole.
    static func hugeSingleStripTIFF(in folder: TemporaryDirectory, orientation: Int = 1) throws -> String {
        let path = folder.path("huge-\(orientation).tif")
        let script = """
            import struct, sys
            side, orientation = 16384, int(sys.argv[2])
            data = 8 + 2 + 10 * 12 + 4 + 6 + 2
            tags = [(256, 4, side), (257, 4, side), (258, 3, None), (259, 3, 1), (262, 3, 2), (273, 4, data),
                    (274, 3, orientation), (277, 3, 3), (278, 4, side), (279, 4, side * side * 3)]
            ifd = struct.pack('<H', len(tags))
            for tag, kind, value in tags:
                if value is None:
                    ifd += struct.pack('<HHII', tag, kind, 3, 8 + 2 + 10 * 12 + 4)
                else:
                    ifd += struct.pack('<HHI', tag, kind, 1) + (struct.pack('<I', value) if kind == 4 else struct.pack('<HH', value, 0))
            white, black = bytes([255]) * 12, bytes([0]) * 12
            rows = [(white + black) * (side // 8), (black + white) * (side // 8)]
            with open(sys.argv[1], 'wb') as out:
                out.write(b'II*\\0' + struct.pack('<I', 8) + ifd + struct.pack('<I', 0) + struct.pack('<HHH', 8, 8, 8) + bytes(2))
                for y in range(side):
                    out.write(rows[(y // 4) % 2])
            """
        try ExternalTool.run("python3", ["-c", script, path, "\(orientation)"]).checked()
        return path
    }

    /// A TIFF shown as stored is read row for row beside the other file, as a stored PNG is: a
    /// scanline at a time from its descriptor (libtiff reads a single uncompressed strip in small
    /// pieces), neither picture held. Shown turned, it is decoded whole into the one picture
    /// compared, and as the golden it is read by rows from the file again, not held beside it.
    @Test("compare of a 16384x16384 single-strip TIFF, as the picture or the golden: row for row ≤ 64 MB; turned, one picture ≤ 906 MB")
    func compareHugeSingleStripTIFF() throws {
        let folder = try TemporaryDirectory("photocap-huge-tiff")
        let tiff = try Self.hugeSingleStripTIFF(in: folder)
        let golden = try Self.hugeBilevelPNG(in: folder)
        for (file, golden) in [(tiff, golden), (golden, tiff), (tiff, tiff)] {
            let run = try Self.photocap(["compare", file, golden])
            #expect(run.status == 0, "\(file) \(golden): \(run.stderr)")
            #expect(String(decoding: run.stdout, as: UTF8.self).contains("matches the golden (16384x16384, mean difference 0"),
                    "\(String(decoding: run.stdout, as: UTF8.self))")
            // As the stored PNG above: a few rows and the libraries, neither 805 MB picture.
            #expect(run.peakBytes <= 64_000_000, "\(file) \(golden): peak \(run.peakBytes / 1_000_000) MB")
            #expect(run.seconds <= 20, "\(file) \(golden): took \(run.seconds) s")
        }
        // Its own golden: the picture (805 MB) and bands of the golden's rows, the file not held.
        let turned = try Self.hugeSingleStripTIFF(in: folder, orientation: 6)
        let run = try Self.photocap(["compare", turned, turned])
        #expect(run.status == 0 && String(decoding: run.stdout, as: UTF8.self).contains("matches the golden (16384x16384, mean difference 0"),
                "\(String(decoding: run.stdout, as: UTF8.self)) \(run.stderr)")
        #expect(run.peakBytes <= 16384 * 16384 * 3 + 96 * 1024 * 1024, "turned: peak \(run.peakBytes / 1_000_000) MB")
        #expect(run.seconds <= 20, "turned: took \(run.seconds) s")
    }

    /// orient reads the TIFF but its strips, decodes the stored picture from the file a few rows
    /// at a time, codes the turned rows into a scratch file a band at a time and writes the
    /// result piece by piece: one picture is held, not the file, the coded strips or the result.
    @Test("orient of a 16384x16384 single-strip TIFF holds its stored picture only: ≤ 1.2 GB, ≤ 40 s")
    func orientHugeSingleStripTIFF() throws {
        let folder = try TemporaryDirectory("photocap-huge-tiff-orient")
        let tiff = try Self.hugeSingleStripTIFF(in: folder, orientation: 6)
        let fileBytes = try #require(try FileManager.default.attributesOfItem(atPath: tiff)[.size] as? Int)
        let output = folder.url.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        let run = try Self.photocap(["orient", tiff, "--output", output.path])
        #expect(run.status == 0 && String(decoding: run.stdout, as: UTF8.self).contains("orientation 6 -> 1 (16384x16384)"), "\(run.stderr)")
        #expect(run.peakBytes <= 1_200_000_000, "peak \(run.peakBytes / 1_000_000) MB, \(Double(run.peakBytes) / Double(fileBytes)) times the file")
        #expect(run.seconds <= 40, "took \(run.seconds) s")
        let tags = try ExternalTool.run("exiftool", ["-s3", "-Orientation#", "-ImageSize", output.appendingPathComponent("huge-6.tif").path])
        #expect(tags.text.split(separator: "\n") == ["1", "16384x16384"], "\(tags.text)")
    }
}
