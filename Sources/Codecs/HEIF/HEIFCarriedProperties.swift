import CHeif

/// What the primary image of a HEIF file holds besides its coded pixels and EXIF, read so that
/// a re-encode of its turned pixels keeps it: the colour description and the metadata items
/// (XMP, IPTC, …); and the kinds of its auxiliary images (depth, alpha, gain maps), which such a
/// re-encode turns or names as dropped.
package struct HEIFCarriedProperties: Sendable, Equatable {
    /// An ICC profile as a `colr` box holds it.
    package struct ICCProfile: Sendable, Equatable {
        /// `prof` (unrestricted) or `rICC` (restricted).
        package var type: String
        package var bytes: [UInt8]
    }

    /// A metadata item other than Exif: its item type (`mime` for XMP), content type and bytes.
    package struct MetadataItem: Sendable, Equatable {
        package var type: String
        package var contentType: String?
        package var bytes: [UInt8]

        /// XMP, whose `tiff:Orientation` a turn must set to 1.
        package var isXMP: Bool { type == "mime" && contentType == "application/rdf+xml" }
    }

    package var iccProfile: ICCProfile?
    /// nclx colour primaries and transfer characteristics. Its matrix and range describe the
    /// coded planes, which a re-encode writes its own way, so they are not carried.
    package var nclxPrimaries: UInt16?
    package var nclxTransfer: UInt16?
    /// Every metadata item but Exif, in file order.
    package var metadata: [MetadataItem] = []
    /// The auxiliary images, by kind: `depth`, `alpha`, or the `auxC` type (a gain map's URN).
    package var auxiliaryImages: [String] = []

    /// Nothing to carry: the colour description of a new photo.
    package init() {}

    /// Reads them from the primary image of `data`, a whole HEIF file.
    package init(primaryImageOf data: [UInt8]) throws(CodecError) {
        self = try HEIFContext.withPrimaryImage(of: data) { (_, primary) throws(CodecError) in
            try primary.carriedProperties()
        }
    }
}
