extension CaptureDevice {
    var exposureControls: (any ExposureControls)? {
        guard let controls = source.exposureControls,
              !controls.capabilities.isEmpty else { return nil }
        return controls
    }

    /// The exposure-type controls a bracket can drive; nil when the camera has none (the
    /// frame-file camera, most capture cards).
    public var exposureCapabilities: ExposureCapabilities? { exposureControls?.capabilities }

    /// The most photos one bracket may have on this camera: 1 without exposure controls.
    public var maxBracketedCapturePhotoCount: Int { exposureControls?.maximumBracketCount ?? 1 }

    /// Frames to let pass after an exposure control changes before the frame used for a bracket
    /// member.
    ///
    /// The rule: after setting a member's controls, photocap takes the first frame whose
    /// exposure started after the change, then `framesToSettle` frames more (counted by the
    /// driver's sequence numbers, so dropped frames count too). Sensors apply exposure and gain
    /// a frame or two after the write, and a driver's queued buffers were exposed before it.
    /// Defaults: 3 on V4L2 cameras (the two-frame delay of most sensors plus one for UVC
    /// firmware, which applies controls on its own schedule; raise it for cameras whose auto
    /// exposure must converge on a new bias); on the synthetic camera, its simulated control
    /// delay. 0 for cameras without exposure controls.
    ///
    /// On a camera whose controls are set per frame (the synthetic camera by default) the
    /// members are scheduled on consecutive frames instead, the first aimed at the frame
    /// `framesToSettle` frames on; the camera moves it later when it cannot apply a change so
    /// soon (see <doc:BracketedCapture>).
    public var framesToSettle: Int {
        get { exposureControls?.framesToSettle ?? 0 }
        set { exposureControls?.framesToSettle = max(0, newValue) }
    }

    /// Puts back every exposure control a bracket in progress changed and makes further bracket
    /// changes fail, for signal handlers and emergency exits (`photocap shoot` calls it on
    /// SIGINT). Throws when the camera cannot be reached
    /// (``BracketProblem/controlsNotRestored(device:controls:error:)``).
    public func interruptBracketedCapture() throws(PhotoCaptureError) {
        try exposureControls?.interrupt()
    }
}
