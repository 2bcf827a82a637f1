import Imaging

/// The `tiff:Orientation` property of an XMP packet, which viewers such as Lightroom and
/// ExifTool-based tools read next to the EXIF tag. A file turned upright must say 1 in both, and
/// an app's packet written into a photo says the photo's written orientation.
package enum XMPOrientation {
    /// The namespace header of a standard XMP APP1 segment.
    static let app1Header = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0]

    // Both RDF spellings: an attribute (tiff:Orientation="6") and an element (<tiff:Orientation>6<...>).
    nonisolated(unsafe) private static let attribute = /tiff:Orientation\s*=\s*(["'])\s*\d+\s*\1/
    nonisolated(unsafe) private static let element = /<tiff:Orientation>\s*\d+\s*<\/tiff:Orientation>/

    /// `packet` with every `tiff:Orientation` value set to 1; nil when it has none.
    package static func upright(_ packet: String) -> String? {
        guard packet.contains(attribute) || packet.contains(element) else { return nil }
        return setting(packet, to: .up)
    }

    /// The UTF-8 `bytes` of a packet as ``upright(_:)`` gives it; nil when they are not UTF-8
    /// or the packet says no orientation.
    package static func upright(bytes: some Collection<UInt8>) -> [UInt8]? {
        guard let packet = String(validating: bytes, as: UTF8.self), let upright = upright(packet) else { return nil }
        return Array(upright.utf8)
    }

    /// `packet` with every `tiff:Orientation` value set to `orientation`'s EXIF value; the same
    /// packet when it has none.
    package static func setting(_ packet: String, to orientation: Orientation) -> String {
        let value = orientation.exifValue
        return packet
            .replacing(attribute) { match in "tiff:Orientation=\(match.1)\(value)\(match.1)" }
            .replacing(element, with: "<tiff:Orientation>\(value)</tiff:Orientation>")
    }
}
