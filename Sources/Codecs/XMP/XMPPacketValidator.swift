import CXML
import Imaging

/// Checks an app's XMP packet (the capture layer's `PhotoMetadata.xmp`) before capture with
/// libxml2: its size, that it is well-formed, and its root element. libxml2 is loaded on the
/// first check (see CXML), so a process that never checks a packet never loads it.
package enum XMPPacketValidator {
    /// What is wrong with `packet`, in words; nil when nothing is.
    package static func problem(with packet: String) -> String? {
        func notWellFormed(_ detail: String) -> String { "the XMP packet is not well-formed XML: \(detail)" }
        let size = packet.utf8.count
        guard size <= JPEGFile.maximumXMPPacket else {
            return "the XMP packet is \(size) bytes; at most \(JPEGFile.maximumXMPPacket) fit (one JPEG APP1 segment)"
        }
        // The smallest document, "<a/>", has four bytes (and XMLParser, which judged packets
        // before, parsed nothing shorter).
        guard size >= 4 else { return notWellFormed("it has no complete root element") }
        var reason = [CChar](repeating: 0, count: 256)
        guard pc_xml_load(&reason, reason.count) == 0 else {
            return "the XMP packet cannot be checked: libxml2 could not be loaded (\(String(cMessage: reason)))"
        }
        var check = pc_xml_document_check()
        defer { pc_xml_release(&check) }
        let status = packet.utf8CString.withUnsafeBufferPointer { bytes in
            pc_xml_check_document(bytes.baseAddress, Int32(size), XMPPacketReader.rdfNamespace, &check)
        }
        guard status == 0 else { return "the XMP packet cannot be checked: libxml2 ran out of memory" }
        if check.error_code != 0 {
            return notWellFormed("\(Self.describe(Int(check.error_code))) (line \(check.error_line), column \(check.error_column))")
        }
        guard let rootName = check.root_name.map({ String(cString: $0) }) else {
            return notWellFormed("it has no complete root element")
        }
        let namespace = check.root_namespace.map { String(cString: $0) }
        guard (rootName == "x:xmpmeta" && namespace == XMPPacketReader.metaNamespace) || (rootName == "rdf:RDF" && namespace == XMPPacketReader.rdfNamespace) else {
            return "the XMP packet's root element is <\(rootName)> (namespace \(namespace.flatMap { $0.isEmpty ? nil : $0 } ?? "none")), "
                + "not x:xmpmeta or rdf:RDF"
        }
        // The rdf prefix is required: a DNG gets photocap's description inside this element.
        guard check.has_rdf != 0 else { return "the XMP packet's x:xmpmeta holds no rdf:RDF" }
        return nil
    }

    /// libxml2's error number (`xmlParserErrors`) in words, for the common mistakes.
    private static func describe(_ code: Int) -> String {
        switch code {
        case 76: "a closing tag does not match the open element"
        case 5: "the document ends early or has content after its root element"
        case 4: "the document is empty"
        case 73: "'>' is missing"
        case 26: "an undeclared entity"
        case Int(PC_XML_ERROR_DOCUMENT_TYPE): "it declares a document type (<!DOCTYPE>), which XMP does not allow"
        default: "libxml2 error \(code)"
        }
    }
}
