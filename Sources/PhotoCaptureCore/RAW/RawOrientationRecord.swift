import Codecs
import ImageFiles
import Imaging

/// How a DNG's Orientation tag — the whole correction — splits into the sensor's mounting and
/// how the device was held, kept in the DNG's XMP (namespace ``namespace``) so that developing
/// the DNG later compensates the mounting exactly as a processed photo of the capture would.
struct RawOrientationRecord: Equatable {
    /// The XMP namespace of photocap's properties.
    static let namespace = "http://ns.photocap.org/raw/1.0/"

    let mounting: SensorMounting
    /// Clockwise degrees, 0..<360.
    let rotationAngle: Int

    init(mounting: SensorMounting, rotationAngle: Int) {
        self.mounting = mounting
        self.rotationAngle = Orientation.normalizedDegrees(rotationAngle)
    }

    /// The split of `orientation` for a DNG that carries no record (not written by photocap):
    /// all of it is taken as how the device was held, except a mirror, which only a sensor
    /// mounting can carry.
    init(assuming orientation: Orientation) {
        let mounting = SensorMounting(rotation: 0, isMirrored: orientation.isMirrored)
        let device = mounting.compensation.inverse.followed(by: orientation)
        self.init(mounting: mounting, rotationAngle: device.clockwiseDegrees)
    }

    /// The Orientation a DNG of this capture carries.
    var orientation: Orientation { OrientationPlan.raw(mounting: mounting, rotationAngle: rotationAngle).writtenOrientation }

    /// The record as an `rdf:Description` element, written from the typed values; found again
    /// by its namespace (``init(xmp:)``, ``appPacket(in:)``), never by this text. It declares
    /// `rdf` too, so that it stands alone as an XML document and libxml2 can add it to any
    /// packet's `rdf:RDF`.
    var description: String {
        """
          <rdf:Description rdf:about="" xmlns:rdf="\(XMPPacketReader.rdfNamespace)" xmlns:photocap="\(Self.namespace)"
           photocap:SensorRotation="\(mounting.rotation)"
           photocap:SensorMirrored="\(mounting.isMirrored ? "True" : "False")"
           photocap:DeviceRotation="\(rotationAngle)"/>
        """
    }

    /// An XMP packet with the record.
    var xmp: String { XMPPacketWrapper.packet(around: description) }

    /// The app's packet (``PhotoMetadata/xmp``, already checked) with the record added by
    /// libxml2 as one more description at the end of its `rdf:RDF`; the record alone when there
    /// is none. Should libxml2 fail on a packet it accepted before, the app's packet stays
    /// without the record, as ``PhotoMetadata`` keeps it without regions: the app's properties
    /// are its own, while a DNG without a record is still developed upright from its
    /// Orientation tag (``init(assuming:)``), only its split into mounting and hold assumed.
    func xmp(adding appPacket: String?) -> String {
        guard let appPacket else { return xmp }
        return XMPPacketMerger.appending(description, to: appPacket) ?? appPacket
    }

    /// A DNG's XMP without photocap's record: what an app (or another tool) put there, carried
    /// into a photo developed from it; nil when nothing else is left (an `rdf:RDF` without
    /// elements). Every property in ``namespace`` is removed by libxml2, attribute or element,
    /// and the descriptions left empty with them, so a packet another tool re-serialised (as
    /// ExifTool does on any edit) loses the record too; a packet without one stays as it is.
    static func appPacket(in dngXMP: String?) -> String? {
        guard let dngXMP else { return nil }
        let rest = XMPPropertyEditor.removing(namespace: namespace, from: Array(dngXMP.utf8))
            .map { String(decoding: $0, as: UTF8.self) } ?? dngXMP
        return XMPPacketReader.rdfElementCount(of: rest) == 0 ? nil : rest
    }

    /// The names of the record's attributes, in ``namespace``.
    private static let attributeNames = ["SensorRotation", "SensorMirrored", "DeviceRotation"]

    /// The record in an XMP packet, read with libxml2; nil when the packet has none or a value
    /// is malformed.
    init?(xmp: String) {
        guard let values = XMPPacketReader.attributes(Self.attributeNames, inNamespace: Self.namespace, of: xmp),
              let sensor = values["SensorRotation"].flatMap({ Int($0) }), Orientation(clockwiseDegrees: sensor) != nil,
              let mirrored = values["SensorMirrored"].flatMap({ ["True": true, "False": false][$0] }),
              let device = values["DeviceRotation"].flatMap({ Int($0) }), Orientation(clockwiseDegrees: device) != nil else { return nil }
        self.init(mounting: SensorMounting(rotation: sensor, isMirrored: mirrored), rotationAngle: device)
    }

    /// The record of a DNG: `written` (read from its XMP) when it agrees with the file's
    /// Orientation tag (a tool may have changed the tag since), else the split
    /// ``init(assuming:)`` makes.
    static func of(_ written: RawOrientationRecord?, orientation: Orientation) -> RawOrientationRecord {
        if let written, written.orientation == orientation { return written }
        return RawOrientationRecord(assuming: orientation)
    }
}
