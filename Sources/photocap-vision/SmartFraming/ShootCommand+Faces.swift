import FoundationEssentials
import PhotocapCommands
import PhotoCaptureVision

extension ShootCommand {
    /// The faces in view as the photo's regions (`--faces`, and `--smart-framing` after its
    /// framing is applied): a metadata output added to the running session reports faces
    /// normalised to the picture under the current framing — the photo's crop — and the first
    /// analysed frame with a confirmed face is taken; none when `--faces-timeout` passes first.
    func trackFaces(session: CaptureSession) async throws(PhotoCaptureError) -> [PhotoRegion] {
        let output = try addFacesOutput(to: session)
        let started = Date()
        let frames = output.faces()
        // Removing the output finishes the stream: the wait is bounded.
        let deadline = Task {
            try? await Task.sleep(for: .seconds(facesTimeout))
            session.removeOutput(output)
        }
        var seen: [MetadataFaceObject] = []
        for await frame in frames where !frame.faces.isEmpty {
            seen = frame.faces
            break
        }
        deadline.cancel()
        session.removeOutput(output)
        if !json {
            note("faces: \(seen.count) in view after \(String(printf: "%.1f", Date().timeIntervalSince(started))) s, written as regions")
        }
        return seen.map { PhotoRegion(kind: .face, bounds: $0.bounds) }
    }

    /// A metadata output of faces added to the running `session`, and then `start` run (a
    /// monitor started on the same frames). The capture layer's refusal is thrown as it is; the
    /// face detector's and the monitor's, typed, as the cause of
    /// ``PhotoCaptureError/Code/outputFailed(_:)``.
    func addFacesOutput(to session: CaptureSession,
                        then start: () throws(SmartFramingError) -> Void = {}) throws(PhotoCaptureError) -> MetadataOutput {
        let output: MetadataOutput
        do {
            output = try MetadataOutput()
        } catch {
            throw PhotoCaptureError(.outputFailed(OutputError(output: "MetadataOutput", underlying: error)))
        }
        try session.addOutput(output)
        do {
            try start()
        } catch {
            throw PhotoCaptureError(.outputFailed(OutputError(output: "SmartFramingMonitor", underlying: error)))
        }
        return output
    }
}
