import Foundation
import PhotoCapture
import PhotoCaptureTesting
import Testing
import TestSupport

/// `photocap shoot --rotation auto` against python-dbusmock's iio-sensor-proxy on a private bus
/// (reached through DBUS_SYSTEM_BUS_ADDRESS, as on a device the system bus is), and the checks
/// of `--rotation`.
@Suite struct ShootRotationTests {
    /// The acceptance's turns and what each photo must carry, written out independently of the
    /// code ("left-up": the device turned a quarter clockwise, EXIF 6).
    static let turns: [(orientation: String, angle: Int, exif: Int)] = [
        ("normal", 0, 1), ("right-up", 270, 8), ("bottom-up", 180, 3), ("left-up", 90, 6),
    ]

    static func photocap(_ arguments: [String], bus: String) throws -> ExternalTool.Output {
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = bus
        return try ExternalTool.run(TestPaths.photocap, arguments, environment: environment)
    }

    @Test func autoRotationTakesEachPhotoAsTheDeviceIsHeld() throws {
        let proxy = try SensorProxyMock(hasAccelerometer: true, orientation: "normal")
        let folder = try TemporaryDirectory("photocap-shoot-rotation")
        // A sensor mounted a quarter turn: the pixels are turned upright, the metadata says how
        // the device was held.
        let scene = SyntheticScene.image(size: PixelSize(width: 480, height: 640))
        for turn in Self.turns {
            try proxy.turn(to: turn.orientation)
            let path = folder.path("\(turn.orientation).jpg")
            let run = try Self.photocap(["shoot", "--device", "synthetic", "--size", "640x480", "--sensor-rotation", "90",
                                         "--rotation", "auto", "--quality", "92", "--output", path], bus: proxy.address)
            #expect(run.status == 0, "\(turn.orientation): \(run.stderr)")
            #expect(!run.stderr.contains("--rotation auto"), "no fallback note: \(run.stderr)")
            let exif = try ExternalTool.run("exiftool", ["-n", "-s3", "-Orientation", path]).text
            #expect(exif.trimmingCharacters(in: .whitespacesAndNewlines) == "\(turn.exif)", "\(turn.orientation)")
            let upright = scene.transformed(by: Orientation(clockwiseDegrees: turn.angle)!)
            let comparison = ImageComparison(actual: try ReferenceDecoder.imageMagickAutoOriented(path), golden: upright,
                                             tolerance: GoldenTolerance(meanAbsoluteDifference: 4))
            #expect(comparison.isWithinTolerance, "\(turn.orientation): \(comparison)")
        }
        // Each run claimed the accelerometer and let it go.
        #expect(try proxy.accelerometerOwners() == [])
    }

    @Test func autoRotationWithoutAnAccelerometerSaysSoAndShootsAtZero() throws {
        let proxy = try SensorProxyMock(hasAccelerometer: false)
        let folder = try TemporaryDirectory("photocap-shoot-rotation")
        let path = folder.path("photo.jpg")
        let run = try Self.photocap(["shoot", "--device", "synthetic", "--size", "640x480", "--rotation", "auto",
                                     "--output", path, "--json"], bus: proxy.address)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("photocap: --rotation auto: no rotation source: iio-sensor-proxy reports no accelerometer; taking photos at rotation 0"),
                "\(run.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any])
        #expect(report["orientationWritten"] as? Int == 1)
    }

    @Test func autoRotationWithoutAProxySaysSo() throws {
        let bus = try SensorProxyMock(hasAccelerometer: nil)
        let folder = try TemporaryDirectory("photocap-shoot-rotation")
        let run = try Self.photocap(["shoot", "--device", "synthetic", "--size", "640x480", "--rotation", "auto",
                                     "--output", folder.path("photo.jpg")], bus: bus.address)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("--rotation auto: no rotation source: iio-sensor-proxy (net.hadess.SensorProxy) is not running"),
                "\(run.stderr)")
    }

    @Test(arguments: ["45", "-90", "360", "left-up", "Auto"])
    func rotationValuesAreChecked(value: String) throws {
        let run = try ExternalTool.run(TestPaths.photocap, ["shoot", "--device", "synthetic", "--rotation=\(value)"])
        #expect(run.status == 64)
        #expect(run.stderr.contains("--rotation must be 0, 90, 180, 270 or auto, got '\(value)'"), "\(run.stderr)")
    }

    /// `--sensor-rotation` takes the same quarter turns (one parser for both) and refuses the
    /// rest in the same words, before any camera is opened.
    @Test(arguments: ["45", "-90", "360", "auto", "ninety"])
    func sensorRotationValuesAreChecked(value: String) throws {
        let run = try ExternalTool.run(TestPaths.photocap, ["shoot", "--device", "synthetic", "--sensor-rotation=\(value)"])
        #expect(run.status == 64)
        #expect(run.stderr.contains("--sensor-rotation must be 0, 90, 180 or 270, got '\(value)'"), "\(run.stderr)")
    }
}
