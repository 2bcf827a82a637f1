import PhotoCapture

/// The camera `--device` names: a V4L2 node's path (`/dev/video0`), else a libcamera camera's id.
package func namedCamera(_ id: String, input: Int? = nil) throws(PhotoCaptureError) -> CaptureDevice {
    id.hasPrefix("/") ? try CaptureDevice.v4l2(path: id, input: input) : try CaptureDevice.libcamera(id: id)
}
