import ArgumentParser
import Foundation
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

    /// Sets the fields given on the command line; the others keep what `settings` has.
    func apply(to settings: inout PhotoSettings) {
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
            .map { Double($0.trimmingCharacters(in: .whitespaces)) }
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
