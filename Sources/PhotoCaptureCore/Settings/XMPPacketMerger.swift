import CXML
import ImageFiles
#if canImport(Glibc)
import Glibc
#endif

/// Adds photocap's descriptions to an app's XMP packet with libxml2, the parser that
/// ``XMPPacketValidator`` checks packets with: by the document's structure, never by matching
/// its text.
enum XMPPacketMerger {
    /// `packet` with `description` (one `rdf:Description` declaring its namespaces) as the last
    /// description of its `rdf:RDF`, serialised by libxml2 (UTF-8, no XML declaration); nil
    /// when either is not well-formed, the packet has no `rdf:RDF`, or libxml2 cannot be loaded.
    static func appending(_ description: String, to packet: String) -> String? {
        var merged: UnsafeMutablePointer<CChar>?
        var mergedSize: Int32 = 0
        defer { free(merged) }
        let status = packet.utf8CString.withUnsafeBufferPointer { bytes in
            description.utf8CString.withUnsafeBufferPointer { addition in
                pc_xml_append_description(bytes.baseAddress, Int32(packet.utf8.count), addition.baseAddress,
                                          Int32(description.utf8.count), XMPPacketReader.rdfNamespace, &merged, &mergedSize)
            }
        }
        guard status == 1, let merged else { return nil }
        return String(cString: merged)
    }
}
