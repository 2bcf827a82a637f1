#if canImport(Glibc)
import Glibc
#endif
import PhotoCapture
import Synchronization

/// Applies a smart framing monitor's recommendations to its camera as they come (auto-framing),
/// easing each zoom change over a few frames instead of jumping. Only the newest recommendation
/// counts: one that arrives while a change is under way is applied after it, and any older one
/// is skipped.
final class AutoFramer: Sendable {
    /// Eased steps are at least this ratio of zoom apart, and there are at most
    /// ``maximumSteps``: a change from 1 to 2 takes 8 frames.
    static let stepRatio = 1.08
    static let maximumSteps = 8

    private let task = Mutex<Task<Void, Never>?>(nil)
    private let broadcast = Broadcast<AppliedFraming>()

    /// Whether recommendations are being applied.
    var isRunning: Bool { task.withLock { $0 != nil } }

    /// Each applied framing from now on; finishes when auto-framing stops.
    func appliedFramings() -> AsyncStream<AppliedFraming> { broadcast.stream(keepingNewest: 16) }

    /// Applies `current` (when given) and then each of `recommendations` to `device`.
    func start(applying recommendations: AsyncStream<Framing>, current: Framing?, to device: CaptureDevice) {
        let broadcast = broadcast
        let started = Task { [weak device] in
            if let current, let device { await Self.apply(current, to: device, broadcast: broadcast) }
            for await framing in recommendations {
                guard let device, !Task.isCancelled else { break }
                await Self.apply(framing, to: device, broadcast: broadcast)
            }
        }
        task.withLock { $0 = started }
    }

    /// Stops applying; the framing in effect stays.
    func stop() {
        task.withLock { task in
            defer { task = nil }
            return task
        }?.cancel()
        broadcast.finish()
    }

    /// The zoom factors that take `from` to `to`, the last being `to`: a smoothstep in the
    /// logarithm of the zoom, so the picture's scale changes slowly at both ends.
    static func easedZooms(from: Double, to: Double) -> [Double] {
        let distance = log(to / from)
        let steps = min(maximumSteps, max(1, Int((abs(distance) / log(stepRatio)).rounded(.up))))
        return (1...steps).map { step in
            let t = Double(step) / Double(steps)
            return step == steps ? to : from * exp(distance * t * t * (3 - 2 * t))
        }
    }

    /// Eases `device` to `framing`: the aspect ratio at the first step, the zoom over the steps.
    /// A step the camera refuses (the session stopped) ends the change without a report.
    private static func apply(_ framing: Framing, to device: CaptureDevice, broadcast: Broadcast<AppliedFraming>) async {
        var mark: FrameMark?
        for zoom in easedZooms(from: device.videoZoomFactor, to: framing.zoomFactor) {
            guard !Task.isCancelled else { return }
            do {
                mark = try await device.setFraming(aspectRatio: framing.aspectRatio, videoZoomFactor: zoom, timeout: .seconds(2))
            } catch {
                return
            }
        }
        guard let mark, let size = device.streamingUprightSize else { return }
        let ratio = (framing.aspectRatio.width, framing.aspectRatio.height)
        broadcast.yield(AppliedFraming(framing: framing, crop: PixelRect.centred(ratio: ratio, zoom: framing.zoomFactor, in: size),
                                       uprightSize: size, frame: mark))
    }
}
