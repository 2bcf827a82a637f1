import Foundation
import PhotoCapture
import Testing
import TestSupport

/// ``PhotoSettings/metadata`` through the library: the values reach the
/// file (read back by exiftool), positive and negative coordinates get their references, and
/// out-of-range values are refused with ``PhotoCaptureError/Code/invalidMetadata(_:)``.
@Suite struct PhotoMetadataTests {
    /// One photo of `format` from a synthetic camera, with settings adjusted by `adjust`.
    func photo(format: PhotoFormat, _ adjust: (inout PhotoSettings) -> Void) async throws -> CapturePhoto {
        let (session, output) = try await runningSession(.synthetic(.init(maximumSize: PixelSize(width: 320, height: 240),
                                                                         framesPerSecond: 200)))
        var settings = PhotoSettings(format: format)
        adjust(&settings)
        return try await stoppingAfterwards(session) { try await output.capturePhoto(with: settings) }
    }

    @Test(arguments: [(PhotoFormat.jpeg, 48.858370, 2.294481, 330.0), (.tiff, 48.858370, 2.294481, 330.0),
                      (.heic, -0.5, 179.999, 0.0), (.dng, 89.9999, -0.000001, -400.0)])
    func locationRoundTrips(format: PhotoFormat, latitude: Double, longitude: Double, altitude: Double) async throws {
        let folder = try TemporaryDirectory("metadata")
        let fix = Date(timeIntervalSince1970: 1_790_000_000.25)
        let photo = try await self.photo(format: format) { settings in
            settings.heicEncodingSpeed = .ultrafast
            settings.metadata = PhotoMetadata(
                location: PhotoLocation(latitude: latitude, longitude: longitude, altitude: altitude, horizontalAccuracy: 4.5,
                                        timestamp: fix, source: .gps),
                artist: "A", copyright: "C", imageDescription: "D", userComment: "E")
        }
        #expect(photo.resolvedSettings.metadata.artist == "A")
        let path = folder.path("photo.\(format.fileExtension!)")
        try photo.write(to: path)
        #expect(try ExternalTool.exiftoolValidationProblems(path) == [], "\(format)")
        let run = try ExternalTool.run("exiftool", ["-j", "-n", "-GPS:all", "-Composite:GPSLatitude", "-Composite:GPSLongitude",
                                                    "-Composite:GPSAltitude", "-Composite:GPSDateTime", path]).checked()
        let tags = try #require((try JSONSerialization.jsonObject(with: run.stdout) as? [[String: Any]])?.first)
        #expect(abs((tags["GPSLatitude"] as? Double ?? .nan) - latitude) < 1e-6, "\(tags)")
        #expect(abs((tags["GPSLongitude"] as? Double ?? .nan) - longitude) < 1e-6, "\(tags)")
        #expect(tags["GPSLatitudeRef"] as? String == (latitude < 0 ? "S" : "N"))
        #expect(tags["GPSLongitudeRef"] as? String == (longitude < 0 ? "W" : "E"))
        #expect(abs((tags["GPSAltitude"] as? Double ?? .nan) - altitude) < 1e-3, "\(tags)")
        #expect(tags["GPSAltitudeRef"] as? Int == (altitude < 0 ? 1 : 0))
        #expect(abs((tags["GPSHPositioningError"] as? Double ?? .nan) - 4.5) < 1e-3, "\(tags)")
        // 1_790_000_000 s after 1970 is 2026-09-21 14:13:20 UTC.
        #expect(tags["GPSDateStamp"] as? String == "2026:09:21", "\(tags)")
        #expect(tags["GPSProcessingMethod"] as? String == "GPS", "\(tags)")
        #expect((tags["GPSDateTime"] as? String)?.hasPrefix("2026:09:21 14:13:20.25") == true, "\(tags)")
    }

    /// The typed EXIF fields say what exiftool reads in the file, and the text dictionary stays.
    @Test(arguments: [PhotoFormat.jpeg, .heic, .tiff])
    func typedEXIFFieldsAgreeWithExiftool(format: PhotoFormat) async throws {
        let folder = try TemporaryDirectory("typed-exif")
        let photo = try await self.photo(format: format) { settings in
            settings.heicEncodingSpeed = .ultrafast
            settings.rotationAngle = 90
        }
        let path = folder.path("photo.\(format.fileExtension!)")
        try photo.write(to: path)
        let run = try ExternalTool.run("exiftool", ["-j", "-n", "-Orientation", "-ImageWidth", "-ImageHeight",
                                                    "-Make", "-Model", "-Software", path]).checked()
        let tags = try #require((try JSONSerialization.jsonObject(with: run.stdout) as? [[String: Any]])?.first)
        let exif = photo.exif
        // Held a quarter turn clockwise on an upright sensor: EXIF 6, "Right-top" as text.
        #expect(exif.orientation == Orientation(exifValue: 6))
        #expect(tags["Orientation"] as? Int == 6, "\(tags)")
        #expect(photo.metadata["Orientation"] == "Right-top")
        // The stored picture's size, as the format itself gives it (SOF, ispe, TIFF IFD0).
        #expect(exif.pixelDimensions?.width == tags["ImageWidth"] as? Int, "\(tags)")
        #expect(exif.pixelDimensions?.height == tags["ImageHeight"] as? Int, "\(tags)")
        #expect(exif.pixelDimensions == photo.resolvedSettings.photoDimensions)
        #expect(exif.make != nil && exif.make == tags["Make"] as? String, "\(tags)")
        #expect(exif.model != nil && exif.model == tags["Model"] as? String, "\(tags)")
        #expect(exif.software == tags["Software"] as? String, "\(tags)")
        let taken = try #require(exif.dateTimeOriginal)
        #expect(abs(taken.timeIntervalSince(photo.captureDate)) < 0.002, "\(taken) vs \(photo.captureDate)")
        // Carried from the value the block was written from, not read back from its text
        // (which keeps milliseconds at most): the very date.
        #expect(taken == photo.captureDate, "\(taken) vs \(photo.captureDate)")
        // No exposure controls on this camera: no exposure fields.
        #expect(exif.exposureTime == nil && exif.isoSpeed == nil && exif.exposureBias == nil)
    }

    @Test func outOfRangeLocationIsRefused() async throws {
        for location in [PhotoLocation(latitude: 90.5, longitude: 0), PhotoLocation(latitude: 0, longitude: -180.1),
                         PhotoLocation(latitude: .nan, longitude: 0), PhotoLocation(latitude: 0, longitude: 0, horizontalAccuracy: -1)] {
            do {
                _ = try await photo(format: .jpeg) { $0.metadata.location = location }
                Issue.record("\(location) was accepted")
            } catch let error as PhotoCaptureError {
                guard case .invalidMetadata = error.code else { Issue.record("\(error)"); continue }
            }
        }
    }
}
