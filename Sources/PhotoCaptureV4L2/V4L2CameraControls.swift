import PhotoCaptureCore
import V4L2

/// A V4L2 node's controls (VIDIOC_QUERY_EXT_CTRL, VIDIOC_G/S_EXT_CTRLS) as ``CameraControl``s.
struct V4L2CameraControls: CameraControls {
    /// The node, also what ``ControlChanges`` restores through.
    let device: V4L2Device

    func all() throws(PhotoCaptureError) -> [CameraControl] {
        do {
            return try device.controls().map { control in
                CameraControl(control, value: control.hasIntegerValue ? try? device.value(of: control.id) : nil)
            }
        } catch {
            throw PhotoCaptureError(error)
        }
    }

    func set(_ control: CameraControl, to value: Int64) throws(PhotoCaptureError) -> CameraControl {
        do {
            let kept = try device.setValue(value, of: control.id)
            let reported = control.controlKind == .button ? nil : kept
            return try device.controls().first { $0.id == control.id }.map { CameraControl($0, value: reported) }
                ?? control.with(value: reported)
        } catch {
            throw PhotoCaptureError(error)
        }
    }
}
