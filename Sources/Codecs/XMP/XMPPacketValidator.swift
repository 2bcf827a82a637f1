import CXML
import Imaging

/// Checks an app's XMP packet (the capture layer's `PhotoMetadata.xmp`) before capture with
/// libxml2: its size, that it is well-formed, and its root element. libxml2 is loaded on the
/// first check (see CXML), so a process that never checks a packet never loads it.
package enum XMPPacketValidator {
    /// What is wrong with `packet`, in words; nil when nothing is.
    package static func problem(with packet: String) -> String? {
        let size = packet.utf8.count
        guard size <= JPEGFile.maximumXMPPacket else {
            return "the XMP packet is \(size) bytes; at most \(JPEGFile.maximumXMPPacket) fit (one JPEG APP1 segment)"
        }
        // The smallest document, "<a/>", has four bytes (and XMLParser, which judged packets
        // before, parsed nothing shorter).
        guard size >= 4 else { return notWellFormed("it has no complete root element") }
        var check = pc_xml_document_check()
        defer { pc_xml_release(&check) }
        if let problem = wellFormednessProblem(with: packet, check: &check) { return problem }
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

    /// Why libxml2 cannot read `packet` (not well-formed, or libxml2 not loadable), in words;
    /// nil when it can. For a packet that is not an app's, whose size and root are not checked.
    package static func wellFormednessProblem(with packet: String) -> String? {
        var check = pc_xml_document_check()
        defer { pc_xml_release(&check) }
        return wellFormednessProblem(with: packet, check: &check)
    }

    /// ``wellFormednessProblem(with:)``, leaving what libxml2 made of the packet in `check`.
    private static func wellFormednessProblem(with packet: String, check: inout pc_xml_document_check) -> String? {
        var reason = [CChar](repeating: 0, count: 256)
        guard pc_xml_load(&reason, reason.count) == 0 else {
            return "the XMP packet cannot be checked: libxml2 could not be loaded (\(String(cMessage: reason)))"
        }
        let status = packet.utf8CString.withUnsafeBufferPointer { bytes in
            pc_xml_check_document(bytes.baseAddress, Int32(packet.utf8.count), XMPPacketReader.rdfNamespace, &check)
        }
        guard status == 0 else { return "the XMP packet cannot be checked: libxml2 ran out of memory" }
        guard check.error_code == 0 else {
            return notWellFormed("\(Self.describe(Int(check.error_code))) (line \(check.error_line), column \(check.error_column))")
        }
        return nil
    }

    /// A problem of a packet libxml2 finds not well-formed, `detail` saying which.
    private static func notWellFormed(_ detail: String) -> String { "the XMP packet is not well-formed XML: \(detail)" }

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
