import CXML
#if canImport(Glibc)
import Glibc
#endif

/// Reads what photocap needs from an XMP packet with libxml2, the parser that
/// PhotoCapture checks apps' packets with: by the document's structure, never by matching
/// its text.
package enum XMPPacketReader {
    /// The namespace of an XMP packet's `x:xmpmeta` root.
    package static let metaNamespace = "adobe:ns:meta/"
    /// The RDF namespace, whose `rdf:Description` elements hold the properties.
    package static let rdfNamespace = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"

    /// The plain values of the properties `names` in `namespace` — attributes or elements, both
    /// RDF spellings — on the descriptions of the packet's `rdf:RDF`, the first of each in
    /// document order (absent names are left out); nil when no description has a property in
    /// that namespace, or the packet is not well-formed XML, or libxml2 cannot be loaded.
    package static func attributes(_ names: [String], inNamespace namespace: String, of packet: String) -> [String: String]? {
        let cNames = names.map { strdup($0) }
        defer { cNames.forEach { free($0) } }
        var values = [UnsafeMutablePointer<CChar>?](repeating: nil, count: names.count)
        defer { values.forEach { free($0) } }
        let found = cNames.map { $0.map { UnsafePointer($0) } }.withUnsafeBufferPointer { namePointers in
            packet.utf8CString.withUnsafeBufferPointer { bytes in
                pc_xml_namespaced_properties(bytes.baseAddress, Int32(packet.utf8.count), rdfNamespace, namespace,
                                             namePointers.baseAddress, Int32(names.count), &values)
            }
        }
        guard found == 1 else { return nil }
        var attributes: [String: String] = [:]
        for (name, value) in zip(names, values) {
            if let value { attributes[name] = String(cString: value) }
        }
        return attributes
    }

    /// How many elements (descriptions) the packet's `rdf:RDF` holds: 0 without one; nil when
    /// the packet is not well-formed XML or libxml2 cannot be loaded.
    package static func rdfElementCount(of packet: String) -> Int? {
        var check = pc_xml_document_check()
        defer { pc_xml_release(&check) }
        let status = packet.utf8CString.withUnsafeBufferPointer { bytes in
            pc_xml_check_document(bytes.baseAddress, Int32(packet.utf8.count), rdfNamespace, &check)
        }
        guard status == 0, check.error_code == 0 else { return nil }
        return Int(check.rdf_elements)
    }
}
