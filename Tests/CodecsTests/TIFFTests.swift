import Codecs
import Foundation
import Imaging
import Testing
import TestSupport

@Suite("TIFF writing and reading")
struct TIFFTests {
    static let size = PixelSize(width: 64, height: 48)

    /// tiffinfo's wording of each Orientation value (libtiff's tif_print.c).
    static let tiffinfoOrientation: [Orientation: String] = [
        .up: "row 0 top, col 0 lhs", .upMirrored: "row 0 top, col 0 rhs",
        .down: "row 0 bottom, col 0 rhs", .downMirrored: "row 0 bottom, col 0 lhs",
        .leftMirrored: "row 0 lhs, col 0 top", .right: "row 0 rhs, col 0 top",
        .rightMirrored: "row 0 rhs, col 0 bottom", .left: "row 0 lhs, col 0 bottom",
    ]

    static func tiff(_ orientation: Orientation) throws -> [UInt8] {
        try TIFFFile.encode(rgb: TestImage.quadrants(size).pixels, size: size,
                            metadata: JPEGTests.fullMetadata(orientation: orientation, pixelSize: size))
    }

    @Test("TIFFFile.read gives back exactly the pixels and orientation written", arguments: Orientation.allCases)
    func roundTrip(orientation: Orientation) throws {
        let read = try TIFFFile.read(try Self.tiff(orientation))
        #expect(read.size == Self.size)
        #expect(read.orientation == orientation)
        #expect(read.rgb == TestImage.quadrants(Self.size).pixels)
        let info = try ImageFileInfo(data: try Self.tiff(orientation))
        #expect(info.format == .tiff)
        #expect(info.orientation == orientation)
        #expect(info.displayedSize == orientation.apply(to: Self.size))
        #expect(info.exif["Make"] == "photocap")
        #expect(info.exif["ISOSpeedRatings"] == "200")
    }

    @Test("tiffinfo, ImageMagick -auto-orient and exiftool -validate accept the file", arguments: Orientation.allCases)
    func thirdPartyReaders(orientation: Orientation) throws {
        let folder = try TemporaryDirectory("codecs-tests")
        let path = try folder.write(try Self.tiff(orientation), named: "photo.tif")

        let info = try ExternalTool.run("tiffinfo", [path])
        #expect(info.status == 0, "tiffinfo: \(info.stderr)")
        #expect(info.stderr.isEmpty, "tiffinfo warned: \(info.stderr)")
        #expect(info.text.contains("Orientation: \(Self.tiffinfoOrientation[orientation]!)"), "tiffinfo said: \(info.text)")

        // ImageMagick applies the Orientation tag like a viewer; lossless, so at most rounding.
        let magick = try ExternalTool.run("convert", [path, "-auto-orient", "-depth", "8", "ppm:-"])
        #expect(magick.status == 0, "convert: \(magick.stderr)")
        let shown = try PPM.parse(magick.stdout)
        let expected = TestImage.quadrants(Self.size).transformed(by: orientation)
        #expect(shown.size == expected.size)
        let difference = shown.size == expected.size ? shown.meanAbsoluteDifference(to: expected) : .infinity
        #expect(difference <= 1, "mean abs diff \(difference)")

        let validate = try ExternalTool.run("exiftool", ["-validate", "-warning", "-a", path])
        let lines = validate.text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(lines == ["Validate                        : OK"], "exiftool said: \(validate.text)")

        let read = try ExternalTool.run("exiftool", ["-n", "-s3", "-IFD0:Orientation", "-ImageWidth", "-ISO",
                                                     "-OffsetTimeOriginal", path])
        #expect(read.text.split(separator: "\n").map(String.init)
                == ["\(orientation.exifValue)", "64", "200", EXIFOffset.local(Date(timeIntervalSince1970: 1_700_000_000.25))],
                "exiftool said: \(read.text)")
    }

    @Test("TIFFFile.read reads Pillow's Orientation 1...8 TIFFs", .needsThirdPartyImages, arguments: 1...8)
    func pillowTIFFs(value: Int) throws {
        let file = try #require(try ThirdPartyImages.bytes("pillow-tiff-orientation/g4_orientation_\(value).tif"))
        let read = try TIFFFile.read(file)
        #expect(read.orientation == Orientation(rawValue: value))
        let info = try ImageFileInfo(data: file)
        #expect(info.format == .tiff)
        #expect(info.orientation == Orientation(rawValue: value))
        #expect(info.storedSize == read.size)
    }

    @Test("TIFFFile.read decodes in bands of whole strips or tiles: ImageMagick's pixels, exactly",
          arguments: [["-define", "tiff:rows-per-strip=7"], ["-define", "tiff:rows-per-strip=100"],
                      ["-define", "tiff:tile-geometry=32x48"], ["-define", "tiff:tile-geometry=64x16"]])
    func bandsOfStripsAndTiles(layout: [String]) throws {
        // 150 rows: bands of 70 (7-row strips), 100, 96 and 64 rows, each with a short last band.
        let size = PixelSize(width: 90, height: 150)
        let folder = try TemporaryDirectory("codecs-tiff-bands")
        let ppm = try folder.write(Array("P6\n90 150\n255\n".utf8) + JPEGStripTests.textured(size).pixels, named: "source.ppm")
        let path = folder.path("bands.tif")
        try ExternalTool.run("convert", [ppm] + layout + ["-compress", "lzw", path]).checked()
        let read = try TIFFFile.read([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
        let magick = try PPM.parse(try ExternalTool.run("convert", [path, "-depth", "8", "ppm:-"]).checked().stdout)
        #expect(read.size == size)
        #expect(read.rgb == magick.pixels, "\(layout)")
    }

    /// The strip layouts read a scanline at a time: (samples, compression, rows per strip).
    static let scanlineLayouts: [(Int, String, Int)] = [1, 3].flatMap { samples in
        ["none", "packbits", "lzw"].flatMap { compression in [(samples, compression, 150), (samples, compression, 7)] }
    }

    @Test("TIFFFile reads 8-bit RGB and grey strips a scanline at a time: ImageMagick's pixels, exactly, from memory and descriptor",
          arguments: scanlineLayouts)
    func scanlineStrips(samples: Int, compression: String, rowsPerStrip: Int) throws {
        let size = PixelSize(width: 90, height: 150)
        let folder = try TemporaryDirectory("codecs-tiff-scanlines")
        let rgb = JPEGStripTests.textured(size).pixels
        // Grey samples that differ from one pixel to the next, as the RGB ones do.
        let source = samples == 3
            ? try folder.write(Array("P6\n90 150\n255\n".utf8) + rgb, named: "source.ppm")
            : try folder.write(Array("P5\n90 150\n255\n".utf8) + stride(from: 0, to: rgb.count, by: 3).map { rgb[$0] ^ rgb[$0 + 1] },
                               named: "source.pgm")
        let path = folder.path("scanlines.tif")
        try ExternalTool.run("ppm2tiff", ["-c", compression, "-r", "\(rowsPerStrip)", source, path]).checked()
        let magick = try PPM.parse(try ExternalTool.run("convert", [path, "-depth", "8", "ppm:-"]).checked().stdout)
        let fromMemory = try TIFFFile.read([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
        #expect(fromMemory.size == size && fromMemory.rgb == magick.pixels)
        let (descriptor, fileSize) = try InputFile.openRegular(path)
        defer { close(descriptor) }
        var rows: [UInt8] = []
        let read = try TIFFFile.readRows(descriptor: descriptor, fileSize: fileSize, check: { _, _ throws(CodecError) in }) { _, y, row in
            #expect(rows.count == y * size.width * 3)
            rows.append(contentsOf: row)
        }
        #expect(read?.size == size && read?.orientation == .up)
        #expect(rows == magick.pixels)
    }

    @Test("TIFFFile.readRows(descriptor:) refuses a picture its check refuses, before any row, and skips a DNG")
    func descriptorCheckAndDNG() throws {
        let folder = try TemporaryDirectory("codecs-tiff-descriptor")
        let path = try folder.write(try Self.tiff(.right), named: "right.tif")
        let (descriptor, fileSize) = try InputFile.openRegular(path)
        defer { close(descriptor) }
        var rows = 0
        #expect(throws: CodecError.self) {
            try TIFFFile.readRows(descriptor: descriptor, fileSize: fileSize, check: { size, orientation throws(CodecError) in
                #expect(size == Self.size && orientation == .right)
                throw .pixelBudgetExceeded(format: "TIFF", size: size, limit: 1)
            }) { _, _, _ in rows += 1 }
        }
        #expect(rows == 0)
        let (frame, _) = try DNGTests.randomFrame(.srggb12)
        let dng = try folder.write(try DNGFile.encode(frame, metadata: DNGTests.metadata(thumbnail: false)), named: "small.dng")
        let (dngDescriptor, dngSize) = try InputFile.openRegular(dng)
        defer { close(dngDescriptor) }
        #expect(try TIFFFile.readRows(descriptor: dngDescriptor, fileSize: dngSize, check: { _, _ throws(CodecError) in }) { _, _, _ in rows += 1 } == nil)
        #expect(rows == 0)
    }

    @Test("TIFFFile rejects mismatched buffers and non-TIFF data")
    func rejects() {
        #expect(throws: CodecError.self) { try TIFFFile.encode(rgb: [1, 2, 3], size: Self.size, metadata: EXIFMetadata()) }
        #expect(throws: CodecError.self) { try TIFFFile.read([0xFF, 0xD8, 0xFF, 0xE0, 0, 0, 0, 0]) }
    }
}

/// The "+HH:MM" spelling of the local offset at a date.
enum EXIFOffset {
    static func local(_ date: Date) -> String {
        let minutes = TimeZone.current.secondsFromGMT(for: date) / 60
        return String(format: "%@%02d:%02d", minutes < 0 ? "-" : "+", abs(minutes) / 60, abs(minutes) % 60)
    }
}
