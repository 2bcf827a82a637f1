import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Checks an app's XMP packet (``PhotoMetadata/xmp``) before capture with Foundation's
/// `XMLParser`: its size, that it is well-formed, and its root element.
final class XMPPacketValidator: NSObject, XMLParserDelegate {
    static let metaNamespace = "adobe:ns:meta/"
    static let rdfNamespace = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"

    /// The root element's qualified name and namespace.
    private var root: (name: String, namespace: String?)?
    /// Whether an `rdf:RDF` is the root or the root's child.
    private var hasRDF = false
    private var depth = 0
    /// Whether the root element was closed.
    private var isComplete = false
    /// The first error libxml2 reported, and where.
    private var firstError: (code: Int, line: Int, column: Int)?

    /// Throws ``PhotoCaptureError/Code/invalidMetadata(_:)`` saying what is wrong with `packet`.
    static func validate(_ packet: String) throws(PhotoCaptureError) {
        func refuse(_ reason: String) -> PhotoCaptureError { PhotoCaptureError(.invalidMetadata(reason)) }
        let size = packet.utf8.count
        guard size <= PhotoMetadata.maximumXMPSize else {
            throw refuse("the XMP packet is \(size) bytes; at most \(PhotoMetadata.maximumXMPSize) fit (one JPEG APP1 segment)")
        }
        let parser = XMLParser(data: Data(packet.utf8))
        parser.shouldProcessNamespaces = true
        let validator = XMPPacketValidator()
        parser.delegate = validator
        // On Linux parse() returns true after a fatal error too, and an unclosed root is never
        // reported: errors and the root's end are collected by the delegate.
        let parsed = parser.parse()
        if let error = validator.firstError ?? (parsed ? nil : (parser.parserError.map { ($0 as NSError).code } ?? 0, parser.lineNumber, parser.columnNumber)) {
            throw refuse("the XMP packet is not well-formed XML: \(Self.describe(error.code)) (line \(error.line), column \(error.column))")
        }
        guard let root = validator.root, validator.isComplete else {
            throw refuse("the XMP packet is not well-formed XML: it has no complete root element")
        }
        guard (root.name == "x:xmpmeta" && root.namespace == metaNamespace) || (root.name == "rdf:RDF" && root.namespace == rdfNamespace) else {
            let namespace = root.namespace.flatMap { $0.isEmpty ? nil : $0 } ?? "none"
            throw refuse("the XMP packet's root element is <\(root.name)> (namespace \(namespace)), not x:xmpmeta or rdf:RDF")
        }
        guard validator.hasRDF else { throw refuse("the XMP packet's x:xmpmeta holds no rdf:RDF") }
    }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
        if root == nil { root = (qName ?? elementName, namespaceURI) }
        // The rdf prefix is required: a DNG gets photocap's description inside this element.
        if depth <= 1, qName == "rdf:RDF", namespaceURI == Self.rdfNamespace { hasRDF = true }
        depth += 1
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        depth -= 1
        if depth == 0 { isComplete = true }
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        if firstError == nil { firstError = ((parseError as NSError).code, parser.lineNumber, parser.columnNumber) }
    }

    /// libxml2's error number (`xmlParserErrors`) in words, for the common mistakes.
    private static func describe(_ code: Int) -> String {
        switch code {
        case 76: "a closing tag does not match the open element"
        case 5: "the document ends early or has content after its root element"
        case 4: "the document is empty"
        case 73: "'>' is missing"
        case 26: "an undeclared entity"
        default: "libxml2 error \(code)"
        }
    }
}
