import Foundation
import PhotoCapture
import Testing
import TestSupport

/// ``PhotoMetadata/xmp`` through the library: the camera's own JPEG gets the
/// packet too, a bare `rdf:RDF` packet shares a DNG with photocap's record, developing takes
/// the record out again, and bad packets are refused before capture with specific messages.
@Suite struct PhotoXMPTests {
    let folder: TemporaryDirectory

    init() throws { folder = try TemporaryDirectory("xmp") }

    /// A packet without x:xmpmeta, its orientation an attribute that contradicts the photo's.
    static let bareRDF = """
        <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
         <rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/"
           xmlns:tiff="http://ns.adobe.com/tiff/1.0/" tiff:Orientation="2">
          <dc:rights><rdf:Alt><rdf:li xml:lang="x-default">CC BY 4.0</rdf:li></rdf:Alt></dc:rights>
         </rdf:Description>
        </rdf:RDF>
        """

    /// One photo from a 320x240 synthetic camera (as ``PhotoMetadataTests`` takes them).
    func capture(_ adjust: (inout PhotoSettings) -> Void) async throws -> CapturePhoto {
        try await PhotoMetadataTests().photo(format: .jpeg, adjust)
    }

    /// exiftool's reading of `bytes` (grouped by family 1, numbers as numbers).
    func tags(_ bytes: Data, _ name: String) throws -> [String: Any] {
        let file = try folder.write([UInt8](bytes), named: name)
        #expect(try ExternalTool.exiftoolValidationProblems(file) == [], "\(name)")
        let run = try ExternalTool.run("exiftool", ["-j", "-n", "-G1", "-XMP:all", "-IFD0:Orientation", file]).checked()
        return try #require((try JSONSerialization.jsonObject(with: run.stdout) as? [[String: Any]])?.first)
    }

    /// An MJPEG frame kept as the camera sent it still gets the packet (and its EXIF).
    @Test func theCamerasOwnJPEGGetsThePacket() async throws {
        let photo = try await capture { settings in
            settings.framePixelFormat = .mjpeg
            settings.metadata.xmp = Self.bareRDF
        }
        #expect(photo.encodingRoute == .cameraJPEG)
        let tags = try tags(try #require(photo.fileDataRepresentation()), "camera.jpg")
        #expect(tags["XMP-dc:Rights"] as? String == "CC BY 4.0", "\(tags)")
        #expect(tags["XMP-tiff:Orientation"] as? Int == 1, "\(tags)")
        #expect(tags["IFD0:Orientation"] as? Int == 1, "\(tags)")
    }

    /// A DNG held at 180°: the app's description and photocap's side by side; developed, the photo has the app's XMP only. A DNG with no app packet develops to a
    /// photo without XMP.
    @Test func aDNGSharesItsPacketWithPhotocapsRecord() async throws {
        let withXMP = try await capture { settings in
            settings.format = .dng
            settings.rotationAngle = 180
            settings.metadata.xmp = Self.bareRDF
        }
        let dng = try #require(withXMP.fileDataRepresentation())
        let raw = try tags(dng, "photo.dng")
        #expect(raw["XMP-dc:Rights"] as? String == "CC BY 4.0", "\(raw)")
        #expect(raw["XMP-photocap:DeviceRotation"] as? Int == 180, "\(raw)")
        #expect(raw["XMP-photocap:SensorRotation"] as? Int == 0, "\(raw)")
        #expect(raw["XMP-tiff:Orientation"] as? Int == raw["IFD0:Orientation"] as? Int, "\(raw)")

        let developed = try RawDevelopment.developPhoto(fromDNG: dng, settings: PhotoSettings(format: .jpeg))
        let photo = try tags(try #require(developed.fileDataRepresentation()), "developed.jpg")
        #expect(photo["XMP-dc:Rights"] as? String == "CC BY 4.0", "\(photo)")
        #expect(photo["XMP-photocap:DeviceRotation"] == nil, "\(photo)")
        #expect(photo["XMP-tiff:Orientation"] as? Int == photo["IFD0:Orientation"] as? Int, "\(photo)")

        let plain = try await capture { $0.format = .dng }
        let bare = try RawDevelopment.developPhoto(fromDNG: try #require(plain.fileDataRepresentation()), settings: PhotoSettings(format: .jpeg))
        let untagged = try tags(try #require(bare.fileDataRepresentation()), "untagged.jpg")
        #expect(!untagged.keys.contains { $0.hasPrefix("XMP") }, "\(untagged)")
    }

    /// A DNG whose packet ExifTool re-serialised (on any edit: its own layout, photocap's
    /// properties as elements in a description of their own): developed, the photo still gets
    /// none of photocap's record, found by its namespace, not its text, and keeps the app's
    /// properties and the tool's.
    @Test func aDNGRewrittenByExifToolDevelopsWithoutTheRecord() async throws {
        let shot = try await capture { settings in
            settings.format = .dng
            settings.rotationAngle = 90
            settings.metadata.xmp = Self.bareRDF
        }
        let file = try folder.write([UInt8](try #require(shot.fileDataRepresentation())), named: "rewritten.dng")
        try ExternalTool.run("exiftool", ["-overwrite_original", "-XMP-dc:Title=x", file]).checked()
        let packet = try ExternalTool.run("exiftool", ["-b", "-XMP", file]).checked().text
        #expect(packet.contains("<photocap:DeviceRotation>90</photocap:DeviceRotation>"), "\(packet)")
        let developed = try RawDevelopment.developPhoto(fromDNG: try Data(contentsOf: URL(fileURLWithPath: file)),
                                                        settings: PhotoSettings(format: .jpeg))
        let photo = try tags(try #require(developed.fileDataRepresentation()), "from-rewritten.jpg")
        #expect(!photo.keys.contains { $0.hasPrefix("XMP-photocap") }, "\(photo)")
        #expect(photo["XMP-dc:Rights"] as? String == "CC BY 4.0", "\(photo)")
        #expect(photo["XMP-dc:Title"] as? String == "x", "\(photo)")
        #expect(photo["XMP-tiff:Orientation"] as? Int == photo["IFD0:Orientation"] as? Int, "\(photo)")
    }

    /// A DNG whose XMP another tool made larger than photocap writes still develops, without
    /// the packet (exiftool writes the large description).
    @Test func aDNGWithAnOversizedPacketDevelopsWithoutIt() async throws {
        let shot = try await capture { settings in
            settings.format = .dng
            settings.metadata.xmp = Self.bareRDF
        }
        let file = try folder.write([UInt8](try #require(shot.fileDataRepresentation())), named: "large.dng")
        try ExternalTool.run("exiftool", ["-overwrite_original", "-XMP-dc:Description=" + String(repeating: "x", count: 70_000), file]).checked()
        let developed = try RawDevelopment.developPhoto(fromDNG: try Data(contentsOf: URL(fileURLWithPath: file)),
                                                        settings: PhotoSettings(format: .jpeg))
        let tags = try tags(try #require(developed.fileDataRepresentation()), "from-large.jpg")
        #expect(!tags.keys.contains { $0.hasPrefix("XMP") }, "\(tags.keys)")
    }

    /// Refused before any frame, attributed to the request; the message (without the request's
    /// uniqueID) says what is wrong.
    @Test func badPacketsAreRefusedBeforeCapture() async throws {
        let refused: [(String, String)] = [
            ("<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\"><rdf:Description></rdf:RDF></x:xmpmeta>",
             "the XMP packet is not well-formed XML: a closing tag does not match the open element (line 1, column 129)"),
            ("<a>&nbsp;</a>", "the XMP packet is not well-formed XML: an undeclared entity (line 1, column 10)"),
            ("<a", "the XMP packet is not well-formed XML: it has no complete root element"),
            ("<a></a>  <", "the XMP packet is not well-formed XML: the document ends early or has content after its root element (line 1, column 10)"),
            ("<x:xmpmeta xmlns:x=\"urn:other\"/>", "the XMP packet's root element is <x:xmpmeta> (namespace urn:other), not x:xmpmeta or rdf:RDF"),
            (Self.bareRDF + String(repeating: " ", count: 65503 - Self.bareRDF.utf8.count),
             "the XMP packet is 65503 bytes; at most 65502 fit (one JPEG APP1 segment)"),
        ]
        for (packet, message) in refused {
            var settings = PhotoSettings(format: .heic)
            settings.metadata.xmp = packet
            do {
                _ = try await capture { $0 = settings }
                Issue.record("accepted: \(packet.prefix(60))")
            } catch let error as PhotoCaptureError {
                #expect(error.uniqueID == settings.uniqueID)
                #expect(PhotoCaptureError(error.code).description == "invalid photo metadata: \(message)")
            }
            #expect(throws: PhotoCaptureError(.invalidMetadata(message))) { try PhotoMetadata.validateXMP(packet) }
        }
        #expect(PhotoMetadata.maximumXMPSize == 65502)
    }
}
