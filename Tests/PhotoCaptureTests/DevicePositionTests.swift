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

/// A media-controller pipeline's capture node has no mounting controls; the sensor subdevice its
/// enabled links lead back to has them (``V4L2PipelineSensor``, over ``FakeV4L2Driver``). The
/// real topology walk runs on vimc in the VM (Tests/LibcameraIntegration).
@Suite struct PipelineSensorMountingTests {
    /// The subdevice's rotation and location are the camera's, and the details name where they
    /// came from; a front sensor's photos are mirrored.
    @Test(arguments: [90, 180, 270])
    func theSubdevicesMountingIsTheCameras(rotation: Int) throws {
        let sensor = V4L2PipelineSensor(name: "Sensor B", subdevice: "/dev/v4l-subdev1", rotation: rotation, location: .front)
        let device = try CaptureDevice.v4l2(path: "/dev/fake0", driver: FakeV4L2Driver(pipelineSensor: sensor))
        #expect(device.sensorMounting == SensorMounting(rotation: rotation, isMirrored: true))
        #expect(device.position == .front)
        let details = try #require(device.v4l2Details)
        #expect(details.reportedSensorRotation == rotation)
        #expect(details.sensorSubdevice == "/dev/v4l-subdev1")
        #expect(details.sensorName == "Sensor B")
    }

    /// What the capture node reports itself wins over its sensor's subdevice; a subdevice whose
    /// values were not taken (it reports nothing, or only what the node reports) is not named.
    @Test func theNodesOwnControlsWin() throws {
        let sensor = V4L2PipelineSensor(name: "Sensor B", subdevice: "/dev/v4l-subdev1", rotation: 180, location: .front)
        let device = try CaptureDevice.v4l2(path: "/dev/fake0", driver: FakeV4L2Driver(location: .back, pipelineSensor: sensor))
        #expect(device.position == .back)
        #expect(device.sensorMounting == SensorMounting(rotation: 180, isMirrored: false))
        #expect(device.v4l2Details?.sensorSubdevice == "/dev/v4l-subdev1", "the rotation is the subdevice's")

        let locationOnly = V4L2PipelineSensor(name: "Sensor B", subdevice: "/dev/v4l-subdev1", rotation: nil, location: .front)
        let located = try CaptureDevice.v4l2(path: "/dev/fake0", driver: FakeV4L2Driver(location: .back, pipelineSensor: locationOnly))
        #expect(located.position == .back)
        #expect(located.v4l2Details?.sensorSubdevice == nil, "nothing of the subdevice's was taken")

        let silent = V4L2PipelineSensor(name: "Sensor B", subdevice: "/dev/v4l-subdev1", rotation: nil, location: nil)
        let plain = try CaptureDevice.v4l2(path: "/dev/fake0", driver: FakeV4L2Driver(pipelineSensor: silent))
        #expect(plain.sensorMounting == SensorMounting(rotation: 0, isMirrored: false))
        #expect(plain.v4l2Details?.reportedSensorRotation == nil)
        #expect(plain.v4l2Details?.sensorSubdevice == nil)
    }
}
