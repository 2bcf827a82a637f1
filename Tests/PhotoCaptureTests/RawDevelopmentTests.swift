import Codecs
import Foundation
import PhotoCapture
import Testing
import TestSupport

/// Developing existing DNGs (`RawDevelopment`, behind `photocap develop`): the same pipeline as
/// a RAW + processed capture, the orientation split the DNG records, and refusals.
@Suite struct RawDevelopmentTests {
    /// Developing a capture's DNG later gives the processed photo of the capture itself, in every
    /// compensation mode: the XMP record restores the split of the Orientation tag.
    @Test(arguments: OrientationCompensation.allCases)
    func developingLaterMatchesTheCapturesProcessedPhoto(mode: OrientationCompensation) async throws {
        let (session, output) = try await RawCaptureTests.output(mounting: SensorMounting(rotation: 270, isMirrored: true))
        defer { Task { await session.stopRunning() } }
        var settings = PhotoSettings(rawPixelFormat: .srggb12, processedFormat: .tiff)
        (settings.rotationAngle, settings.orientationCompensation) = (90, .mode(mode))
        var photos: [CapturePhoto] = []
        for try await photo in try output.capturePhotos(with: settings) { photos.append(photo) }
        let dng = try #require(photos[0].fileDataRepresentation())

        var later = PhotoSettings(format: .tiff)
        later.orientationCompensation = .mode(mode)
        let developed = try RawDevelopment.developPhoto(fromDNG: dng, settings: later)
        #expect(developed.resolvedSettings.uniqueID == later.uniqueID)
        #expect(developed.encodingRoute == .developed)
        #expect(developed.writtenOrientation == photos[1].writtenOrientation, "\(mode)")
        #expect(developed.resolvedSettings.pixelTransform == photos[1].resolvedSettings.pixelTransform, "\(mode)")
        #expect(developed.isSensorOrientationCompensationApplied == (mode != .off))
        #expect(try developed.pixelBuffer.rgbImage() == photos[1].pixelBuffer.rgbImage(), "\(mode)")
        #expect(developed.captureDate.timeIntervalSince(photos[0].captureDate).magnitude < 1)
    }

    /// A DNG from elsewhere (no XMP record): its Orientation is taken as how the device was held,
    /// a mirror in it as the sensor's, so `.sensor` turns only the mirror into the pixels.
    @Test(arguments: Orientation.allCases)
    func foreignDNGsTakeTheirOrientationAsTheDevicesTurn(orientation: Orientation) throws {
        let size = PixelSize(width: 320, height: 240)
        let scene = SyntheticScene.image(size: size)
        let frame = try FrameBuilder.frame(from: scene, format: .sbggr8)  // display-referred samples
        var metadata = DNGMetadata(exif: EXIFMetadata(orientation: orientation), uniqueCameraModel: "elsewhere")
        metadata.exif.dateTimeOriginal = Date(timeIntervalSince1970: 1_700_000_000)
        metadata.thumbnail = try scene.scaled(to: PixelSize(width: 160, height: 120))
        let dng = Data(try DNGFile.encode(frame, metadata: metadata))

        var settings = PhotoSettings(format: .uncompressed)
        let sensor = try RawDevelopment.developPhoto(fromDNG: dng, settings: settings)
        let mirror: Orientation = orientation.isMirrored ? .upMirrored : .up
        #expect(sensor.resolvedSettings.pixelTransform == mirror, "\(orientation)")
        #expect(sensor.writtenOrientation == mirror.inverse.followed(by: orientation), "\(orientation)")
        #expect(!sensor.writtenOrientation.isMirrored)
        #expect(abs(sensor.captureDate.timeIntervalSince1970 - 1_700_000_000) < 1, "the DNG's DateTimeOriginal")
        settings = PhotoSettings(format: .uncompressed)
        settings.orientationCompensation = .mode(.off)
        let none = try RawDevelopment.developPhoto(fromDNG: dng, settings: settings)
        #expect(none.resolvedSettings.pixelTransform == .up && none.writtenOrientation == orientation)
        settings = PhotoSettings(format: .uncompressed)
        settings.orientationCompensation = .mode(.upright)
        let upright = try RawDevelopment.developPhoto(fromDNG: dng, settings: settings)
        #expect(upright.writtenOrientation == .up)
        // What a viewer shows is the same in every mode.
        let shownSensor = try sensor.pixelBuffer.rgbImage().transformed(by: sensor.writtenOrientation)
        let shownNone = try none.pixelBuffer.rgbImage().transformed(by: orientation)
        #expect(shownSensor.meanAbsoluteDifference(to: shownNone) < 1, "\(orientation)")
        #expect(try upright.pixelBuffer.rgbImage().meanAbsoluteDifference(to: shownNone) < 1, "\(orientation)")
    }

    /// A record that no longer agrees with the Orientation tag (changed by another tool) is not
    /// trusted: the tag wins.
    @Test func anOrientationChangedByAnotherToolWins() async throws {
        let folder = try TemporaryDirectory("raw-development")
        let (photo, path) = try await Self.dngOfASensorTurnedAQuarter(in: folder, named: "edited.dng")
        #expect(photo.writtenOrientation == .left)
        try ExternalTool.run("exiftool", ["-overwrite_original", "-n", "-IFD0:Orientation=3", path]).checked()
        let developed = try RawDevelopment.developPhoto(fromDNG: try Data(contentsOf: URL(fileURLWithPath: path)),
                                                        settings: PhotoSettings(format: .jpeg))
        #expect(developed.resolvedSettings.pixelTransform == .up)
        #expect(developed.writtenOrientation == .down)
    }

    /// ExifTool rewrites a DNG's XMP in its own layout, photocap's properties as elements where
    /// photocap wrote attributes: the record is read from the document all the same, so the
    /// development still splits the Orientation as the capture did (the sensor's quarter turn
    /// into the pixels), not as for a DNG from elsewhere (all of it left in the tag).
    @Test func aRecordRewrittenByExifToolIsStillRead() async throws {
        let folder = try TemporaryDirectory("raw-development-exiftool")
        let (photo, path) = try await Self.dngOfASensorTurnedAQuarter(in: folder, named: "rewritten.dng")
        try ExternalTool.run("exiftool", ["-overwrite_original", "-XMP-dc:Title=rewritten", path]).checked()
        let packet = try ExternalTool.run("exiftool", ["-b", "-XMP", path]).checked().text
        #expect(packet.contains("<photocap:SensorRotation>90</photocap:SensorRotation>"), "\(packet)")
        #expect(!packet.contains("photocap:SensorRotation="), "ExifTool kept photocap's attribute spelling: \(packet)")

        let asCaptured = try RawDevelopment.developPhoto(fromDNG: try #require(photo.fileDataRepresentation()),
                                                         settings: PhotoSettings(format: .uncompressed))
        let rewritten = try RawDevelopment.developPhoto(fromDNG: try Data(contentsOf: URL(fileURLWithPath: path)),
                                                        settings: PhotoSettings(format: .uncompressed))
        #expect(asCaptured.resolvedSettings.pixelTransform != .up && asCaptured.writtenOrientation == .up)
        #expect(rewritten.resolvedSettings.pixelTransform == asCaptured.resolvedSettings.pixelTransform)
        #expect(rewritten.writtenOrientation == asCaptured.writtenOrientation)
    }

    /// A DNG captured on a sensor mounted a quarter turn clockwise, written to `name` in `folder`.
    static func dngOfASensorTurnedAQuarter(in folder: TemporaryDirectory, named name: String) async throws -> (CapturePhoto, String) {
        let (session, output) = try await RawCaptureTests.output(mounting: SensorMounting(rotation: 90))
        defer { Task { await session.stopRunning() } }
        let photo = try await output.capturePhoto(with: PhotoSettings(format: .dng))
        let path = folder.path(name)
        try photo.write(to: path)
        return (photo, path)
    }

    @Test func unreadableFilesAndRawTargetsAreRefused() async throws {
        let (session, output) = try await RawCaptureTests.output()
        defer { Task { await session.stopRunning() } }
        let dng = try #require(try await output.capturePhoto(with: PhotoSettings(format: .dng)).fileDataRepresentation())
        for cut in [dng.prefix(0), dng.prefix(100), dng.prefix(dng.count / 2), dng.prefix(dng.count - 2)] {
            let error = #expect(throws: PhotoCaptureError.self) {
                try RawDevelopment.developPhoto(fromDNG: Data(cut), settings: PhotoSettings(), name: "cut.dng")
            }
            guard case .unreadableRaw(path: "cut.dng", let cause)? = error?.code else {
                Issue.record("cut to \(cut.count): \(String(describing: error))")
                continue
            }
            // The DNG reader's error travels typed, and the message is still built from it.
            #expect(error?.underlyingError as? CodecError == cause)
            #expect(PhotoCaptureError(.unreadableRaw(path: "cut.dng", error: cause)).description
                    == "cannot develop cut.dng: \(cause.description)")
        }
        let jpeg = try #require(try await output.capturePhoto(with: PhotoSettings(format: .jpeg)).fileDataRepresentation())
        let notDNG = #expect(throws: PhotoCaptureError.self) { try RawDevelopment.developPhoto(fromDNG: jpeg, settings: PhotoSettings()) }
        #expect("\(notDNG!)".contains("not a DNG"))
        let rawTarget = #expect(throws: PhotoCaptureError.self) {
            try RawDevelopment.developPhoto(fromDNG: dng, settings: PhotoSettings(format: .dng))
        }
        #expect(rawTarget?.code == .developmentFormatUnsupported(.dng))
    }
}
