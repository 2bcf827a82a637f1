import Codecs
import Foundation
import Imaging
import Testing
import TestSupport

/// DNG files as LibRaw, dcraw and exiftool read them.
@Suite("DNG writing, LibRaw reading")
struct DNGTests {
    /// Not a multiple of 16 or of 256 (strips), so row and strip arithmetic is exercised.
    static let size = PixelSize(width: 130, height: 98)
    /// Formats whose frames are one sample per byte or word; CSI-2 packed frames are unpacked
    /// before they reach the writer (PackedBayerCaptureTests checks them through dcraw).
    static let bayerFormats = FramePixelFormat.allCases.filter { $0.isBayer && !$0.isCSI2Packed }

    /// A frame of `format` whose samples are pseudo-random over the whole bit depth, in V4L2's
    /// layout (10/12 bits in the low bits of little-endian 16-bit words).
    static func randomFrame(_ format: FramePixelFormat, size: PixelSize = size, seed: UInt64 = 1) throws -> (Frame, [UInt16]) {
        var state = seed &* 0x9E37_79B9_7F4A_7C15
        let limit = UInt64(1) << format.bitsPerSample
        let samples = (0..<size.area).map { _ -> UInt16 in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt16((state >> 33) % limit)
        }
        let bytes: [UInt8] = format.bitsPerSample == 8
            ? samples.map { UInt8($0) }
            : samples.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        return (try Frame(format: format, size: size, storage: FrameStorage(copying: bytes)), samples)
    }

    static func metadata(orientation: Orientation = .right, blackLevel: Int = 0, thumbnail: Bool) -> DNGMetadata {
        var metadata = DNGMetadata(exif: JPEGTests.fullMetadata(orientation: orientation, pixelSize: size),
                                   uniqueCameraModel: "photocap test sensor")
        metadata.exif.pixelSize = nil
        metadata.blackLevel = blackLevel
        metadata.asShotNeutral = [0.5, 1, 0.75]
        if thumbnail { metadata.thumbnail = TestImage.quadrants(PixelSize(width: 64, height: 48)) }
        return metadata
    }

    static func frameBytes(_ frame: Frame) -> [UInt8] { frame.storage.withUnsafeBytes { [UInt8]($0) } }

    /// Acceptance 1: LibRaw reports the size, CFA pattern and depth, and its unprocessed values
    /// are the frame's samples, exactly; the stored strip is the frame's bytes. Both layouts:
    /// preview in IFD0 with the CFA image in a SubIFD, and the CFA image as IFD0.
    @Test("LibRaw reads back every CFA order and depth exactly", arguments: bayerFormats, [true, false])
    func libRawReadsTheSamplesExactly(format: FramePixelFormat, withThumbnail: Bool) throws {
        let (frame, samples) = try Self.randomFrame(format)
        let black = 1 << (format.bitsPerSample - 4)
        let dng = try DNGFile.encode(frame, metadata: Self.metadata(blackLevel: black, thumbnail: withThumbnail))
        // The CFA strip is the frame's bytes, unchanged (one strip at this size).
        #expect(dng.firstRange(of: Self.frameBytes(frame)) != nil, "\(format): frame bytes not stored verbatim")

        let libRaw = try RAWDeveloper(data: dng)
        #expect(libRaw.isDNG)
        #expect(libRaw.rawSize == Self.size)
        #expect(libRaw.imageSize == Self.size)
        #expect(libRaw.cfaColorIndices == format.bayerPattern!.colorIndices, "\(format)")
        #expect(libRaw.whiteLevel == (1 << format.bitsPerSample) - 1, "\(format)")
        #expect(libRaw.blackLevel == black, "\(format)")
        #expect(libRaw.orientation == .right)
        #expect(libRaw.cameraMultipliers.prefix(3).map { ($0 * 100).rounded() / 100 } == [2, 1, 1.33], "\(format): 1 / AsShotNeutral")
        let values = libRaw.rawValues()
        #expect(values == samples, "\(format): \(zip(values, samples).filter { $0 != $1 }.count) values differ")

        let info = try DNGFileInfo(data: dng)
        #expect(info.version == DNGFile.version)
        #expect(info.cfaSize == Self.size)
        #expect(info.bitsPerSample == (format.bitsPerSample == 8 ? 8 : 16))
        #expect(info.cfaPattern == format.bayerPattern!.colorIndices)
        #expect(info.whiteLevel == (1 << format.bitsPerSample) - 1)
        #expect(info.blackLevel == Double(black))
        #expect(info.orientation == .right)
        #expect(info.previewSize == (withThumbnail ? PixelSize(width: 64, height: 48) : nil))
        #expect(info.uniqueCameraModel == "photocap test sensor")
    }

    /// dcraw's wording of each CFA tile.
    static let dcrawPattern: [FramePixelFormat.BayerPattern: String] = [.rggb: "RG/GB", .grbg: "GR/BG", .gbrg: "GB/RG", .bggr: "BG/GR"]

    /// Acceptance 2: exiftool -validate -warning says nothing but OK, and dcraw -i -v identifies
    /// the file with the right size, pattern and DNG version.
    @Test("exiftool validates and dcraw identifies every DNG", arguments: [true, false])
    func thirdPartyReadersAcceptTheFiles(withThumbnail: Bool) throws {
        let folder = try TemporaryDirectory("dng-tests")
        for format in Self.bayerFormats {
            let (frame, _) = try Self.randomFrame(format)
            var metadata = Self.metadata(orientation: .leftMirrored, blackLevel: 3, thumbnail: withThumbnail)
            metadata.xmp = "<?xpacket begin=\"\u{FEFF}\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?><x:xmpmeta xmlns:x=\"adobe:ns:meta/\"/><?xpacket end=\"w\"?>"
            let path = try folder.write(try DNGFile.encode(frame, metadata: metadata), named: "\(format.rawValue).dng")
            #expect(try ExternalTool.exiftoolValidationProblems(path) == [], "\(format)")
            let identified = try ExternalTool.run("dcraw", ["-i", "-v", path]).checked().text
            #expect(identified.contains("DNG Version: 1.4.0.0"), "\(format): \(identified)")
            #expect(identified.contains("Full size:    130 x 98"), "\(format): \(identified)")
            #expect(identified.contains("Filter pattern: \(Self.dcrawPattern[format.bayerPattern!]!)"), "\(format): \(identified)")
            #expect(identified.contains("Camera: photocap Synthetic Camera"), "\(format): \(identified)")
            let tags = try ExternalTool.run("exiftool", ["-n", "-s3", "-Orientation", "-WhiteLevel", "-BitsPerSample",
                                                         "-CFAPattern2", path]).text.split(separator: "\n")
            let stored = format.bitsPerSample == 8 ? "8" : "16"
            // exiftool reports the full-resolution image's BitsPerSample, not the preview's.
            #expect(tags == ["5", "\((1 << format.bitsPerSample) - 1)", Substring(stored),
                             Substring(format.bayerPattern!.colorIndices.map(String.init).joined(separator: " "))], "\(format)")
        }
    }

    /// Rows padded by the driver (bytesPerRow > width × sample size) are stored without the padding.
    @Test func paddedRowsAreStoredWithoutPadding() throws {
        let (packed, samples) = try Self.randomFrame(.sgbrg10)
        let rowBytes = Self.size.width * 2, stride = rowBytes + 24
        let bytes = Self.frameBytes(packed)
        var padded = [UInt8](repeating: 0xEE, count: stride * Self.size.height)
        for row in 0..<Self.size.height {
            padded.replaceSubrange(row * stride..<(row * stride + rowBytes), with: bytes[row * rowBytes..<((row + 1) * rowBytes)])
        }
        let frame = try Frame(format: .sgbrg10, size: Self.size, bytesPerRow: stride, storage: FrameStorage(copying: padded))
        let dng = try DNGFile.encode(frame, metadata: Self.metadata(thumbnail: true))
        #expect(try RAWDeveloper(data: dng).rawValues() == samples)
    }

    /// Acceptance 5 (codec side): a file that is not a DNG, or is cut short, is refused with a
    /// specific error by the reader and by LibRaw.
    @Test func damagedAndForeignFilesAreRefused() throws {
        let (frame, _) = try Self.randomFrame(.srggb12, size: PixelSize(width: 640, height: 480))
        let dng = try DNGFile.encode(frame, metadata: Self.metadata(thumbnail: true))
        for length in [0, 7, 200, dng.count / 2, dng.count - 1] {
            let cut = Array(dng.prefix(length))
            #expect(throws: CodecError.self, "cut to \(length)") { try DNGFileInfo(data: cut) }
        }
        #expect(throws: CodecError.self) { try RAWDeveloper(data: Array(dng.prefix(100))) }
        let tiff = try TIFFFile.encode(rgb: TestImage.quadrants(Self.size).pixels, size: Self.size,
                                       metadata: EXIFMetadata(orientation: .up))
        let notDNG = #expect(throws: CodecError.self) { try DNGFileInfo(data: tiff) }
        #expect("\(notDNG!)".contains("without DNGVersion"))
        let jpeg = try JPEGEncoder().encode(TestImage.planarQuadrants(Self.size), quality: 80)
        let noTIFF = #expect(throws: CodecError.self) { try DNGFileInfo(data: jpeg) }
        #expect("\(noTIFF!)".contains("not a DNG"))
        #expect(throws: CodecError.self) { try RAWDeveloper(data: jpeg) }
    }

    @Test func invalidMetadataIsRefused() throws {
        let (frame, _) = try Self.randomFrame(.srggb8)
        var metadata = Self.metadata(thumbnail: false)
        metadata.asShotNeutral = [0, 1, 1]
        #expect(throws: CodecError.self) { try DNGFile.encode(frame, metadata: metadata) }
        metadata = Self.metadata(thumbnail: false)
        metadata.colorMatrix = [1, 2]
        #expect(throws: CodecError.self) { try DNGFile.encode(frame, metadata: metadata) }
        metadata = Self.metadata(blackLevel: 255, thumbnail: false)
        #expect(throws: CodecError.self) { try DNGFile.encode(frame, metadata: metadata) }
        let rgb = try FrameBuilder.frame(from: TestImage.quadrants(Self.size), format: .rgb24)
        #expect(throws: CodecError.self) { try DNGFile.encode(rgb, metadata: Self.metadata(thumbnail: false)) }
    }
}
