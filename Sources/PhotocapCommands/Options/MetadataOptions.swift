import ArgumentParser
import FoundationEssentials
import PhotoCapture

/// Metadata written into every photo (``PhotoSettings/metadata``): shared by the commands that
/// write photos.
struct MetadataOptions: ParsableArguments {
    @Option(parsing: .unconditional,
            help: ArgumentHelp("Where the photo was taken: degrees north and east (negative: south, west), metres above sea level.",
                               valueName: "lat,lon[,alt]"))
    var location: PhotoLocation?

    @Option(help: "Who took the photo (EXIF Artist; ASCII).")
    var artist: String?

    @Option(help: "Copyright notice (EXIF Copyright; ASCII).")
    var copyright: String?

    @Option(help: "What the photo shows (EXIF ImageDescription; ASCII).")
    var description: String?

    @Option(name: .customLong("comment"), help: "A comment in any characters (EXIF UserComment).")
    var userComment: String?

    @Option(help: ArgumentHelp("An XMP packet to write into the photo: well-formed XML, root x:xmpmeta or rdf:RDF, at most 65502 bytes; its tiff:Orientation is set to the photo's.",
                               valueName: "file"))
    var xmp: String?

    /// The packet `--xmp` names (its size checked before it is read), checked as resolving the
    /// settings will check it, so a bad one is refused before a camera is opened; nil without
    /// `--xmp`.
    func xmpPacket() throws(PhotoCaptureError) -> String? {
        guard let xmp else { return nil }
        let bytes: [UInt8]
        do { bytes = try InputFile.read(xmp, maximumBytes: PhotoMetadata.maximumXMPSize) } catch {
            throw PhotoCaptureError(.invalidMetadata("--xmp: \(error.description)"))
        }
        guard let packet = String(validating: bytes, as: UTF8.self) else {
            throw PhotoCaptureError(.invalidMetadata("--xmp: \(xmp) is not UTF-8 text"))
        }
        try PhotoMetadata.validateXMP(packet)
        return packet
    }

    /// Sets the fields given on the command line, and `xmp` (from ``xmpPacket()``) when there
    /// is one; the others keep what `settings` has.
    func apply(to settings: inout PhotoSettings, xmp packet: String?) {
        settings.metadata.xmp = packet ?? settings.metadata.xmp
        settings.metadata.location = location ?? settings.metadata.location
        settings.metadata.artist = artist ?? settings.metadata.artist
        settings.metadata.copyright = copyright ?? settings.metadata.copyright
        settings.metadata.imageDescription = description ?? settings.metadata.imageDescription
        settings.metadata.userComment = userComment ?? settings.metadata.userComment
    }
}

extension PhotoLocation: ExpressibleByArgument {
    /// Parses `LAT,LON` or `LAT,LON,ALT` in decimal degrees and metres, each in range.
    public init?(argument: String) {
        let parts = argument.split(separator: ",", omittingEmptySubsequences: false)
            .map { Double($0.trimmingWhitespace) }
        guard (2...3).contains(parts.count), let latitude = parts[0], let longitude = parts[1],
              abs(latitude) <= 90, abs(longitude) <= 180 else { return nil }
        if parts.count == 3 {
            guard let altitude = parts[2], altitude.isFinite, abs(altitude) < 1_000_000 else { return nil }
            self.init(latitude: latitude, longitude: longitude, altitude: altitude)
        } else {
            self.init(latitude: latitude, longitude: longitude)
        }
    }
}
