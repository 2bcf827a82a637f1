import Foundation
import PhotoCapture
import Testing
import TestSupport

/// ``PhotoMetadata/regions`` as exiftool reads them back: Metadata Working
/// Group face regions in JPEG and HEIC, upright and written with Orientation 6 and 8 (and a TIFF
/// with Orientation 2), at the
/// place MWG's rule gives, worked out here by hand for each Orientation.
@Suite struct PhotoRegionTests {
    let folder: TemporaryDirectory

    init() throws { folder = try TemporaryDirectory("regions") }

    /// A face left of centre and high, a second one half out of the right edge, a third wholly
    /// outside the photo (normalised to the upright photo).
    static let face = NormalizedRect(x: 0.1, y: 0.2, width: 0.3, height: 0.25)
    static let halfOut = NormalizedRect(x: 0.8, y: 0.5, width: 0.4, height: 0.2)
    static let outside = NormalizedRect(x: 1.2, y: 0.1, width: 0.1, height: 0.1)

    /// One photo from a 320x240 synthetic camera mounted `mounting` degrees, compensation off
    /// (so the stored pixels keep the sensor's layout and the Orientation tag turns them).
    func photo(format: PhotoFormat, mounting: Int, mirrored: Bool = false, _ adjust: (inout PhotoSettings) -> Void) async throws -> Data {
        let camera = CaptureDevice.synthetic(.init(sensorMounting: SensorMounting(rotation: mounting, isMirrored: mirrored),
                                                   maximumSize: PixelSize(width: 320, height: 240), framesPerSecond: 200))
        let (session, output) = try await runningSession(camera)
        output.orientationCompensation = .off
        var settings = PhotoSettings(format: format)
        settings.heicEncodingSpeed = .ultrafast
        adjust(&settings)
        let photo = try await stoppingAfterwards(session) { try await output.capturePhoto(with: settings) }
        return try #require(photo.fileDataRepresentation())
    }

    /// exiftool's reading of the file's regions, orientation and stored size (`-struct`).
    func read(_ bytes: Data, named name: String) throws -> [String: Any] {
        let file = try folder.write([UInt8](bytes), named: name)
        #expect(try ExternalTool.exiftoolValidationProblems(file) == [], "\(name)")
        let run = try ExternalTool.run("exiftool", ["-j", "-n", "-struct", "-G1", "-XMP:all", "-IFD0:Orientation",
                                                    "-File:ImageWidth", "-File:ImageHeight", "-QuickTime:ImageWidth",
                                                    "-QuickTime:ImageHeight", "-IFD0:ImageWidth", "-IFD0:ImageHeight", file]).checked()
        return try #require((try JSONSerialization.jsonObject(with: run.stdout) as? [[String: Any]])?.first)
    }

    /// MWG's rule, by hand: the area's centre and size on the stored pixels, for an upright
    /// rectangle of a photo whose Orientation (EXIF) is `orientation`.
    static func expectedArea(of upright: NormalizedRect, orientation: Int) -> [Double] {
        let (cx, cy, w, h) = (upright.x + upright.width / 2, upright.y + upright.height / 2, upright.width, upright.height)
        switch orientation {
        case 1: return [cx, cy, w, h]
        // 6: the viewer turns the stored pixels 90° clockwise; stored (sx, sy) shows at
        // (1 − sy, sx), so an upright (u, v) was stored at (v, 1 − u).
        case 6: return [cy, 1 - cx, h, w]
        // 8: turned 90° counter-clockwise; stored (sx, sy) shows at (sy, 1 − sx).
        case 8: return [1 - cy, cx, h, w]
        case 3: return [1 - cx, 1 - cy, w, h]
        // 2: mirrored left-right.
        case 2: return [1 - cx, cy, w, h]
        default: Issue.record("no hand rule for orientation \(orientation)"); return []
        }
    }

    @Test(arguments: [(PhotoFormat.jpeg, 0, false), (.jpeg, 90, false), (.jpeg, 270, false), (.heic, 0, false), (.heic, 90, false),
                      (.heic, 270, false), (.tiff, 0, true)])
    func regionsLandWhereMWGPutsThem(format: PhotoFormat, mounting: Int, mirrored: Bool) async throws {
        let bytes = try await photo(format: format, mounting: mounting, mirrored: mirrored) { settings in
            settings.metadata.regions = [PhotoRegion(name: "Ann & <Bo>", bounds: Self.face),
                                         PhotoRegion(bounds: Self.halfOut), PhotoRegion(bounds: Self.outside)]
        }
        let tags = try read(bytes, named: "photo-\(mounting).\(["heic": "heic", "tiff": "tif"]["\(format)"] ?? "jpg")")
        let orientation = try #require(tags["IFD0:Orientation"] as? Int, "\(tags)")
        // A sensor mounted 90° counter-clockwise is shown turned back 90° counter-clockwise: 8.
        #expect(orientation == (mirrored ? 2 : [0: 1, 90: 8, 270: 6][mounting]), "the sensor mounting is not compensated: \(tags)")
        let info = try #require(tags["XMP-mwg-rs:RegionInfo"] as? [String: Any], "\(tags)")
        // AppliedToDimensions: the stored pixels, landscape as the sensor delivers them.
        let dimensions = try #require(info["AppliedToDimensions"] as? [String: Any])
        let width = tags["File:ImageWidth"] ?? tags["QuickTime:ImageWidth"] ?? tags["IFD0:ImageWidth"]
        let height = tags["File:ImageHeight"] ?? tags["QuickTime:ImageHeight"] ?? tags["IFD0:ImageHeight"]
        #expect(dimensions["W"] as? Int == 320 && dimensions["H"] as? Int == 240 && dimensions["Unit"] as? String == "pixel",
                "\(dimensions)")
        #expect(width as? Int == 320 && height as? Int == 240, "exiftool's stored size: \(tags)")

        let list = try #require(info["RegionList"] as? [[String: Any]])
        #expect(list.count == 2, "the region wholly outside is left out: \(list)")
        let clipped = NormalizedRect(x: 0.8, y: 0.5, width: 0.2, height: 0.2)
        let expectations: [(NormalizedRect, String?)] = [(Self.face, "Ann & <Bo>"), (clipped, nil)]
        for (region, (upright, name)) in zip(list, expectations) {
            #expect(region["Type"] as? String == "Face")
            #expect(region["Name"] as? String == name, "\(region)")
            let area = try #require(region["Area"] as? [String: Any])
            #expect(area["Unit"] as? String == "normalized")
            let read = ["X", "Y", "W", "H"].compactMap { area[$0] as? Double }
            let expected = Self.expectedArea(of: upright, orientation: orientation)
            #expect(read.count == 4 && zip(read, expected).allSatisfy { abs($0 - $1) < 1e-5 },
                    "orientation \(orientation): \(read) vs \(expected)")
        }
    }

    /// Merged into an app's packet, the regions join its `rdf:RDF` and the app's properties stay;
    /// its orientation is still set to the photo's.
    @Test(arguments: [PhotoFormat.jpeg, .heic])
    func regionsJoinTheAppsPacket(format: PhotoFormat) async throws {
        let bytes = try await photo(format: format, mounting: 90) { settings in
            settings.metadata.xmp = PhotoXMPTests.bareRDF
            settings.metadata.regions = [PhotoRegion(bounds: Self.face)]
        }
        let tags = try read(bytes, named: "merged.\(format == .heic ? "heic" : "jpg")")
        #expect(tags["XMP-dc:Rights"] as? String == "CC BY 4.0", "\(tags)")
        #expect(tags["XMP-tiff:Orientation"] as? Int == 8 && tags["IFD0:Orientation"] as? Int == 8, "\(tags)")
        let info = try #require(tags["XMP-mwg-rs:RegionInfo"] as? [String: Any], "\(tags)")
        let area = try #require((info["RegionList"] as? [[String: Any]])?.first?["Area"] as? [String: Any])
        let read = ["X", "Y", "W", "H"].compactMap { area[$0] as? Double }
        #expect(zip(read, Self.expectedArea(of: Self.face, orientation: 8)).allSatisfy { abs($0 - $1) < 1e-5 }, "\(read)")
    }

    /// A DNG stays as the sensor delivered it: no regions in it.
    @Test func aDNGGetsNoRegions() async throws {
        let bytes = try await photo(format: .dng, mounting: 0) { $0.metadata.regions = [PhotoRegion(bounds: Self.face)] }
        let tags = try read(bytes, named: "raw.dng")
        #expect(tags["XMP-mwg-rs:RegionInfo"] == nil, "\(tags)")
    }

    /// Regions photocap cannot write are refused before capture, saying why.
    @Test func badRegionsAreRefused() async throws {
        let cases: [(PhotoMetadata, String)] = [
            (PhotoMetadata(regions: [PhotoRegion(bounds: Self.face), PhotoRegion(bounds: NormalizedRect(x: 0, y: 0, width: 0, height: 0.1))]),
             "region 2 has bounds"),
            (PhotoMetadata(regions: [PhotoRegion(bounds: NormalizedRect(x: .nan, y: 0, width: 0.1, height: 0.1))]), "must be finite"),
            (PhotoMetadata(xmp: """
                <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
                <rdf:Description rdf:about="" xmlns:mwg-rs="http://www.metadataworkinggroup.com/schemas/regions/">
                <mwg-rs:Regions rdf:parseType="Resource"/></rdf:Description></rdf:RDF></x:xmpmeta>
                """, regions: [PhotoRegion(bounds: Self.face)]), "mwg-rs region properties of its own"),
            (PhotoMetadata(regions: Array(repeating: PhotoRegion(bounds: Self.face), count: 200)), "at most 65502 fit"),
        ]
        for (metadata, message) in cases {
            do {
                _ = try await photo(format: .jpeg, mounting: 0) { $0.metadata = metadata }
                Issue.record("accepted: \(message)")
            } catch let error as PhotoCaptureError {
                #expect("\(error)".contains(message), "\(error)")
            }
        }
    }
}
