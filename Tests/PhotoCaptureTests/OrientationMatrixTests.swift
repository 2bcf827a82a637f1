import Codecs
import Foundation
import PhotoCapture
import PhotoCaptureTesting
import Testing
import TestSupport

/// The capture matrix of the orientation model (Docs.docc/Architecture.md): sensor rotation ×
/// mirror × device rotation × format × mode, from the synthetic camera at 1000x750 (not
/// MCU-aligned). Every file is decoded by a third-party reader and turned upright with its own metadata the way a viewer does
/// (ImageMagick `-auto-orient` for JPEG and TIFF; libheif's API for HEIC), and must equal the
/// upright scene. Stored size and written orientation must be what the mode prescribes, and
/// exiftool must validate every file.
@Suite struct OrientationMatrixTests {
    static let sensorSize = PixelSize(width: 1000, height: 750)
    static let mountings = [0, 90, 180, 270].flatMap { rotation in
        [false, true].map { SensorMounting(rotation: rotation, isMirrored: $0) }
    }
    static let deviceRotations = [0, 90, 180, 270]
    static let formats: [PhotoFormat] = [.jpeg, .heic, .tiff]
    static let modes = OrientationCompensation.allCases

    /// Mean absolute difference (0-255) against the upright scene. Measured: JPEG q92 and HEIC
    /// about 1-2, TIFF below 1; any wrong rotation or mirror of this scene is above 40.
    static func tolerance(_ format: PhotoFormat) -> Double { format == .tiff ? 2 : 4 }

    @Test(arguments: mountings)
    func everyCombinationLooksUprightInAViewer(mounting: SensorMounting) async throws {
        let folder = try TestPaths.temporaryFolder("photocap-matrix")
        defer { try? FileManager.default.removeItem(at: folder) }
        let session = CaptureSession()
        let output = PhotoOutput()
        try session.addInput(.synthetic(.init(sensorMounting: mounting, maximumSize: Self.sensorSize, framesPerSecond: 1000)))
        try session.addOutput(output)
        try await session.startRunning()
        try await stoppingAfterwards(session) {

            // What the camera looks at, upright for the device held naturally.
            let sceneSize = mounting.compensation.apply(to: Self.sensorSize)
            let scene = SyntheticScene.image(size: sceneSize)
            var files: [PhotoFormat: [String]] = [:]

            for rotation in Self.deviceRotations {
                // Held turned `rotation` clockwise, the world is the scene turned the same way.
                let upright = scene.transformed(by: Orientation(clockwiseDegrees: rotation)!)
                for format in Self.formats {
                    for mode in Self.modes {
                        let label = "\(mounting) device \(rotation)° \(format) \(mode)"
                        var settings = PhotoSettings(format: format)
                        settings.rotationAngle = rotation
                        settings.orientationCompensation = .mode(mode)
                        settings.quality = 92
                        settings.heicEncodingSpeed = .ultrafast
                        let photo = try await output.capturePhoto(with: settings)
                        let path = folder.appendingPathComponent("\(files[format, default: []].count)-\(mode).\(format.fileExtension!)").path
                        try photo.write(to: path)
                        files[format, default: []].append(path)

                        // What the mode prescribes for the stored pixels and the metadata.
                        let device = Orientation(clockwiseDegrees: rotation)!
                        let (storedSize, written): (PixelSize, Orientation) = switch mode {
                        case .sensor: (sceneSize, device)
                        case .off: (Self.sensorSize, mounting.compensation.followed(by: device))
                        case .upright: (upright.size, .up)
                        }
                        #expect(photo.resolvedSettings.photoDimensions == storedSize, "\(label)")
                        #expect(photo.writtenOrientation == written, "\(label)")
                        #expect(photo.isSensorOrientationCompensationApplied == (mode != .off), "\(label)")

                        let info = try ImageFileInfo(data: [UInt8](Data(contentsOf: URL(fileURLWithPath: path))))
                        #expect(info.storedSize == storedSize, "\(label): stored \(info.storedSize)")
                        #expect(info.orientation == written, "\(label): file says \(info.orientation)")
                        if format != .tiff { #expect(info.exifOrientation == written, "\(label): EXIF disagrees") }

                        // The golden comparison of PhotoCaptureTesting: a failure names size,
                        // orientation (which turn or mirror) or pixels, with the figures.
                        let shown = try ViewerImage.shown(path, format: format)
                        let comparison = ImageComparison(actual: shown, golden: upright,
                                                         tolerance: GoldenTolerance(meanAbsoluteDifference: Self.tolerance(format)))
                        #expect(comparison.isWithinTolerance, "\(label): \(comparison)")
                    }
                }
            }
            // exiftool judges every file, one run per format.
            for (format, paths) in files {
                let run = try ExternalTool.run("exiftool", ["-validate", "-warning", "-error", "-a"] + paths)
                let verdicts = run.text.split(separator: "\n").filter { $0.hasPrefix("Validate") }
                #expect(verdicts.count == paths.count, "\(mounting) \(format): \(run.text)")
                #expect(verdicts.allSatisfy { $0.hasSuffix(": OK") }, "\(mounting) \(format): \(run.text)")
                #expect(!run.text.contains("Warning") && !run.text.contains("Error"), "\(mounting) \(format): \(run.text)")
            }
        }
    }
}
