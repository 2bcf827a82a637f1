import PhotoCapture
import Testing
import V4L2
import V4L2Testing

/// ``CaptureDevice/position`` from a V4L2 driver's camera orientation, over ``FakeV4L2Driver``.
@Suite struct DevicePositionTests {
    /// The driver's camera orientation is Apple's position: front and back as they are, an
    /// external camera or a driver without the control unspecified; a front camera's photos are
    /// mirrored.
    @Test(arguments: [(V4L2CameraLocation?.some(.front), CaptureDevice.Position.front), (.back, .back),
                      (.external, .unspecified), (nil, .unspecified)])
    func theCameraOrientationIsThePosition(location: V4L2CameraLocation?, position: CaptureDevice.Position) throws {
        let device = try CaptureDevice.v4l2(path: "/dev/fake0", driver: FakeV4L2Driver(location: location))
        #expect(device.position == position)
        #expect(device.v4l2Details?.location?.rawValue == location.map { ["front", "back", "external"][Int($0.rawValue)] })
        #expect(device.sensorMounting.isMirrored == (location == .front))
    }
}
