import Codecs
import FoundationEssentials
import Imaging

/// The pictures of the scene an Android portrait JPEG carries in its XMP, base64 in a
/// property: its depth map (`GDepth:Data`) with its confidence map (`GDepth:Confidence`), and
/// the unblurred original (`GImage:Data`) — in the extended XMP (``JPEGExtendedXMP``) when they
/// are large, their MIME types in the standard packet. They are aligned with the main picture,
/// so they turn with it: decoded, turned the same way, coded again as they were (PNG sample for
/// sample, JPEG losslessly where exact) and written back, the extended packet under its new
/// GUID. One that cannot be turned is dropped with a warning naming it, never kept misaligned.
enum XMPCompanionPictures {
    /// One kind of picture in the XMP.
    struct Kind {
        /// The namespace of its properties.
        let namespace: String
        /// The property holding the picture, and the one giving its MIME type.
        let data: String
        let mime: String
        /// How a warning names it.
        let picture: ImageOrienter.Warning.XMPPicture
        /// How an error names it.
        let name: String
        /// Dropped, it takes its namespace's other properties with it (they describe it).
        let ownsNamespace: Bool
    }

    static let depthNamespace = "http://ns.google.com/photos/1.0/depthmap/"
    static let imageNamespace = "http://ns.google.com/photos/1.0/image/"
    static let noteNamespace = "http://ns.adobe.com/xmp/note/"

    /// The confidence map goes before the depth map: a depth map dropped removes it too.
    static let kinds = [
        Kind(namespace: depthNamespace, data: "Confidence", mime: "ConfidenceMime", picture: .depthConfidenceMap,
             name: "its depth confidence map (GDepth:Confidence)", ownsNamespace: false),
        Kind(namespace: depthNamespace, data: "Data", mime: "Mime", picture: .depthMap, name: "its depth map (GDepth:Data)", ownsNamespace: true),
        Kind(namespace: imageNamespace, data: "Data", mime: "Mime", picture: .originalPicture, name: "its original picture (GImage:Data)",
             ownsNamespace: true),
    ]

    /// `jpeg` with the pictures its XMP carries turned by `orientation` — a JPEG one by
    /// `turningJPEG` — and the warnings naming those dropped; `jpeg` itself when it carries none.
    static func turning(_ jpeg: [UInt8], by orientation: Orientation,
                        turningJPEG: ([UInt8]) throws(ImageFileError) -> [UInt8]) throws(ImageFileError) -> (bytes: [UInt8], warnings: [ImageOrienter.Warning]) {
        guard let standardPacket = try ImageFileError.damaged({ () throws(CodecError) in try JPEGFile.xmpPacket(in: jpeg) }) else {
            return (jpeg, [])
        }
        // A packet that never names the namespaces has no picture in it: libxml2 (loaded on
        // first use) parses only the packets that do, not every JPEG's a batch turns.
        var packets = [Array(standardPacket)]
        guard kinds.contains(where: { mentions(packets[0], $0.namespace) }) || mentions(packets[0], "HasExtendedXMP") else { return (jpeg, []) }
        var warnings: [ImageOrienter.Warning] = []
        let guid = mentions(packets[0], "HasExtendedXMP")
            ? XMPPacketReader.attributes(["HasExtendedXMP"], inNamespace: noteNamespace, of: text(packets[0]))?["HasExtendedXMP"] : nil
        var extendedDropped = false
        if let guid {
            do throws(CodecError) {
                if let extended = try JPEGExtendedXMP.packet(in: jpeg, guid: guid) { packets.append(extended) }
            } catch {
                warnings.append(.dropped(.extendedXMP, because: .unreadable(error)))
                extendedDropped = true
            }
        }
        let original = packets
        for kind in kinds {
            try turn(kind, in: &packets, by: orientation, turningJPEG: turningJPEG, warnings: &warnings)
        }
        guard packets != original || extendedDropped else { return (jpeg, warnings) }
        let extended = packets.count > 1 ? packets[1] : nil
        if guid != nil, extended != nil || extendedDropped {
            let newGUID = extended.map { JPEGExtendedXMP.guid(of: $0) }
            guard let edited = XMPPropertyEditor.editing(packets[0], inNamespace: noteNamespace, setting: [("HasExtendedXMP", newGUID)]) else {
                throw ImageFileError(.damaged(.corruptFile(format: "XMP", reason: "libxml2 could not rewrite xmpNote:HasExtendedXMP")))
            }
            packets[0] = edited
        }
        let standard = packets[0]
        let bytes = try ImageFileError.damaged { () throws(CodecError) in
            let described = try JPEGFile.editingXMP(jpeg) { _ in standard }
            guard let guid else { return described }
            return try JPEGExtendedXMP.replacing(guid, with: extended, in: described)
        }
        return (bytes, warnings)
    }

    /// The picture of `kind` in `packets` (the standard packet, and the extended one if any)
    /// turned by `orientation`, or dropped with a warning naming it when it cannot be.
    private static func turn(_ kind: Kind, in packets: inout [[UInt8]], by orientation: Orientation,
                             turningJPEG: ([UInt8]) throws(ImageFileError) -> [UInt8], warnings: inout [ImageOrienter.Warning]) throws(ImageFileError) {
        let values = packets.map { packet in
            mentions(packet, kind.namespace) ? XMPPacketReader.attributes([kind.data, kind.mime], inNamespace: kind.namespace, of: text(packet)) : nil
        }
        guard let holder = values.firstIndex(where: { $0?[kind.data] != nil }), let encoded = values[holder]?[kind.data] else { return }
        let mime = values[holder]?[kind.mime] ?? values.lazy.compactMap { $0?[kind.mime] }.first
        do throws(ImageFileError) {
            let turned = try picture(encoded, mime: mime, turnedBy: orientation, turningJPEG: turningJPEG)
            guard let edited = XMPPropertyEditor.editing(packets[holder], inNamespace: kind.namespace,
                                                         setting: [(kind.data, Data(turned).base64EncodedString())]) else {
                throw ImageFileError(.damaged(.corruptFile(format: "XMP", reason: "libxml2 could not rewrite \(kind.name)")))
            }
            packets[holder] = edited
        } catch {
            warnings.append(.dropped(.xmpPicture(kind.picture), because: .notTurnable(error)))
            for index in packets.indices {
                packets[index] = XMPPropertyEditor.editing(packets[index], inNamespace: kind.namespace, setting: [(kind.data, nil), (kind.mime, nil)],
                                                           removingOthers: kind.ownsNamespace) ?? packets[index]
            }
            guard !values.indices.contains(where: { mentionsValue(packets[$0], kind, values[$0]) }) else {
                throw ImageFileError(.damaged(.corruptFile(format: "XMP", reason: "libxml2 could not remove \(kind.name)")))
            }
        }
    }

    /// The picture `encoded` (base64 of a PNG or JPEG, as `mime` says) turned by `orientation`.
    private static func picture(_ encoded: String, mime: String?, turnedBy orientation: Orientation,
                                turningJPEG: ([UInt8]) throws(ImageFileError) -> [UInt8]) throws(ImageFileError) -> [UInt8] {
        guard let decoded = Data(base64Encoded: encoded, options: .ignoreUnknownCharacters) else {
            throw ImageFileError(.damaged(.corruptFile(format: "XMP", reason: "its value is not base64")))
        }
        switch mime?.lowercased() {
        case "image/png":
            return try ImageFileError.damaged { () throws(CodecError) in try PNGFile.turned([UInt8](decoded), by: orientation) }
        case "image/jpeg", "image/jpg":  // some writers use the second
            return try turningJPEG([UInt8](decoded))
        default:
            throw ImageFileError(.damaged(.unsupportedFormat(reason: "a picture of type \(mime ?? "unnamed") is not turned")))
        }
    }

    /// Whether `packet` names `word` at all (a quick test before parsing it).
    private static func mentions(_ packet: [UInt8], _ word: String) -> Bool { packet.firstRange(of: Array(word.utf8)) != nil }

    /// Whether `packet` still holds the picture of `kind` that `values` read from it.
    private static func mentionsValue(_ packet: [UInt8], _ kind: Kind, _ values: [String: String]?) -> Bool {
        guard values?[kind.data] != nil, mentions(packet, kind.namespace) else { return false }
        return XMPPacketReader.attributes([kind.data], inNamespace: kind.namespace, of: text(packet))?[kind.data] != nil
    }

    private static func text(_ packet: [UInt8]) -> String { String(decoding: packet, as: UTF8.self) }
}
