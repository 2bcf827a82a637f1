import PhotoCapture

/// A session streaming from `device`, with a photo output attached.
func runningSession(_ device: CaptureDevice) async throws -> (CaptureSession, PhotoOutput) {
    let session = CaptureSession()
    let output = PhotoOutput()
    try session.addInput(device)
    try session.addOutput(output)
    try await session.startRunning()
    return (session, output)
}
