import Codecs
import Foundation
import PhotoCapture
import PhotoCaptureTesting
import Testing
import TestSupport

/// Dynamic aspect ratio and zoom against what a viewer shows: every
/// ratio × sensor rotation {0, 90} × device rotation {0, 90} × compensation {on, off}, from the
/// synthetic camera at 1000x750 (not MCU-aligned). Each file is decoded by ImageMagick and turned
/// upright with its own metadata (`-auto-orient`); the picture must have the requested ratio
/// within one pixel, be the largest such centred crop of the upright scene, and equal that crop
/// of ``SyntheticScene`` within the golden tolerance. exiftool must validate every file.
@Suite struct AspectRatioMatrixTests {
    static let sensorSize = PixelSize(width: 1000, height: 750)
    static let sensorRotations = [0, 90]
    static let deviceRotations = [0, 90]
    static let modes: [OrientationCompensation] = [.sensor, .off]
    /// Mean absolute difference (0-255), as the orientation matrix measures JPEG q92 (about 1-2).
    /// A crop one pixel off centre moves the scene's few edges by a pixel (under 1); a crop from
    /// the wrong place, or the whole frame squeezed to the ratio, is above 10.
    static let tolerance = 4.0

    struct Case: CustomTestStringConvertible, Sendable {
        let ratio: AspectRatio
        let zoom: Double
        var testDescription: String { "\(ratio)" + (zoom == 1 ? "" : " zoom \(zoom)") }
    }

    static let cases = AspectRatio.supported.map { Case(ratio: $0, zoom: 1) }
        + [Case(ratio: .ratio16x9, zoom: 1.5), Case(ratio: .ratio3x4, zoom: 2.5)]

    /// The upright scene's centred crop with `ratio` narrowed by `zoom`, computed from the
    /// definition in real numbers: its exact size and where it lies.
    static func expectedCrop(of upright: PixelSize, ratio: AspectRatio, zoom: Double) -> (width: Double, height: Double) {
        let (uw, uh) = (Double(upright.width), Double(upright.height))
        let r = Double(ratio.width) / Double(ratio.height)
        return uw / uh <= r ? (uw / zoom, uw / zoom / r) : (uh / zoom * r, uh / zoom)
    }

    /// A running synthetic camera mounted as given, framed before it starts.
    static func session(_ mounting: SensorMounting, ratio: AspectRatio,
                        zoom: Double = 1) async throws -> (CaptureSession, PhotoOutput) {
        let device = CaptureDevice.synthetic(.init(sensorMounting: mounting, maximumSize: sensorSize, framesPerSecond: 1000))
        let session = CaptureSession()
        let output = PhotoOutput()
        try session.addInput(device)
        try session.addOutput(output)
        try await device.setFraming(aspectRatio: ratio, videoZoomFactor: zoom)
        try await session.startRunning()
        return (session, output)
    }

    @Test(arguments: cases)
    func everyRatioLooksRightInAViewer(_ item: Case) async throws {
        let folder = try TemporaryDirectory("photocap-aspect")
        var files: [String] = []
        for sensorRotation in Self.sensorRotations {
            let mounting = SensorMounting(rotation: sensorRotation)
            let (session, output) = try await Self.session(mounting, ratio: item.ratio, zoom: item.zoom)
            let scene = SyntheticScene.image(size: mounting.compensation.apply(to: Self.sensorSize))
            for deviceRotation in Self.deviceRotations {
                let upright = scene.transformed(by: Orientation(clockwiseDegrees: deviceRotation)!)
                for mode in Self.modes {
                    let label = "\(item.testDescription) sensor \(sensorRotation)° device \(deviceRotation)° \(mode)"
                    var settings = PhotoSettings(format: .jpeg)
                    settings.rotationAngle = deviceRotation
                    settings.orientationCompensation = .mode(mode)
                    settings.quality = 92
                    let photo = try await output.capturePhoto(with: settings)
                    let resolved = photo.resolvedSettings
                    // Nothing to crop when the upright picture already has the ratio.
                    let exact = Self.expectedCrop(of: upright.size, ratio: item.ratio, zoom: item.zoom)
                    let whole = exact.width == Double(upright.size.width) && exact.height == Double(upright.size.height)
                    #expect(resolved.framing.cropMethod == (whole ? .none : .software), "\(label)")
                    #expect(resolved.framing.aspectRatio == item.ratio && resolved.framing.videoZoomFactor == item.zoom)
                    let path = try folder.write([UInt8](photo.fileDataRepresentation()!), named: "\(files.count).jpg")
                    files.append(path)

                    // A viewer shows the upright picture at the requested ratio.
                    let shown = try ReferenceDecoder.imageMagickAutoOriented(path)
                    #expect(shown.size == resolved.displayedPhotoDimensions, "\(label): shows \(shown.size)")
                    let (w, h) = (Double(shown.size.width), Double(shown.size.height))
                    let ratioError = min(abs(h - w * Double(item.ratio.height) / Double(item.ratio.width)),
                                         abs(w - h * Double(item.ratio.width) / Double(item.ratio.height)))
                    #expect(ratioError <= 1, "\(label): \(shown.size) is not \(item.ratio)")
                    #expect(abs(w - exact.width) <= 2 && abs(h - exact.height) <= 2,
                            "\(label): \(shown.size), the largest crop is \(exact)")
                    // The stored pixels are the sensor's crop without compensation, turned with it.
                    let stored = try ReferenceDecoder.imageMagickStored(path).size
                    let expectedStored = mode == .off ? mounting.compensation.followed(by: Orientation(clockwiseDegrees: deviceRotation)!)
                        .inverse.apply(to: shown.size) : Orientation(clockwiseDegrees: deviceRotation)!.inverse.apply(to: shown.size)
                    #expect(stored == expectedStored, "\(label): stored \(stored)")
                    #expect(stored == resolved.photoDimensions, "\(label)")

                    // And it is the centre of the upright scene.
                    guard shown.size.width <= upright.size.width, shown.size.height <= upright.size.height else { continue }
                    let centre = PixelRect(x: (upright.size.width - shown.size.width) / 2,
                                           y: (upright.size.height - shown.size.height) / 2, size: shown.size)
                    let difference = shown.meanAbsoluteDifference(to: upright.cropped(to: centre))
                    #expect(difference <= Self.tolerance, "\(label): differs from the scene's centre by \(difference)")
                }
            }
            await session.stopRunning()
        }
        let run = try ExternalTool.run("exiftool", ["-validate", "-warning", "-error", "-a"] + files)
        let verdicts = run.text.split(separator: "\n").filter { $0.hasPrefix("Validate") }
        #expect(verdicts.count == files.count && verdicts.allSatisfy { $0.hasSuffix(": OK") }, "\(run.text)")
    }

    /// HEIC (libheif applies irot) and TIFF carry the crop the same way: 1:1 from a sensor
    /// mounted at 90°, with and without compensation.
    @Test(arguments: [PhotoFormat.heic, .tiff])
    func heicAndTIFFAreCroppedAlike(_ format: PhotoFormat) async throws {
        let folder = try TemporaryDirectory("photocap-aspect")
        let mounting = SensorMounting(rotation: 90)
        let (session, output) = try await Self.session(mounting, ratio: .ratio1x1)
        let upright = SyntheticScene.image(size: mounting.compensation.apply(to: Self.sensorSize))
        for mode in Self.modes {
            var settings = PhotoSettings(format: format)
            settings.orientationCompensation = .mode(mode)
            settings.heicEncodingSpeed = .ultrafast
            settings.quality = 92
            let photo = try await output.capturePhoto(with: settings)
            let path = try folder.write([UInt8](photo.fileDataRepresentation()!), named: "\(mode).\(format.fileExtension!)")
            let shown = try ViewerImage.shown(path, format: format)
            let centre = PixelRect(x: 0, y: 125, size: PixelSize(width: 750, height: 750))
            let comparison = ImageComparison(actual: shown, golden: upright.cropped(to: centre),
                                             tolerance: GoldenTolerance(meanAbsoluteDifference: Self.tolerance))
            #expect(comparison.isWithinTolerance, "\(format) \(mode): \(comparison)")
            #expect(try ExternalTool.exiftoolValidationProblems(path) == [])
        }
        await session.stopRunning()
    }
}
