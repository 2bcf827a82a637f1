import ArgumentParser
import PhotoCapture

extension ShootCommand {
    /// `--aspect` and `--zoom` checks, before anything opens a camera.
    func validateFraming() throws {
        if !(zoom >= 1 && zoom <= 8) { throw ValidationError("--zoom must be from 1 to 8, got \(zoom)") }
    }

    /// Sets the ratio and zoom before the camera starts, so the driver crops where it can.
    func applyFraming(to camera: CaptureDevice) async throws(PhotoCaptureError) {
        guard aspect != nil || zoom != 1 else { return }
        try await camera.setFraming(aspectRatio: aspect, videoZoomFactor: zoom)
    }

    /// `, 1:1 crop (hardware)` for the one-line summary; empty when the photo is not cropped.
    func framingNote(_ resolved: ResolvedPhotoSettings) -> String {
        let framing = resolved.framing
        guard framing.cropMethod != .none else { return "" }
        let shape = [framing.aspectRatio.map { "\($0)" }, framing.videoZoomFactor != 1 ? "zoom \(framing.videoZoomFactor)" : nil]
            .compactMap { $0 }.joined(separator: " ")
        return ", \(shape) crop \(framing.sensorCrop) (\(framing.cropMethod.rawValue))"
    }
}

extension AspectRatio: ExpressibleByArgument {
    /// Parses `W:H`, one of 1:1, 3:4, 4:3, 9:16, 16:9.
    public init?(argument: String) {
        self.init(parsing: argument)
    }

    /// The ratios, for help and errors.
    public static var allValueStrings: [String] { supported.map(\.description) }
}
