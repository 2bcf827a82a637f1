import CXML
#if canImport(Glibc)
import Glibc
#endif

/// Sets and removes plain properties of an XMP packet with libxml2, by the document's
/// structure (``XMPPacketReader`` reads them).
package enum XMPPropertyEditor {
    /// `packet` with the properties `values` names in `namespace` — attributes or elements, on
    /// every description — set to their values, or removed where the value is nil; with
    /// `removingOthers` the namespace's other properties are removed too. nil when nothing
    /// changed (no such property, a packet that is not well-formed, libxml2 not loadable).
    package static func editing(_ packet: [UInt8], inNamespace namespace: String, setting values: [(name: String, value: String?)],
                        removingOthers: Bool = false) -> [UInt8]? {
        let names = values.map { strdup($0.name) }
        let texts = values.map { $0.value.map { strdup($0) } ?? nil }
        defer { (names + texts).forEach { free($0) } }
        var edited: UnsafeMutablePointer<CChar>?
        var editedSize: Int32 = 0
        defer { free(edited) }
        let status = names.map { $0.map { UnsafePointer($0) } }.withUnsafeBufferPointer { namePointers in
            texts.map { $0.map { UnsafePointer($0) } }.withUnsafeBufferPointer { valuePointers in
                packet.withUnsafeBufferPointer { bytes in
                    bytes.withMemoryRebound(to: CChar.self) { text in
                        pc_xml_set_properties(text.baseAddress, Int32(text.count), XMPPacketReader.rdfNamespace, namespace,
                                              namePointers.baseAddress, valuePointers.baseAddress, Int32(values.count),
                                              removingOthers ? 1 : 0, &edited, &editedSize)
                    }
                }
            }
        }
        guard status == 1, let edited else { return nil }
        return Array(UnsafeRawBufferPointer(start: edited, count: Int(editedSize)))
    }

    /// `packet` without the properties in `namespace` — attributes or elements, on every
    /// description — and without the descriptions that then hold nothing: a namespace's own
    /// description goes whole, however a tool re-serialised it. nil when nothing changed (no
    /// such property, a packet that is not well-formed, libxml2 not loadable).
    package static func removing(namespace: String, from packet: [UInt8]) -> [UInt8]? {
        var edited: UnsafeMutablePointer<CChar>?
        var editedSize: Int32 = 0
        defer { free(edited) }
        let status = packet.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { text in
                pc_xml_remove_namespace(text.baseAddress, Int32(text.count), XMPPacketReader.rdfNamespace, namespace, &edited, &editedSize)
            }
        }
        guard status == 1, let edited else { return nil }
        return Array(UnsafeRawBufferPointer(start: edited, count: Int(editedSize)))
    }
}
