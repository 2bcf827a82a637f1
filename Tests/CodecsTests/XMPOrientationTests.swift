import Codecs
import Imaging
import Testing

/// XMP's tiff:Orientation in both RDF spellings, as Adobe and ExifTool write it, set by the
/// packet's structure with libxml2 (never by its text).
struct XMPOrientationTests {
    /// A whole packet holding `descriptions`, as writers wrap them.
    static func packet(_ descriptions: String) -> String { XMPPacketWrapper.packet(around: descriptions) }

    static let tiff = #"xmlns:tiff="http://ns.adobe.com/tiff/1.0/""#

    /// The values of tiff:Orientation and tiff:Make that libxml2 reads from `packet`.
    static func tiffValues(_ packet: String?) -> [String: String]? {
        packet.flatMap { XMPPacketReader.attributes(["Orientation", "Make"], inNamespace: XMPOrientation.namespace, of: $0) }
    }

    @Test func attributeFormIsSetToOne() throws {
        let packet = Self.packet(#"<rdf:Description rdf:about="" \#(Self.tiff) tiff:Orientation="6" tiff:Make="x"/>"#)
        let upright = try #require(XMPOrientation.upright(packet))
        #expect(Self.tiffValues(upright) == ["Orientation": "1", "Make": "x"], "\(upright)")
        #expect(upright.hasPrefix("<?xpacket begin=") && upright.contains(#"<?xpacket end="w"?>"#), "\(upright)")
        // Another prefix bound to the tiff namespace is the same property.
        let other = Self.packet(#"<rdf:Description rdf:about="" xmlns:t="http://ns.adobe.com/tiff/1.0/" t:Orientation = '8'/>"#)
        #expect(Self.tiffValues(XMPOrientation.upright(other)) == ["Orientation": "1"])
    }

    @Test func elementFormIsSetToOneOnEveryDescription() throws {
        let packet = Self.packet("""
            <rdf:Description rdf:about="" \(Self.tiff)><tiff:Orientation>3</tiff:Orientation></rdf:Description>
            <rdf:Description rdf:about="" \(Self.tiff)><tiff:Orientation>
             7 
            </tiff:Orientation></rdf:Description>
            """)
        let upright = try #require(XMPOrientation.upright(packet))
        #expect(upright.components(separatedBy: "<tiff:Orientation>1</tiff:Orientation>").count == 3, "\(upright)")
    }

    @Test func packetWithoutOrientationIsLeftAlone() {
        let packet = Self.packet(#"<rdf:Description rdf:about="" xmlns:exif="http://ns.adobe.com/exif/1.0/" \#(Self.tiff) exif:PixelXDimension="6" tiff:Make="Orientation"/>"#)
        #expect(XMPOrientation.upright(packet) == nil)
        #expect(XMPOrientation.upright(bytes: Array(packet.utf8)) == nil)
        #expect(XMPOrientation.unreadable(Array(packet.utf8)) == nil)
        // Set for an app's packet: byte for byte the same, nothing added.
        #expect(XMPOrientation.setting(packet, to: .right) == packet)
        // A `tiff:` prefix bound to another namespace is not the property.
        let foreign = Self.packet(#"<rdf:Description rdf:about="" xmlns:tiff="urn:other" tiff:Orientation="6"/>"#)
        #expect(XMPOrientation.upright(foreign) == nil && XMPOrientation.unreadable(Array(foreign.utf8)) == nil)
    }

    @Test func settingChangesOnlyTheOrientation() {
        let packet = Self.packet(#"<rdf:Description rdf:about="" \#(Self.tiff) tiff:Orientation="2" tiff:Make="x"/>"#)
        #expect(Self.tiffValues(XMPOrientation.setting(packet, to: .left)) == ["Orientation": "8", "Make": "x"])
    }

    /// A TIFF tag's packet may end with NUL bytes: they are kept after the edited packet.
    @Test func aTerminatorIsKept() throws {
        let packet = Self.packet(#"<rdf:Description rdf:about="" \#(Self.tiff) tiff:Orientation="6"/>"#)
        let upright = try #require(XMPOrientation.upright(bytes: Array(packet.utf8) + [0, 0]))
        #expect(upright.suffix(2) == [0, 0] && upright.dropLast(2).last != 0)
        #expect(Self.tiffValues(String(decoding: upright.dropLast(2), as: UTF8.self)) == ["Orientation": "1"])
    }

    /// A packet libxml2 cannot read is never edited as text: nil, and ``XMPOrientation/unreadable(_:)``
    /// says why when it names tiff:Orientation (the caller keeps it and warns).
    @Test func aMalformedPacketIsNotEditedButNamed() throws {
        let packet = Self.packet(#"<rdf:Description rdf:about="" \#(Self.tiff) tiff:Orientation="6" tiff:Make="Tom & Jerry"/>"#)
        #expect(XMPOrientation.upright(packet) == nil)
        #expect(XMPOrientation.setting(packet, to: .up) == packet)
        let error = try #require(XMPOrientation.unreadable(Array(packet.utf8)))
        guard case .corruptFile("XMP", let reason) = error else { Issue.record("\(error)"); return }
        #expect(reason.hasPrefix("the XMP packet is not well-formed XML: "), "\(reason)")
        #expect(XMPOrientation.unreadable(Array(packet.utf8.dropLast(30)) + [0xFF]) != nil, "not UTF-8")
        let silent = Self.packet(#"<rdf:Description rdf:about="" tiff:Make="Tom & Jerry"/>"#)
        #expect(XMPOrientation.unreadable(Array(silent.utf8)) == nil)
    }
}
