import Foundation
import PhotoCapture
import Testing
import TestSupport

/// `photocap shoot --xmp FILE`: the app's XMP packet in JPEG, HEIC, TIFF and
/// DNG, carried by `develop` and `orient`, its `tiff:Orientation` made to say what the EXIF says;
/// bad packets refused before shooting. exiftool reads every value back and validates each file.
@Suite struct XMPCommandTests {
    /// A packet whose `tiff:Orientation` (3) contradicts every photo below, in element or
    /// attribute spelling, padded with whitespace to `padding` more bytes.
    static func packet(orientationAsAttribute: Bool = false, padding: Int = 0) -> String {
        let orientation = orientationAsAttribute ? " tiff:Orientation=\"3\"" : ""
        let element = orientationAsAttribute ? "" : "\n   <tiff:Orientation>3</tiff:Orientation>"
        return """
        <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
        <x:xmpmeta xmlns:x="adobe:ns:meta/">
         <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
          <rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/"
            xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:tiff="http://ns.adobe.com/tiff/1.0/"\(orientation)>
           <dc:creator><rdf:Seq><rdf:li>Ada Lovelace</rdf:li></rdf:Seq></dc:creator>
           <dc:title><rdf:Alt><rdf:li xml:lang="x-default">Nota G – Bernoulli</rdf:li></rdf:Alt></dc:title>
           <xmp:Rating>4</xmp:Rating>\(element)
          </rdf:Description>
         </rdf:RDF>
        </x:xmpmeta>
        \(String(repeating: " ", count: padding))<?xpacket end="w"?>
        """
    }

    static func write(_ text: String, in folder: TemporaryDirectory, name: String = "app.xmp") throws -> String {
        let path = folder.path(name)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// exiftool's reading (grouped by family 1, numbers as numbers) of the XMP and orientation tags.
    static func tags(_ path: String) throws -> [String: Any] {
        let run = try ExternalTool.run("exiftool", ["-j", "-n", "-G1", "-XMP-dc:Creator", "-XMP-dc:Title", "-XMP-xmp:Rating",
                                                    "-XMP-tiff:Orientation", "-IFD0:Orientation", "-XMP-photocap:all", path]).checked()
        let list = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [[String: Any]])
        return try #require(list.first)
    }

    /// The app's values are in `path`, its XMP orientation is the EXIF one, and the file validates.
    static func expectAppXMP(_ path: String, orientation: Int, _ label: String) throws {
        #expect(try ExternalTool.exiftoolValidationProblems(path) == [], "\(label)")
        let tags = try tags(path)
        #expect(tags["XMP-dc:Creator"] as? String == "Ada Lovelace", "\(label): \(tags)")
        #expect(tags["XMP-dc:Title"] as? String == "Nota G – Bernoulli", "\(label): \(tags)")
        #expect(tags["XMP-xmp:Rating"] as? Int == 4, "\(label): \(tags)")
        #expect(tags["IFD0:Orientation"] as? Int == orientation, "\(label): \(tags)")
        #expect(tags["XMP-tiff:Orientation"] as? Int == orientation, "\(label): \(tags)")
    }

    static func fileName(_ format: String) -> String { "shot.\(PhotoFormat(rawValue: format)!.fileExtension!)" }

    /// Held at 90°: the processed photos are turned by their EXIF (6), the DNG by its tag (6).
    @Test(arguments: ["jpeg", "heic", "tiff", "dng"], [false, true])
    func shootWritesTheAppsXMP(format: String, orientationAsAttribute: Bool) throws {
        let folder = try TemporaryDirectory("xmp-cli")
        let xmp = try Self.write(Self.packet(orientationAsAttribute: orientationAsAttribute), in: folder)
        let path = folder.url.appendingPathComponent(Self.fileName(format)).path
        let run = try ShootCommandTests.photocap(["shoot", "--device", "synthetic", "--format", format, "--size", "320x240",
                                                  "--rotation", "90", "--heic-speed", "ultrafast", "--xmp", xmp, "--output", path])
        #expect(run.status == 0, "\(run.stderr)")
        try Self.expectAppXMP(path, orientation: 6, format)
        // A DNG keeps photocap's own record beside the app's properties.
        #expect((try Self.tags(path)["XMP-photocap:DeviceRotation"] as? Int) == (format == "dng" ? 90 : nil))
    }

    /// develop carries the DNG's XMP without photocap's record; `--xmp` given to develop replaces it.
    @Test func developCarriesTheDNGsXMP() throws {
        let folder = try TemporaryDirectory("xmp-cli")
        let dng = folder.path("shot.dng")
        let shoot = try ShootCommandTests.photocap(["shoot", "--device", "synthetic", "--format", "dng", "--size", "320x240",
                                                    "--rotation", "270", "--xmp", try Self.write(Self.packet(), in: folder), "--output", dng])
        #expect(shoot.status == 0, "\(shoot.stderr)")
        for format in ["jpeg", "heic", "tiff"] {
            let target = folder.path("developed.\(PhotoFormat(rawValue: format)!.fileExtension!)")
            let run = try ShootCommandTests.photocap(["develop", dng, "--format", format, "--heic-speed", "ultrafast", "--output", target])
            #expect(run.status == 0, "\(run.stderr)")
            try Self.expectAppXMP(target, orientation: 8, "develop → \(format)")
            #expect(try Self.tags(target)["XMP-photocap:DeviceRotation"] == nil, "\(format)")
        }
        let other = try Self.write(Self.packet().replacingOccurrences(of: "Ada Lovelace", with: "Charles Babbage"), in: folder, name: "other.xmp")
        let target = folder.path("replaced.jpg")
        let run = try ShootCommandTests.photocap(["develop", dng, "--xmp", other, "--output", target])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try Self.tags(target)["XMP-dc:Creator"] as? String == "Charles Babbage")
    }

    /// orient turns the photo upright and keeps the app's XMP, now saying 1.
    @Test(arguments: ["jpeg", "heic", "tiff"])
    func orientKeepsTheXMPUpright(format: String) throws {
        let folder = try TemporaryDirectory("xmp-cli")
        let path = folder.url.appendingPathComponent(Self.fileName(format)).path
        let shoot = try ShootCommandTests.photocap(["shoot", "--device", "synthetic", "--format", format, "--size", "320x240", "--rotation", "90",
                                                    "--heic-speed", "ultrafast", "--xmp", try Self.write(Self.packet(), in: folder), "--output", path])
        #expect(shoot.status == 0, "\(shoot.stderr)")
        let output = folder.url.appendingPathComponent("upright")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        let target = output.appendingPathComponent(Self.fileName(format)).path
        // A HEIC's pixels are turned only with --pixels (else its irot/imir stay the orientation).
        let run = try ShootCommandTests.photocap(["orient", path, "--output", output.path] + (format == "heic" ? ["--pixels"] : []))
        #expect(run.status == 0, "\(run.stderr)")
        try Self.expectAppXMP(target, orientation: 1, "orient \(format)")
    }

    /// The largest packet one APP1 segment holds is written; one byte more is refused before
    /// the file is read, and so are malformed packets, each with its own message and no photo.
    @Test func packetsAreCheckedBeforeShooting() throws {
        let folder = try TemporaryDirectory("xmp-cli")
        let base = Self.packet().utf8.count
        let largest = try Self.write(Self.packet(padding: 65502 - base), in: folder)
        let path = folder.path("largest.jpg")
        let run = try ShootCommandTests.photocap(["shoot", "--device", "synthetic", "--size", "320x240", "--rotation", "90",
                                                  "--xmp", largest, "--output", path])
        #expect(run.status == 0, "\(run.stderr)")
        try Self.expectAppXMP(path, orientation: 6, "65502 bytes")

        let rdf = "xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\""
        let refused: [(String, String)] = [
            (Self.packet(padding: 65503 - base),
             "--xmp: cannot read FILE: it has 65503 bytes, more than the 65502 accepted"),
            ("<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF \(rdf)><rdf:Description></rdf:RDF></x:xmpmeta>",
             "the XMP packet is not well-formed XML: a closing tag does not match the open element (line 1, column 129)"),
            ("<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF \(rdf)/>",
             "the XMP packet is not well-formed XML: the document ends early or has content after its root element (line 1, column 103)"),
            ("<rdf:RDF \(rdf)/><rdf:RDF \(rdf)/>", "the XMP packet is not well-formed XML: the document ends early or has content after its root element (line 1, column 67)"),
            // Entities are declared in a document type: none is read.
            ("<!DOCTYPE x:xmpmeta [<!ENTITY e \"e\">]><x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF \(rdf)/></x:xmpmeta>",
             "the XMP packet is not well-formed XML: it declares a document type (<!DOCTYPE>), which XMP does not allow (line 1, column 21)"),
            ("<html><body/></html>", "the XMP packet's root element is <html> (namespace none), not x:xmpmeta or rdf:RDF"),
            ("<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><x:other/></x:xmpmeta>", "the XMP packet's x:xmpmeta holds no rdf:RDF"),
        ]
        for (index, (packet, message)) in refused.enumerated() {
            let file = try Self.write(packet, in: folder, name: "bad\(index).xmp")
            let target = folder.path("bad\(index).jpg")
            let run = try ShootCommandTests.photocap(["shoot", "--device", "synthetic", "--size", "320x240", "--xmp", file, "--output", target])
            #expect(run.status == 1)
            #expect(run.stderr == "photocap: error: invalid photo metadata: \(message.replacingOccurrences(of: "FILE", with: file))\n")
            #expect(!FileManager.default.fileExists(atPath: target))
        }
    }
}
