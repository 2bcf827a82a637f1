import Imaging

/// A photo's regions (faces) in the Metadata Working Group's region schema: the XMP property
/// `mwg-rs:Regions` (exiftool's `RegionInfo`), which digiKam, Lightroom, Picasa and exiftool read.
///
/// The values are the file's: each ``Region`` is normalised to the pixels as stored (see
/// `PhotoMetadata.regions` for how an upright rectangle becomes one) and
/// ``appliedToDimensions`` is the stored width and height. This type only spells them.
package struct XMPRegionInfo: Equatable, Sendable {
    /// One `mwg-rs:RegionList` entry.
    package struct Region: Equatable, Sendable {
        /// `mwg-rs:Type`: `Face`, `Pet`, `Focus` or `BarCode`.
        package let type: String
        /// `mwg-rs:Name`, written when given.
        package let name: String?
        /// `stArea:x`, `stArea:y`: the centre, normalised (0...1) to the stored pixels.
        package let centreX: Double
        package let centreY: Double
        /// `stArea:w`, `stArea:h`: the size, normalised to the stored pixels.
        package let width: Double
        package let height: Double

        /// A region of `type` centred at (`centreX`, `centreY`) of `width`×`height`.
        package init(type: String, name: String?, centreX: Double, centreY: Double, width: Double, height: Double) {
            (self.type, self.name) = (type, name)
            (self.centreX, self.centreY, self.width, self.height) = (centreX, centreY, width, height)
        }
    }

    /// `mwg-rs:AppliedToDimensions` (`stDim:w`, `stDim:h`, unit pixel).
    package let appliedToDimensions: PixelSize
    /// The entries of `mwg-rs:RegionList`, in order.
    package let regions: [Region]

    /// Regions applying to an image of `appliedToDimensions`.
    package init(appliedToDimensions: PixelSize, regions: [Region]) {
        (self.appliedToDimensions, self.regions) = (appliedToDimensions, regions)
    }

    /// The RDF namespace.
    package static let rdfNamespace = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
    /// The schema's namespace (prefix `mwg-rs`).
    package static let namespace = "http://www.metadataworkinggroup.com/schemas/regions/"
    /// XMP's Dimensions structure (prefix `stDim`).
    package static let dimensionsNamespace = "http://ns.adobe.com/xap/1.0/sType/Dimensions#"
    /// MWG's Area structure (prefix `stArea`).
    package static let areaNamespace = "http://ns.adobe.com/xmp/sType/Area#"

    /// The regions as one `rdf:Description` that declares every namespace it uses (`rdf` too),
    /// so that it stands alone as an XML document and can join any packet's `rdf:RDF`.
    package var description: String {
        var lines = [
            "  <rdf:Description rdf:about=\"\" xmlns:rdf=\"\(Self.rdfNamespace)\"",
            "    xmlns:mwg-rs=\"\(Self.namespace)\"",
            "    xmlns:stDim=\"\(Self.dimensionsNamespace)\"",
            "    xmlns:stArea=\"\(Self.areaNamespace)\">",
            "   <mwg-rs:Regions rdf:parseType=\"Resource\">",
            "    <mwg-rs:AppliedToDimensions rdf:parseType=\"Resource\">",
            "     <stDim:w>\(appliedToDimensions.width)</stDim:w>",
            "     <stDim:h>\(appliedToDimensions.height)</stDim:h>",
            "     <stDim:unit>pixel</stDim:unit>",
            "    </mwg-rs:AppliedToDimensions>",
            "    <mwg-rs:RegionList>",
            "     <rdf:Bag>",
        ]
        for region in regions {
            lines.append("      <rdf:li rdf:parseType=\"Resource\">")
            lines.append("       <mwg-rs:Type>\(Self.escaped(region.type))</mwg-rs:Type>")
            if let name = region.name { lines.append("       <mwg-rs:Name>\(Self.escaped(name))</mwg-rs:Name>") }
            lines.append("       <mwg-rs:Area rdf:parseType=\"Resource\">")
            for (field, value) in [("x", region.centreX), ("y", region.centreY), ("w", region.width), ("h", region.height)] {
                lines.append("        <stArea:\(field)>\(Self.decimal(value))</stArea:\(field)>")
            }
            lines.append("        <stArea:unit>normalized</stArea:unit>")
            lines.append("       </mwg-rs:Area>")
            lines.append("      </rdf:li>")
        }
        lines += ["     </rdf:Bag>", "    </mwg-rs:RegionList>", "   </mwg-rs:Regions>", "  </rdf:Description>"]
        return lines.joined(separator: "\n")
    }

    /// A whole XMP packet holding ``description`` alone: for a photo without an app packet.
    package var packet: String { XMPPacketWrapper.packet(around: description) }

    /// `value` with six decimals: finer than a pixel of any photo, and as long for every value
    /// in 0...1, so a packet's size is known before the values are.
    private static func decimal(_ value: Double) -> String {
        String(printf: "%.6f", min(1, max(0, value)))
    }

    /// `text` as XML character data: the five characters XML reserves as references.
    private static func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            default: result.append(character)
            }
        }
        return result
    }
}
