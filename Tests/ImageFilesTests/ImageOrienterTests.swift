import Foundation
import Codecs
import ImageFiles
import Imaging
import Testing
import TestSupport

/// ``ImageOrienter`` as a library user calls it, judged by djpeg against Pillow's upright
/// reference (the CLI's own suite covers the other sets and formats through `photocap orient`).
@Suite struct ImageOrienterTests {
    static let hopper = TestPaths.testImages.appendingPathComponent("third-party/pillow-hopper-orientation")
    /// Our q92 re-encode against the reference measures ≤ 5; any wrong turn ≥ 24 (shared README).
    static let tolerance = 8.0

    @Test(arguments: 2...8) func everyOrientationComesOutUpright(_ orientation: Int) throws {
        let path = Self.hopper.appendingPathComponent("hopper_orientation_\(orientation).jpg").path
        let result = try ImageOrienter().upright(fileAt: path)
        #expect(result.format == .jpeg && result.originalOrientation.exifValue == orientation)
        let data = try #require(result.data)
        #expect(try ImageFileInfo(data: [UInt8](data)).orientation == .up)
        let folder = try TemporaryDirectory("orienter")
        let written = try folder.write([UInt8](data), named: "upright.jpg")
        let decoded = try ReferenceDecoder.djpeg(written)
        let reference = try ReferenceDecoder.djpeg(Self.hopper.appendingPathComponent("hopper.jpg").path)
        #expect(decoded.size == reference.size && result.size == reference.size)
        let difference = decoded.meanAbsoluteDifference(to: reference)
        #expect(difference <= Self.tolerance, "orientation \(orientation): differs by \(difference)")
    }

    @Test func anUprightFileIsLeftAsItIs() throws {
        let result = try ImageOrienter().upright(fileAt: Self.hopper.appendingPathComponent("hopper.jpg").path)
        #expect(result.data == nil && result.originalOrientation == .up)
    }

    @Test func refusalsComeBeforeAnyPixelWork() throws {
        let folder = try TemporaryDirectory("orienter-refusals")
        let heic = TestPaths.testImages.appendingPathComponent("third-party/pillow-heif/pillow_heif_arrow.heic").path
        #expect(throws: ImageFileError(.losslessRequiresJPEG(.heic))) {
            try ImageOrienter(lossless: true).upright(fileAt: heic)
        }
        // The library names no CLI option; `photocap orient` says --lossless itself.
        #expect(ImageFileError(.losslessRequiresJPEG(.heic)).description == "a lossless turn applies to JPEG files only; this is HEIC")
        let dng = try folder.write([0, 1, 2], named: "shot.dng")
        #expect(throws: ImageFileError(.rawNotReoriented)) { try ImageOrienter().upright(fileAt: dng) }
        #expect(throws: ImageFileError(.unreadable(.noSuchFile(path: folder.path("missing.jpg"))))) {
            try ImageOrienter().upright(fileAt: folder.path("missing.jpg"))
        }
        // An existing result is refused without overwrite, and left untouched.
        let target = try folder.write(Array("mine".utf8), named: "taken.jpg")
        let source = Self.hopper.appendingPathComponent("hopper_orientation_6.jpg").path
        #expect(throws: ImageFileError(.fileExists(path: target))) {
            try ImageOrienter().orientFile(at: source, writingTo: target, overwrite: false)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == Data("mine".utf8))
        #expect(try ImageOrienter().orientFile(at: source, writingTo: target, overwrite: true)
                == .turned(from: Orientation(exifValue: 6), size: PixelSize(width: 128, height: 128)))
    }

    /// recurser's Landscape_6 is stored 1200x1800 4:2:0: orientation 6 needs the height
    /// aligned to 16. The refusal comes typed, as the codec layer made it, and prints as before.
    @Test func anInexactLosslessTurnIsRefusedWithTheTypedRefusal() throws {
        let path = TestPaths.testImages.appendingPathComponent("third-party/recurser-exif-orientation-examples/Landscape_6.jpg").path
        let refusal = LosslessTurnRefusal(orientation: Orientation(exifValue: 6), size: PixelSize(width: 1200, height: 1800),
                                          mcu: PixelSize(width: 16, height: 16))
        let error = #expect(throws: ImageFileError.self) { try ImageOrienter(lossless: true).upright(fileAt: path) }
        #expect(error?.code == .losslessNotExact(refusal))
        #expect(error?.underlyingError as? LosslessTurnRefusal == refusal)
        #expect(error?.description == "lossless orientation 6 is not exact for 1200x1800 with a 16x16 MCU (it needs the height 1800 a multiple of 16)")
    }

    @Test func warningsNameWhatWasDroppedAndWhy() throws {
        // A cut JPEG, accepted: the warning is typed, its byte the cut.
        let folder = try TemporaryDirectory("orienter-warnings")
        let whole = [UInt8](try Data(contentsOf: Self.hopper.appendingPathComponent("hopper_orientation_6.jpg")))
        let cut = try folder.write(Array(whole.prefix(whole.count * 6 / 10)), named: "cut.jpg")
        var orienter = ImageOrienter()
        orienter.acceptsTruncatedJPEG = true
        let result = try orienter.upright(fileAt: cut)
        #expect(result.outcome == .turned(from: Orientation(exifValue: 6), size: PixelSize(width: 128, height: 128),
                                          warnings: [.truncated(atByte: whole.count * 6 / 10)]))
        // What was dropped and why stay values a caller can match; the sentence is the CLI's.
        let alpha = ImageOrienter.Warning.dropped(.auxiliaryImage(kind: "alpha"), because: .samplesDeeperThan(bits: 16))
        guard case .dropped(.auxiliaryImage("alpha"), .samplesDeeperThan(16)) = alpha else { Issue.record("\(alpha)"); return }
        #expect(alpha.description == "its alpha image was dropped: its samples are deeper than 16 bits")
        let companion = ImageOrienter.Warning.dropped(.multiPictureImage(number: 2, bytes: 900),
                                                      because: .notTurnable(ImageFileError(.rawNotReoriented)))
        #expect(companion.description == "image 2 of the Multi-Picture index (900 bytes after the picture) cannot be turned "
                + "(RAW files are never re-oriented: their Orientation tag is the correction): it is dropped, with the index and its other images")
        #expect(ImageOrienter.Warning.dropped(.xmpPicture(.depthMap), because: .notTurnable(ImageFileError(.qualityOutOfRange(0)))).description
                == "its depth map (GDepth:Data) cannot be turned (quality 0 is out of range (1...100)): it is dropped, with the rest of its description")
    }

    /// A JPEG whose XMP packet names tiff:Orientation but is not well-formed XML (an unescaped
    /// `&`): never edited as text; kept byte for byte, and a typed warning says its orientation
    /// may still be the old one, on both JPEG routes.
    @Test(arguments: [false, true]) func aMalformedXMPPacketIsKeptWithAWarning(lossless: Bool) throws {
        let folder = try TemporaryDirectory("orienter-malformed-xmp")
        let packet = """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description rdf:about="" xmlns:tiff="http://ns.adobe.com/tiff/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/"
             tiff:Orientation="6" dc:source="Tom & Jerry"/></rdf:RDF></x:xmpmeta>
            """
        let jpeg = [UInt8](try Data(contentsOf: Self.hopper.appendingPathComponent("hopper_orientation_6.jpg")))
        let tagged = Array(jpeg.prefix(2)) + (try JPEGFile.xmpSegment(packet)) + Array(jpeg.dropFirst(2))
        let path = try folder.write(tagged, named: "malformed.jpg")
        let result = try ImageOrienter(lossless: lossless).upright(fileAt: path)
        let error = try #require(XMPOrientation.unreadable(Array(packet.utf8)))
        #expect(result.outcome == .turned(from: Orientation(exifValue: 6), size: PixelSize(width: 128, height: 128),
                                          warnings: [.xmpOrientationKept(because: error)]))
        let data = [UInt8](try #require(result.data))
        #expect(try JPEGFile.xmpPacket(in: data).map(Array.init) == Array(packet.utf8))
        #expect(try ImageFileInfo(data: data).orientation == .up)
        #expect(ImageOrienter.Warning.xmpOrientationKept(because: error).description
                == "its XMP packet names tiff:Orientation but cannot be read (\(error)): it is kept as it was and may still give the old orientation")
    }
}

/// A TIFF is turned two ways: from its bytes in memory (``ImageOrienter/upright(_:)``) and from
/// its file, read but for its strips, written piece by piece
/// (``ImageOrienter/orientFile(at:writingTo:overwrite:)-(String,String,_)``). Both must write
/// the same bytes, whether the turned strips go where the old ones were or after the file's end.
@Suite struct TIFFOrientRoutesTests {
    @Test(arguments: [
        // Uncompressed strips of even length: the turned ones fit where the old ones were.
        ("100x66", ["-depth", "8", "-compress", "none", "-define", "tiff:rows-per-strip=1000"]),
        ("100x66", ["-depth", "16", "-compress", "none", "-define", "tiff:rows-per-strip=5"]),
        // Odd lengths and coded strips that grow with the turn: appended after the file's end.
        ("101x67", ["-depth", "8", "-compress", "none", "-define", "tiff:rows-per-strip=1000"]),
        ("101x67", ["+noise", "Random", "-depth", "8", "-compress", "RLE", "-define", "tiff:rows-per-strip=7"]),
        ("101x67", ["-depth", "16", "-compress", "lzw", "-define", "tiff:predictor=2"]),
        ("101x67", ["-colorspace", "Gray", "-depth", "8", "-compress", "zip", "-define", "tiff:rows-per-strip=1"]),
    ])
    func theFileRouteWritesWhatTheMemoryRouteMakes(_ size: String, _ options: [String]) throws {
        let folder = try TemporaryDirectory("tiff-routes")
        let path = folder.path("in.tif")
        try ExternalTool.run("convert", ["-size", size, "gradient:red-blue"] + options + [path]).checked()
        try ExternalTool.run("exiftool", ["-q", "-overwrite_original", "-n", "-Orientation=6", "-XMP-dc:Creator=Ada", path]).checked()
        let memory = try #require(try ImageOrienter().upright(Data(contentsOf: URL(fileURLWithPath: path))).data)
        let target = folder.path("out.tif")
        let outcome = try ImageOrienter().orientFile(at: path, writingTo: target, overwrite: false)
        let (width, height) = size == "100x66" ? (66, 100) : (67, 101)
        #expect(outcome == .turned(from: Orientation(exifValue: 6), size: PixelSize(width: width, height: height), warnings: []))
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == memory)
        // Nothing else in the folder: the scratch file had no name.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted() == ["in.tif", "out.tif"])
    }
}
