import Codecs
import Foundation
import PhotoCapture
import Testing
import TestSupport

/// Acceptance 4: for sensor rotation × mirror × device rotation × compensation mode, a RAW +
/// JPEG request from the synthetic camera gives
/// - a DNG whose CFA data is byte-identical to the captured frame and whose Orientation tag is
///   the whole correction whatever the mode, so that a RAW developer applying it — LibRaw with
///   its flip, and the dcraw program — shows the scene upright;
/// - a JPEG that follows the compensation mode like any processed photo: stored size and
///   written orientation as the mode prescribes, upright in ImageMagick `-auto-orient`.
@Suite struct RawOrientationMatrixTests {
    static let sensorSize = RawCaptureTests.size
    static let mountings = OrientationMatrixTests.mountings
    static let deviceRotations = [0, 90, 180, 270]

    /// Mean absolute difference (0-255) from the upright scene. Measured: LibRaw and dcraw
    /// developments at most 0.81, the JPEG at most 1.29; any wrong rotation or mirror of this
    /// scene is over 40.
    static let tolerance = 4.0

    @Test(arguments: mountings)
    func theDNGCarriesTheWholeCorrectionAndTheJPEGFollowsTheMode(mounting: SensorMounting) async throws {
        let folder = try TemporaryDirectory("raw-matrix")
        let (session, output) = try await RawCaptureTests.output(mounting: mounting)
        defer { Task { await session.stopRunning() } }
        let sceneSize = mounting.compensation.apply(to: Self.sensorSize)
        let scene = SyntheticScene.image(size: sceneSize)
        var files: [String] = []

        for rotation in Self.deviceRotations {
            let device = Orientation(clockwiseDegrees: rotation)!
            let whole = mounting.compensation.followed(by: device)
            let upright = scene.transformed(by: device)
            for mode in OrientationCompensation.allCases {
                let label = "\(mounting) device \(rotation)° \(mode)"
                var settings = PhotoSettings(rawPixelFormat: .sgbrg10, processedFormat: .jpeg)
                (settings.rotationAngle, settings.orientationCompensation, settings.quality) = (rotation, .mode(mode), 92)
                var photos: [CapturePhoto] = []
                for try await photo in try output.capturePhotos(with: settings) { photos.append(photo) }
                try #require(photos.count == 2, "\(label)")
                let (raw, jpeg) = (photos[0], photos[1])

                // The DNG: the frame's bytes unchanged, LibRaw reads them back, the whole
                // correction in Orientation — in every mode.
                let dng = [UInt8](try #require(raw.fileDataRepresentation()))
                let frame = try #require(raw.rawDetails?.frame)
                #expect(frame.size == Self.sensorSize, "\(label)")
                let frameBytes = frame.storage.withUnsafeBytes { [UInt8]($0) }
                #expect(dng.firstRange(of: frameBytes) != nil, "\(label): CFA data differs from the frame")
                let libRaw = try RAWDeveloper(data: dng)
                #expect(libRaw.rawValues() == frameBytes.withUnsafeBytes { Array($0.bindMemory(to: UInt16.self)) }, "\(label)")
                #expect(libRaw.orientation == whole, "\(label): LibRaw reads \(libRaw.orientation)")
                #expect(try ImageFileInfo(data: dng).orientation == whole, "\(label)")
                #expect(raw.writtenOrientation == whole && !raw.isSensorOrientationCompensationApplied, "\(label)")
                let shown = try libRaw.develop(applyingOrientation: true)
                #expect(shown.size == upright.size, "\(label): LibRaw shows \(shown.size)")
                if shown.size == upright.size {
                    let difference = shown.meanAbsoluteDifference(to: upright)
                    #expect(difference <= Self.tolerance, "\(label): LibRaw's view differs from upright by \(difference)")
                }
                let dngPath = folder.path("\(rotation)-\(mode).dng")
                try raw.write(to: dngPath)
                files.append(dngPath)
                if mode == .sensor {  // the DNG does not depend on the mode: one dcraw run per rotation
                    let viewed = try ReferenceDecoder.dcraw(dngPath)
                    #expect(viewed.size == upright.size, "\(label): dcraw shows \(viewed.size)")
                    if viewed.size == upright.size {
                        let difference = viewed.meanAbsoluteDifference(to: upright)
                        #expect(difference <= Self.tolerance, "\(label): dcraw's view differs from upright by \(difference)")
                    }
                }

                // The JPEG follows the mode.
                let (stored, written): (PixelSize, Orientation) = switch mode {
                case .sensor: (sceneSize, device)
                case .off: (Self.sensorSize, whole)
                case .upright: (upright.size, .up)
                }
                #expect(jpeg.resolvedSettings.photoDimensions == stored, "\(label)")
                #expect(jpeg.writtenOrientation == written, "\(label)")
                let jpegPath = folder.path("\(rotation)-\(mode).jpg")
                try jpeg.write(to: jpegPath)
                files.append(jpegPath)
                let info = try ImageFileInfo(data: [UInt8](Data(contentsOf: URL(fileURLWithPath: jpegPath))))
                #expect(info.storedSize == stored && info.orientation == written, "\(label): \(info.storedSize) \(info.orientation)")
                let viewed = try ReferenceDecoder.imageMagickAutoOriented(jpegPath)
                #expect(viewed.size == upright.size, "\(label): the JPEG shows \(viewed.size)")
                if viewed.size == upright.size {
                    let difference = viewed.meanAbsoluteDifference(to: upright)
                    #expect(difference <= Self.tolerance, "\(label): the JPEG differs from upright by \(difference)")
                }
            }
        }
        let run = try ExternalTool.run("exiftool", ["-validate", "-warning", "-error", "-a"] + files)
        let verdicts = run.text.split(separator: "\n").filter { $0.hasPrefix("Validate") }
        #expect(verdicts.count == files.count && verdicts.allSatisfy { $0.hasSuffix(": OK") }, "\(mounting): \(run.text)")
    }
}
