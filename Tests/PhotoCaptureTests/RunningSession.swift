import PhotoCapture
import TestSupport

/// A session streaming from `device`, with a photo output attached that may merge frames up to
/// `maxQualityPrioritization`.
func runningSession(_ device: CaptureDevice, maxQualityPrioritization: PhotoQualityPrioritization = .balanced)
    async throws -> (CaptureSession, PhotoOutput) {
    let session = CaptureSession()
    let output = PhotoOutput()
    output.maxPhotoQualityPrioritization = maxQualityPrioritization
    try session.addInput(device)
    try session.addOutput(output)
    try await session.startRunning()
    return (session, output)
}

/// Runs `body`, then stops `session`, whether `body` returned or threw (see ``cleaningUp(after:_:)``).
func stoppingAfterwards<T>(_ session: CaptureSession, _ body: () async throws -> T) async throws -> T {
    try await cleaningUp(after: body) { await session.stopRunning() }
}

/// Starts every request of `requests` on `output` at once, runs `meanwhile` while they are
/// pending, and returns how each ended: its uniqueID with nil when it delivered, else its error.
func endings(of requests: [PhotoSettings], on output: PhotoOutput,
              meanwhile: () async throws -> Void = {}) async throws -> [(Int64, PhotoCaptureError?)] {
    try await withThrowingTaskGroup(of: (Int64, PhotoCaptureError?).self) { group in
        for settings in requests {
            let stream = try output.capturePhotos(with: settings)
            group.addTask {
                // The sequence throws PhotoCaptureError itself: no cast.
                do throws(PhotoCaptureError) {
                    for try await _ in stream {}
                    return (settings.uniqueID, nil)
                } catch {
                    return (settings.uniqueID, error)
                }
            }
        }
        try await meanwhile()
        return try await group.reduce(into: []) { $0.append($1) }
    }
}
