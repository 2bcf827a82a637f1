import Codecs
import Foundation
import Imaging
import Testing
import TestSupport

@Suite("JPEG encoding, EXIF insertion and reading")
struct JPEGTests {
    static let size = PixelSize(width: 256, height: 192)
    static let thumbnailSize = PixelSize(width: 160, height: 120)

    /// Every field set, as the pipeline writes them for a rotated photo.
    static func fullMetadata(orientation: Orientation, pixelSize: PixelSize) -> EXIFMetadata {
        var metadata = EXIFMetadata(orientation: orientation)
        metadata.make = "photocap"
        metadata.model = "Synthetic Camera"
        metadata.software = "photocap tests"
        metadata.dateTimeOriginal = Date(timeIntervalSince1970: 1_700_000_000.25)
        metadata.pixelSize = pixelSize
        metadata.exposureTime = 1.0 / 120
        metadata.isoSpeed = 200
        metadata.exposureBias = -1.0 / 3
        metadata.imageUniqueID = "0123456789abcdef0123456789abcdef"
        return metadata
    }

    /// A JPEG with orientation-6 EXIF and a thumbnail, as the pipeline writes it.
    static func jpegWithEXIF() throws -> (jpeg: [UInt8], thumbnail: [UInt8]) {
        let encoder = try JPEGEncoder()
        let main = try encoder.encode(try TestImage.planarQuadrants(size), quality: 90)
        let thumbnail = try encoder.encode(try TestImage.planarQuadrants(thumbnailSize), quality: 80)
        let block = try EXIFBuilder.tiffBlock(for: fullMetadata(orientation: .right, pixelSize: size), thumbnailJPEG: thumbnail)
        return (try JPEGFile.insertingEXIF(block, into: main), thumbnail)
    }

    @Test("djpeg decodes our 4:2:0 JPEG to the source pixels (mean abs diff ≤ 3 at q95)")
    func encodeMatchesDjpeg() throws {
        let source = TestImage.quadrants(Self.size)
        let jpeg = try JPEGEncoder().encode(try source.planarImage(), quality: 95)
        let folder = try TemporaryDirectory("codecs-tests")
        let path = try folder.write(jpeg, named: "q95.jpg")
        let djpeg = try ExternalTool.run("djpeg", ["-ppm", path])
        #expect(djpeg.status == 0, "djpeg: \(djpeg.stderr)")
        let decoded = try PPM.parse(djpeg.stdout)
        #expect(decoded.size == Self.size)
        // Tolerance 3/255: q95 quantisation plus 4:2:0 chroma at the quadrant edges.
        let difference = decoded.size == source.size ? decoded.meanAbsoluteDifference(to: source) : .infinity
        #expect(difference <= 3, "mean abs diff \(difference)")

        let decoder = try JPEGDecoder()
        let header = try decoder.header(jpeg)
        #expect(header.size == Self.size)
        #expect(header.subsampling == "4:2:0")
        let ours = RGBImage(try decoder.decodeRGB(jpeg))
        #expect(ours.size == source.size)
        let oursDifference = ours.size == source.size ? ours.meanAbsoluteDifference(to: source) : .infinity
        #expect(oursDifference <= 3)
        let planar = try decoder.decodePlanar(jpeg)
        #expect(planar.size == Self.size)
        let planarDifference = planar.size == source.size ? try planar.rgbImage().meanAbsoluteDifference(to: source) : .infinity
        #expect(planarDifference <= 3)
    }

    @Test("a JPEG puts in memory only the part of TurboJPEG's worst-case buffer it fills")
    func theOutputBufferIsInMemoryOnlyWhereWritten() throws {
        // 12 MP: a worst case of some 36 MB, for a JPEG of flat quadrants far under 2 MiB (a
        // huge page, which its first byte would put in memory whole).
        let encoder = try JPEGEncoder()
        let jpeg = try encoder.encode(try TestImage.planarQuadrants(PixelSize(width: 4032, height: 3024)), quality: 90)
        #expect(jpeg.count < 1 << 20)
        let resident = encoder.residentOutputBytes
        #expect(resident >= jpeg.count && resident < jpeg.count + (64 << 10),
                "\(resident) bytes of the output buffer in memory for a \(jpeg.count)-byte JPEG")
    }

    @Test("the encoder rejects qualities outside 1...100")
    func rejectsBadQuality() throws {
        let image = try TestImage.planarQuadrants(PixelSize(width: 16, height: 16))
        #expect(throws: CodecError.self) { try JPEGEncoder().encode(image, quality: 0) }
        #expect(throws: CodecError.self) { try JPEGEncoder().encode(image, quality: 101) }
    }

    @Test("exiftool -validate finds nothing to warn about in our EXIF with a thumbnail")
    func exiftoolValidates() throws {
        let (jpeg, _) = try Self.jpegWithEXIF()
        let folder = try TemporaryDirectory("codecs-tests")
        let path = try folder.write(jpeg, named: "exif.jpg")
        let validate = try ExternalTool.run("exiftool", ["-validate", "-warning", "-a", path])
        #expect(validate.status == 0)
        let lines = validate.text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(lines == ["Validate                        : OK"], "exiftool said: \(validate.text)")
    }

    @Test("exiftool reads back the orientation, IFD1 orientation and pixel size we wrote")
    func exiftoolReadsValues() throws {
        let (jpeg, _) = try Self.jpegWithEXIF()
        let folder = try TemporaryDirectory("codecs-tests")
        let path = try folder.write(jpeg, named: "exif.jpg")
        let read = try ExternalTool.run("exiftool", ["-n", "-s", "-s", "-s", "-IFD0:Orientation", "-IFD1:Orientation",
                                                     "-ExifImageWidth", "-ExifImageHeight", "-ISO", "-ExposureTime",
                                                     "-SubSecDateTimeOriginal", "-ImageUniqueID", "-Make", path])
        #expect(read.status == 0)
        let values = read.text.split(separator: "\n").map(String.init)
        let stamp = ISO8601DateFormatter.exifStyle(Date(timeIntervalSince1970: 1_700_000_000.25))
        #expect(values == ["6", "6", "256", "192", "200", "0.008333333333", stamp,
                           "0123456789abcdef0123456789abcdef", "photocap"], "exiftool said: \(read.text)")
    }

    @Test("EXIFReader and ImageFileInfo read what we wrote; the thumbnail is a 160x120 JPEG")
    func readerRoundTrip() throws {
        let (jpeg, thumbnail) = try Self.jpegWithEXIF()
        let reader = try EXIFReader(data: jpeg)
        #expect(reader.orientation == .right)
        #expect(reader.thumbnailOrientation == .right)
        #expect(reader.pixelSize == Self.size)
        #expect(reader.thumbnailJPEG == thumbnail)
        #expect(reader.entries["Orientation"] == "Right-top")
        #expect(reader.entries["Make"] == "photocap")
        #expect(reader.entries["ExifVersion"] == "Exif Version 2.32")
        let decoded = try JPEGDecoder().decodeRGB(try #require(reader.thumbnailJPEG))
        #expect(decoded.size == Self.thumbnailSize)

        // The same block read as an APP1 payload and as a bare TIFF structure.
        let block = try #require(try JPEGFile.exifBlock(in: jpeg))
        #expect(block.starts(with: Array("II*".utf8) + [0]))
        #expect(try EXIFReader(data: Array("Exif".utf8) + [0, 0] + block).orientation == .right)
        #expect(try EXIFReader(data: block).pixelSize == Self.size)

        let info = try ImageFileInfo(data: jpeg)
        #expect(info.format == .jpeg)
        #expect(info.storedSize == Self.size)
        #expect(info.orientation == .right)
        #expect(info.exifOrientation == .right)
        #expect(info.displayedSize == Self.size.transposed)
        #expect(info.thumbnailSize == Self.thumbnailSize)
        #expect(info.exif["Model"] == "Synthetic Camera")
    }

    @Test("insertingEXIF keeps JFIF first, replaces an old EXIF segment and leaves the image intact")
    func insertionReplaces() throws {
        let main = try JPEGEncoder().encode(try TestImage.planarQuadrants(Self.size), quality: 90)
        let first = try JPEGFile.insertingEXIF(try EXIFBuilder.tiffBlock(for: EXIFMetadata(orientation: .down), thumbnailJPEG: nil), into: main)
        let second = try JPEGFile.insertingEXIF(try EXIFBuilder.tiffBlock(for: EXIFMetadata(orientation: .left), thumbnailJPEG: nil), into: first)
        #expect(second[2...3] == [0xFF, 0xE0], "JFIF APP0 stays right after SOI")
        #expect(second[20...21] == [0xFF, 0xE1], "EXIF APP1 follows the 16-byte JFIF segment")
        #expect(try EXIFReader(data: second).orientation == .left)
        let exifHeaders = zip(second.indices, second.indices.dropFirst(6)).filter { start, _ in
            second[start...].starts(with: Array("Exif".utf8) + [0, 0])
        }
        #expect(exifHeaders.count == 1)
        #expect(try JPEGDecoder().decodeRGB(second).rgb == JPEGDecoder().decodeRGB(main).rgb)
    }

    @Test("insertingEXIF rejects a non-JPEG and a block larger than one APP1 segment")
    func insertionRejects() throws {
        let block = try EXIFBuilder.tiffBlock(for: EXIFMetadata(), thumbnailJPEG: nil)
        #expect(throws: CodecError.self) { try JPEGFile.insertingEXIF(block, into: [0x89, 0x50, 0x4E, 0x47, 0, 0, 0, 0]) }
        let main = try JPEGEncoder().encode(try TestImage.planarQuadrants(PixelSize(width: 16, height: 16)), quality: 50)
        let huge = block + [UInt8](repeating: 0, count: 65_600)
        #expect(throws: CodecError.self) { try JPEGFile.insertingEXIF(huge, into: main) }
        #expect(try JPEGFile.exifBlock(in: main) == nil)
    }

    @Test("endOfImage finds the first FF D9 from the given start, past stuffed and restart 0xFF bytes")
    func endOfImageSkipsOtherFFBytes() throws {
        //                 0     1     2     3     4     5     6     7     8     9    10    11
        let bytes: [UInt8] = [0xFF, 0xD9, 0x12, 0xFF, 0x00, 0xFF, 0xD3, 0xFF, 0xFF, 0xD9, 0x01, 0xFF]
        #expect(JPEGFile.endOfImage(in: bytes, from: 0) == 0)
        #expect(JPEGFile.endOfImage(in: bytes, from: 1) == 8)
        #expect(JPEGFile.endOfImage(in: bytes, from: 9) == nil, "a lone 0xFF as the last byte is no EOI")
        #expect(JPEGFile.endOfImage(in: bytes, from: 12) == nil)
        #expect(JPEGFile.endOfImage(in: [], from: 0) == nil)
        // A real file: EOI is its last two bytes, and bytes appended after it are its trailer.
        let main = try JPEGEncoder().encode(try TestImage.planarQuadrants(PixelSize(width: 64, height: 48)), quality: 90)
        #expect(JPEGFile.endOfImage(in: main, from: 2) == main.count - 2)
        #expect(Array(try JPEGFile.trailer(of: main + [1, 2, 3])) == [1, 2, 3])
    }

    @Test("EXIFReader reads recurser's Landscape_0...8 orientations (0 reads as 1)",
          .needsThirdPartyImages, arguments: 0...8)
    func recurserOrientations(digit: Int) throws {
        let jpeg = try #require(try ThirdPartyImages.bytes("recurser-exif-orientation-examples/Landscape_\(digit).jpg"))
        let reader = try EXIFReader(data: jpeg)
        #expect(reader.orientation == (digit == 0 ? .up : Orientation(rawValue: digit)))
        let info = try ImageFileInfo(data: jpeg)
        #expect(info.storedSize == (digit >= 5 ? PixelSize(width: 1200, height: 1800) : PixelSize(width: 1800, height: 1200)))
        #expect(info.displayedSize == PixelSize(width: 1800, height: 1200))
    }
}

extension ISO8601DateFormatter {
    /// exiftool's composite SubSecDateTimeOriginal for `date` in the local time zone:
    /// "YYYY:MM:DD HH:MM:SS.mmm+HH:MM".
    static func exifStyle(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = .current
        formatter.dateFormat = "yyyy:MM:dd HH:mm:ss.SSSxxx"
        return formatter.string(from: date)
    }
}
