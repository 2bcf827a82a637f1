extension CaptureDevice {
    /// The camera's controls with their current values; empty for cameras without controls.
    public func controls() throws(PhotoCaptureError) -> [CameraControl] {
        try source.cameraControls?.all() ?? []
    }

    /// Sets the control named `key` (as ``CameraControl/key`` spells it) to `text`: a number,
    /// a menu label, or true/false, and returns the control as the driver left it (drivers
    /// clamp). Read-only controls, unknown names and out-of-range values are refused.
    @discardableResult
    public func setControl(_ key: String, to text: String) throws(PhotoCaptureError) -> CameraControl {
        guard let controls = source.cameraControls else { throw PhotoCaptureError(.invalidControl("\(localizedName) has no controls")) }
        let all = try controls.all()
        guard let control = all.first(where: { $0.key == key.lowercased() }) else {
            let known = all.filter { $0.controlKind != .controlClass }.map(\.key).joined(separator: ", ")
            throw PhotoCaptureError(.invalidControl("\(uniqueID) has no control '\(key)' (it has: \(known))"))
        }
        return try controls.set(control, to: try control.parse(text))
    }
}
