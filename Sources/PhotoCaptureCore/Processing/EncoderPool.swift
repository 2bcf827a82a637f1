import Codecs
import Imaging
import Synchronization

/// JPEG encoders kept between captures, so a capture does not pay for creating one, and HEIF
/// encoder plug-ins loaded ahead when a HEIC request is prepared.
///
/// A TurboJPEG handle is not thread-safe; the pool hands each one to one capture at a time.
final class EncoderPool: @unchecked Sendable {
    // Guarded by `lock`; encoders leave the array while in use.
    private let lock = Mutex(())
    private var idleJPEGEncoders: [JPEGEncoder] = []

    /// Runs `body` with an encoder no other capture is using.
    func withJPEGEncoder<Result>(_ body: (JPEGEncoder) throws(CodecError) -> Result) throws(CodecError) -> Result {
        let idle = lock.withLock { _ in idleJPEGEncoders.popLast() }
        let encoder: JPEGEncoder
        if let idle { encoder = idle } else { encoder = try JPEGEncoder() }
        defer { lock.withLock { _ in idleJPEGEncoders.append(encoder) } }
        return try body(encoder)
    }

    /// Creates what `resolved` will need, and has the memory of its photo's planes made ready
    /// on another thread (in a process taking one photo, that memory is fresh: its zeroing then
    /// overlaps the camera's start instead of the conversion) — unless the photo will not have
    /// whole planes: a JPEG or TIFF without a preview from frames the camera keeps anyway
    /// (`framesAreFreeToKeep`) is encoded from band buffers (see ``PixelBuffer``).
    func prepare(for resolved: ResolvedPhotoSettings, framesAreFreeToKeep: Bool) throws(PhotoCaptureError) {
        let banded = PhotoProcessor.encodesFromBands(resolved, framesAreFreeToKeep: framesAreFreeToKeep)
        if resolved.format != .dng, !banded { PlanarImage.prepareStorage(for: resolved.photoDimensions) }
        do throws(CodecError) {
            switch resolved.format {
            case .jpeg:
                // One idle encoder is enough to start with; preparing again adds none.
                guard lock.withLock({ _ in idleJPEGEncoders.isEmpty }) else { break }
                let encoder = try JPEGEncoder()
                lock.withLock { _ in idleJPEGEncoders.append(encoder) }
            case .heic:
                // Loading the x265 plug-in is the expensive first step.
                _ = try HEICEncoder(preset: HEICEncoderPreset(resolved.heicEncodingSpeed))
            case .tiff, .uncompressed, .dng:
                break
            }
        } catch {
            throw PhotoCaptureError(.encoding(error), uniqueID: resolved.uniqueID)
        }
    }
}

extension HEICEncoderPreset {
    init(_ speed: HEICEncodingSpeed) {
        self = HEICEncoderPreset(rawValue: speed.rawValue) ?? .medium
    }
}
