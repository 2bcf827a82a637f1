/// The text around the descriptions of an XMP packet photocap writes on its own: the `xpacket`
/// processing instructions, `x:xmpmeta` and `rdf:RDF`.
package enum XMPPacketWrapper {
    /// A whole packet holding `descriptions` (`rdf:Description` elements) in its `rdf:RDF`.
    package static func packet(around descriptions: String) -> String {
        """
        <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
        <x:xmpmeta xmlns:x="adobe:ns:meta/">
         <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
        \(descriptions)
         </rdf:RDF>
        </x:xmpmeta>
        <?xpacket end="w"?>
        """
    }
}
