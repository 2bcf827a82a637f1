import CV4L2
import Glibc

/// The camera sensor a media-controller pipeline's capture node is fed by, found in the media
/// device's topology over the pipeline's enabled links, and what its subdevice reports of its
/// mounting. A sensor driver puts the device tree's `rotation` and `orientation` there, on the
/// subdevice, not on the capture node.
package struct V4L2PipelineSensor: Sendable, Equatable {
    /// The sensor entity's name, e.g. `imx219 10-0010`.
    package let name: String
    /// Its subdevice node, e.g. `/dev/v4l-subdev2`.
    package let subdevice: String
    /// `V4L2_CID_CAMERA_SENSOR_ROTATION` on the subdevice, counter-clockwise degrees.
    package let rotation: Int?
    /// `V4L2_CID_CAMERA_ORIENTATION` on the subdevice.
    package let location: V4L2CameraLocation?

    package init(name: String, subdevice: String, rotation: Int?, location: V4L2CameraLocation?) {
        (self.name, self.subdevice, self.rotation, self.location) = (name, subdevice, rotation, location)
    }

    init(_ sensor: pc_v4l2_pipeline_sensor) {
        self.init(name: String(cTuple: sensor.name), subdevice: String(cTuple: sensor.subdevice), rotation: sensor.rotation >= 0 ? Int(sensor.rotation) : nil,
                  location: sensor.orientation >= 0 ? V4L2CameraLocation(rawValue: Int64(sensor.orientation)) : nil)
    }
}

extension V4L2Device {
    /// The sensor upstream of this capture node in its media device's topology; nil when the node
    /// has no media device or its configured links reach no single sensor with a subdevice node
    /// (a USB camera's, or a pipeline not linked yet). Never fails the device's opening: what the
    /// topology cannot say is left unsaid.
    package func pipelineSensor() -> V4L2PipelineSensor? {
        var sensor = pc_v4l2_pipeline_sensor()
        guard driver.pipelineSensor(fd, &sensor) == 0 else { return nil }
        return V4L2PipelineSensor(sensor)
    }
}
