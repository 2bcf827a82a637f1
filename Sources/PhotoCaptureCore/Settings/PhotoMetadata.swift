import Codecs
import FoundationEssentials
import ImageFiles
import Imaging

/// Metadata the app supplies for a photo, written into its file beside what photocap records
/// itself (modelled on `AVCapturePhotoSettings.metadata`).
///
/// JPEG and HEIC carry it in their EXIF block, TIFF and DNG in IFD0, the Exif IFD and a GPS
/// IFD; ``xmp`` goes where each format keeps XMP. `Artist`, `Copyright` and `ImageDescription`
/// are ASCII fields: other characters are written as "?"; ``userComment`` keeps any
/// characters. Developing a DNG carries its metadata into the developed photo.
public struct PhotoMetadata: Sendable, Equatable {
    /// Where the photo was taken (the GPS IFD); nil writes none.
    public var location: PhotoLocation?
    /// Who took the photo (`Artist`).
    public var artist: String?
    /// The copyright notice (`Copyright`).
    public var copyright: String?
    /// What the photo shows (`ImageDescription`).
    public var imageDescription: String?
    /// A free comment (`UserComment`), in any characters.
    public var userComment: String?
    /// An XMP packet of the app's own, written as it is: in JPEG as a standard XMP APP1
    /// segment, in HEIC as an XMP item of the primary image, in TIFF and DNG as the
    /// `XMLPacket` tag (700). It must be well-formed XML whose root is `x:xmpmeta` or
    /// `rdf:RDF` (with an `rdf:RDF` inside an `x:xmpmeta`), and at most 65502 bytes of UTF-8 —
    /// what one JPEG APP1 segment holds, so the same packet fits every format; resolving
    /// settings refuses any other with ``PhotoCaptureError/Code/invalidMetadata(_:)``.
    ///
    /// A `tiff:Orientation` in the packet is set to the orientation the file is written with (as
    /// its EXIF says), so the two never disagree. In a DNG photocap adds its own description
    /// (how the orientation splits into mounting and device rotation) to the packet's
    /// `rdf:RDF`, and takes it out again when the DNG is developed.
    public var xmp: String?
    /// Regions of the photo — faces — each normalised to the upright photo after its crop,
    /// written into its XMP as Metadata Working Group regions (`mwg-rs:Regions`, see
    /// ``PhotoRegion`` for where they land in a photo whose Orientation is not 1): added to
    /// ``xmp`` as one more description of its `rdf:RDF`, or in a packet of photocap's own when
    /// there is none. Parts outside the photo are clipped off, regions wholly outside left out.
    /// JPEG, HEIC and TIFF photos get them; a DNG (RAW) stays as the sensor delivered it and
    /// gets none. Resolving settings refuses regions with bounds that are not finite or empty,
    /// regions beside an ``xmp`` packet that has `mwg-rs` properties of its own, and a packet
    /// that would outgrow ``maximumXMPSize`` with them.
    public var regions: [PhotoRegion] = []

    /// Metadata with the given fields; every field defaults to none.
    public init(location: PhotoLocation? = nil, artist: String? = nil, copyright: String? = nil,
                imageDescription: String? = nil, userComment: String? = nil, xmp: String? = nil,
                regions: [PhotoRegion] = []) {
        (self.location, self.artist, self.copyright) = (location, artist, copyright)
        (self.imageDescription, self.userComment, self.xmp, self.regions) = (imageDescription, userComment, xmp, regions)
    }

    /// These fields, each one unset taken from `file` and `fileXMP` (metadata read from a file).
    func filling(from file: EXIFMetadata, xmp fileXMP: String?) -> PhotoMetadata {
        PhotoMetadata(location: location ?? file.location.map(PhotoLocation.init),
                      artist: artist ?? file.artist, copyright: copyright ?? file.copyright,
                      imageDescription: imageDescription ?? file.imageDescription, userComment: userComment ?? file.userComment,
                      xmp: xmp ?? fileXMP, regions: regions)
    }

    /// The largest ``xmp`` packet, in bytes of UTF-8: what one standard XMP APP1 segment of a
    /// JPEG holds.
    public static let maximumXMPSize = JPEGFile.maximumXMPPacket

    /// Checks `packet` as resolving settings checks ``xmp``: throws
    /// ``PhotoCaptureError/Code/invalidMetadata(_:)`` saying why it is refused (too large, not
    /// well-formed XML, another root element), or that it cannot be checked because libxml2,
    /// which judges it and is loaded on first use, is missing.
    public static func validateXMP(_ packet: String) throws(PhotoCaptureError) {
        try XMPPacketValidator.validate(packet)
    }

    /// Throws ``PhotoCaptureError/Code/invalidMetadata(_:)`` for a location out of range or an
    /// XMP packet photocap cannot write.
    func validate() throws(PhotoCaptureError) {
        try location?.validate()
        if let xmp { try Self.validateXMP(xmp) }
        try validateRegions()
    }

    /// Throws ``PhotoCaptureError/Code/invalidMetadata(_:)`` for a region photocap cannot write.
    private func validateRegions() throws(PhotoCaptureError) {
        guard !regions.isEmpty else { return }
        for (index, region) in zip(1..., regions) { try region.validate(index: index) }
        if let xmp, XMPPacketReader.attributes(["Regions"], inNamespace: XMPRegionInfo.namespace, of: xmp) != nil {
            throw PhotoCaptureError(.invalidMetadata("the XMP packet has mwg-rs region properties of its own and "
                                                     + "\(regions.count) regions are given: give the regions in one of them"))
        }
        // The largest packet the regions can make: each one inside the photo, the largest size
        // (its values have a fixed length, see XMPRegionInfo).
        let largest = XMPRegionInfo(appliedToDimensions: PixelSize(width: 99999, height: 99999),
                                    regions: regions.map { region in
                                        XMPRegionInfo.Region(type: region.kind.rawValue, name: region.name,
                                                             centreX: 1, centreY: 1, width: 1, height: 1)
                                    })
        let size = packet(with: largest, orientation: .up)?.utf8.count ?? 0
        guard size <= Self.maximumXMPSize else {
            throw PhotoCaptureError(.invalidMetadata("the XMP packet with \(regions.count) regions would be \(size) bytes; "
                                                     + "at most \(Self.maximumXMPSize) fit (one JPEG APP1 segment)"))
        }
    }

    /// The XMP packet of a photo stored as `storedSize` pixels and shown after `orientation`:
    /// the app's packet (its `tiff:Orientation` set to `orientation`) with the regions inside
    /// the photo added, or those regions alone; nil when there is neither.
    func xmpPacket(storedSize: PixelSize, orientation: Orientation) -> String? {
        packet(with: regions.regionInfo(storedSize: storedSize, orientation: orientation), orientation: orientation)
    }

    private func packet(with regionInfo: XMPRegionInfo?, orientation: Orientation) -> String? {
        let app = xmp.map { XMPOrientation.setting($0, to: orientation) }
        guard let regionInfo else { return app }
        guard let app else { return regionInfo.packet }
        // A packet the validator accepted merges; should libxml2 fail here, the app's stays.
        return XMPPacketMerger.appending(regionInfo.description, to: app) ?? app
    }

    /// Fills the app-supplied fields of `exif`.
    func apply(to exif: inout EXIFMetadata) {
        exif.location = location?.exifLocation
        exif.artist = artist
        exif.copyright = copyright
        exif.imageDescription = imageDescription
        exif.userComment = userComment
    }
}

/// A position on Earth, as a location service reports it (like `CLLocation`).
public struct PhotoLocation: Sendable, Equatable {
    /// Degrees north; negative south. −90...90.
    public var latitude: Double
    /// Degrees east; negative west. −180...180.
    public var longitude: Double
    /// Metres above sea level; negative below. nil when unknown.
    public var altitude: Double?
    /// The radius of uncertainty in metres (`GPSHPositioningError`); nil when unknown.
    public var horizontalAccuracy: Double?
    /// When the position was fixed (`GPSDateStamp`, `GPSTimeStamp`, UTC); nil when unknown.
    public var timestamp: Date?
    /// How the position was found (`GPSProcessingMethod`).
    public var source: Source = .manual

    /// How a position was found, as EXIF's `GPSProcessingMethod` names it.
    public enum Source: String, Sendable, Equatable, CaseIterable {
        /// Satellite navigation.
        case gps = "GPS"
        /// A cellular network's cell.
        case cellID = "CELLID"
        /// Wireless networks nearby.
        case wlan = "WLAN"
        /// Entered by a person.
        case manual = "MANUAL"
    }

    /// A location; resolving settings rejects values out of range with
    /// ``PhotoCaptureError/Code/invalidMetadata(_:)``.
    public init(latitude: Double, longitude: Double, altitude: Double? = nil, horizontalAccuracy: Double? = nil,
                timestamp: Date? = nil, source: Source = .manual) {
        (self.latitude, self.longitude, self.altitude) = (latitude, longitude, altitude)
        (self.horizontalAccuracy, self.timestamp, self.source) = (horizontalAccuracy, timestamp, source)
    }

    init(_ location: EXIFLocation) {
        self.init(latitude: location.latitude, longitude: location.longitude, altitude: location.altitude,
                  horizontalAccuracy: location.horizontalAccuracy, timestamp: location.timestamp,
                  source: Source(rawValue: location.processingMethod) ?? .manual)
    }

    var exifLocation: EXIFLocation {
        var location = EXIFLocation(latitude: latitude, longitude: longitude, altitude: altitude,
                                    horizontalAccuracy: horizontalAccuracy, timestamp: timestamp)
        location.processingMethod = source.rawValue
        return location
    }

    /// Throws ``PhotoCaptureError/Code/invalidMetadata(_:)`` for a value out of range.
    func validate() throws(PhotoCaptureError) {
        if let problem = exifLocation.problem { throw PhotoCaptureError(.invalidMetadata(problem)) }
    }
}
