import Synchronization

/// The exposure-type controls of one camera, in physical units: the surface a bracket drives,
/// implemented by the synthetic camera's exposure model and by V4L2 cameras.
///
/// Writes remember each control's value before its first change, so ``restore()`` can put the
/// camera back as it was; ``interrupt()`` restores and refuses further changes (the
/// signal-handler path).
package protocol ExposureControls: AnyObject, Sendable {
    /// The controls and their ranges.
    var capabilities: ExposureCapabilities { get }
    /// Frames to wait after a change before the photo's frame (see ``CaptureDevice/framesToSettle``).
    var framesToSettle: Int { get set }
    /// The most members a bracket may have.
    var maximumBracketCount: Int { get }
    /// Brackets on one camera run one at a time: they share its controls.
    var gate: SerialGate { get }
    /// The values automatic exposure chose, or that were set before the bracket now running
    /// changed them: what a bias scales.
    func metered() throws(PhotoCaptureError) -> ExposureReading
    /// Sets the fields of `target` (switching automatic exposure or gain off where a manual
    /// value is given) and returns the values the camera reports afterwards.
    func apply(_ target: ExposureTarget) throws(PhotoCaptureError) -> ExposureReading
    /// Sets every changed control back to its value before the first change, latest change
    /// first; throws ``BracketProblem/controlsNotRestored(device:controls:error:)``.
    func restore() throws(PhotoCaptureError)
    /// ``restore()``, then refuses every later ``apply(_:)``.
    func interrupt() throws(PhotoCaptureError)
    /// The same controls when they can be set per frame (see ``PerFrameExposureControls``).
    var perFrame: (any PerFrameExposureControls)? { get }
}

extension ExposureControls {
    package var perFrame: (any PerFrameExposureControls)? { nil }
}
