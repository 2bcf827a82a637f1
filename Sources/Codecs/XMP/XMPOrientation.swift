import Imaging

/// The `tiff:Orientation` property of an XMP packet, which viewers such as Lightroom and
/// ExifTool-based tools read next to the EXIF tag. A file turned upright must say 1 in both, and
/// an app's packet written into a photo says the photo's written orientation. Set with libxml2
/// (``XMPPropertyEditor``), by the document's structure: attributes and elements, on every
/// description.
package enum XMPOrientation {
    /// The namespace of the `tiff:` properties.
    package static let namespace = "http://ns.adobe.com/tiff/1.0/"
    /// The property's name in ``namespace``.
    private static let name = "Orientation"

    /// `packet` with every `tiff:Orientation` value set to 1, serialised again by libxml2; nil
    /// when it has none or cannot be read (``unreadable(_:)`` tells which), so that a packet
    /// without one stays byte for byte as it was.
    package static func upright(_ packet: String) -> String? {
        upright(bytes: packet.utf8).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The bytes of a packet as ``upright(_:)`` gives it; NUL bytes that end it (a TIFF tag's
    /// terminator) are kept after the edited packet.
    package static func upright(bytes: some Collection<UInt8>) -> [UInt8]? {
        let (packet, terminator) = splitTerminator(bytes)
        return XMPPropertyEditor.editing(packet, inNamespace: namespace, setting: [(name, "1")]).map { $0 + terminator }
    }

    /// `packet` with every `tiff:Orientation` value set to `orientation`'s EXIF value; the same
    /// packet when it has none: an app's packet is written as the app gave it, its orientation
    /// only made to agree with the photo's, never added.
    package static func setting(_ packet: String, to orientation: Orientation) -> String {
        XMPPropertyEditor.editing(Array(packet.utf8), inNamespace: namespace, setting: [(name, String(orientation.exifValue))])
            .map { String(decoding: $0, as: UTF8.self) } ?? packet
    }

    /// Why the `tiff:Orientation` of a packet cannot be set: its text names the property but
    /// libxml2 cannot read it (not UTF-8, not well-formed, libxml2 not loadable). Such a packet
    /// is left as it is — it may hold much else — and the caller says so rather than leaving
    /// its old orientation unmentioned. nil when the packet can be read or names no orientation.
    package static func unreadable(_ bytes: some Collection<UInt8>) -> CodecError? {
        let packet = splitTerminator(bytes).packet
        guard packet.firstRange(of: Array("tiff:\(name)".utf8)) != nil else { return nil }
        guard let text = String(validating: packet, as: UTF8.self) else {
            return .corruptFile(format: "XMP", reason: "the packet names tiff:Orientation but is not UTF-8")
        }
        return XMPPacketValidator.wellFormednessProblem(with: text).map { .corruptFile(format: "XMP", reason: $0) }
    }

    /// The packet without the NUL bytes that end it, and those bytes.
    private static func splitTerminator(_ bytes: some Collection<UInt8>) -> (packet: [UInt8], terminator: [UInt8]) {
        let all = Array(bytes)
        let end = (all.lastIndex { $0 != 0 } ?? -1) + 1
        return (Array(all[..<end]), Array(all[end...]))
    }
}
