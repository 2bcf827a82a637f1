import Codecs
import Imaging
import Synchronization

/// Watches the live stream and says what the scene needs: too dark (a flash scene), too bright,
/// or normal — Apple's `AVCapturePhotoOutput.isFlashScene`, with a ``SceneLighting`` for the rest.
///
/// Up to ``analysesPerSecond`` frames a second are reduced to a grid of luma samples (mean,
/// crushed shadows, clipped highlights) and, where the camera reports them, its exposure time
/// and gain are checked against their maximum. The status changes only after the new judgement
/// held for ``framesToConfirm`` analyses in a row, and the thresholds to enter a state are
/// stricter than those to leave it (hysteresis), so it does not flap. Published as
/// ``lighting``/``isFlashScene`` and as an `AsyncStream` of changes (``lightingUpdates()``).
/// Analysis runs on the monitor's own queue and drops frames while busy: it never slows the
/// stream or a photo.
public final class SceneMonitor: Sendable, FrameConsumer {
    /// Analyses a second at most.
    public static let analysesPerSecond = 5
    /// Consecutive analyses a new status must hold before it is published.
    public static let framesToConfirm = 3
    /// Mean luma below which the scene is too dark; it is normal again above ``brightEnoughLuma``.
    public static let tooDarkLuma = 40.0
    /// Mean luma a dark scene must exceed to be normal again.
    public static let brightEnoughLuma = 56.0
    /// With exposure and gain at their maximum, a scene darker than this is too dark.
    public static let tooDarkAtMaximumExposureLuma = 70.0
    /// Share of clipped samples above which the scene is too bright; below ``normalClippedFraction`` it is normal again.
    public static let tooBrightClippedFraction = 0.25
    /// Share of clipped samples a bright scene must fall under to be normal again.
    public static let normalClippedFraction = 0.15

    private struct State {
        var status = SceneLighting.unknown
        var candidate = SceneLighting.unknown
        var candidateCount = 0
        var reading: SceneReading?
        var lastAnalysis: UInt64 = 0
        var streams: [Int: AsyncStream<SceneLighting>.Continuation] = [:]
        var nextStream = 0
    }
    private let state = Mutex(State())
    private let exposure: (any ExposureControls)?

    init(exposure: (any ExposureControls)?) {
        self.exposure = exposure
    }

    /// The published judgement.
    public var lighting: SceneLighting { state.withLock { $0.status } }

    /// The published judgement.
    @available(*, deprecated, renamed: "lighting")
    public var status: SceneLighting { lighting }

    /// Whether a flash would help: the scene is too dark.
    public var isFlashScene: Bool { lighting == .notEnoughLight }

    /// The latest analysis.
    public var latestReading: SceneReading? { state.withLock { $0.reading } }

    /// Each published judgement from now on, starting with the current one; finishes when the
    /// stream fails or stops.
    public func lightingUpdates() -> AsyncStream<SceneLighting> {
        let (stream, continuation) = AsyncStream<SceneLighting>.makeStream(bufferingPolicy: .bufferingNewest(8))
        let id = state.withLock { (state) -> Int in
            state.nextStream += 1
            state.streams[state.nextStream] = continuation
            continuation.yield(state.status)
            return state.nextStream
        }
        continuation.onTermination = { [weak self] _ in self?.state.withLock { _ = $0.streams.removeValue(forKey: id) } }
        return stream
    }

    /// Each published judgement from now on.
    @available(*, deprecated, renamed: "lightingUpdates()")
    public func statusUpdates() -> AsyncStream<SceneLighting> { lightingUpdates() }

    // MARK: Analysis

    func consume(_ frame: Frame) {
        let due = state.withLock { (state) -> Bool in
            let spacing = 1_000_000_000 / UInt64(Self.analysesPerSecond)
            guard frame.timestampNanoseconds >= state.lastAnalysis + spacing || frame.timestampNanoseconds < state.lastAnalysis
            else { return false }
            state.lastAnalysis = frame.timestampNanoseconds
            return true
        }
        guard due, let reading = try? analyse(frame) else { return }
        publish(reading)
    }

    func streamFailed(_ error: PhotoCaptureError) {
        let streams = state.withLock { (state) in
            defer { (state.streams, state.status, state.candidate, state.candidateCount) = ([:], .unknown, .unknown, 0) }
            return state.streams
        }
        streams.values.forEach { $0.yield(.unknown); $0.finish() }
    }

    /// A 64-column grid of luma samples, each row of the grid converted on its own as a crop two
    /// rows high (MJPEG decoded first): a fiftieth of the frame's pixels, not the whole frame,
    /// which at 12 MP took a core's tenth of a second five times a second.
    private func analyse(_ frame: Frame) throws -> SceneReading {
        let pixels = try PhotoProcessor.uncompressed(frame)
        let size = pixels.size
        let step = max(1, size.width / 64)
        let converter = FrameConverter(threads: 1)
        var sum = 0, dark = 0, clipped = 0, count = 0
        for y in Swift.stride(from: step / 2, to: size.height & ~1, by: step) {
            // Crops start on even rows and columns (4:2:0 and Bayer sites); the band holds row y.
            let top = y & ~1
            let band = PixelRect(x: 0, y: top, size: PixelSize(width: size.width & ~1, height: 2))
            let image = try converter.convert(pixels, crop: band)
            // The image's storage goes back to the pool when it is released: keep it while
            // `row` is read (its last use is otherwise the loop's bound).
            withExtendedLifetime(image) {
                let row = image.baseAddress(ofPlane: 0) + (y - top) * image.stride(ofPlane: 0)
                for x in Swift.stride(from: step / 2, to: image.size.width, by: step) {
                    let value = Int(row[x])
                    sum += value
                    if value <= 16 { dark += 1 }
                    if value >= 250 { clipped += 1 }
                    count += 1
                }
            }
        }
        let total = Double(max(count, 1))
        return SceneReading(sequence: frame.sequence, meanLuma: Double(sum) / total, darkFraction: Double(dark) / total,
                            clippedFraction: Double(clipped) / total, isExposureAtMaximum: exposureAtMaximum())
    }

    /// Whether exposure time and gain both sit at the top of their range.
    private func exposureAtMaximum() -> Bool? {
        guard let exposure, let reading = try? exposure.metered() else { return nil }
        let capabilities = exposure.capabilities
        var known = false
        if let range = capabilities.exposureDuration, let value = reading.duration {
            known = true
            if value < range.maximum * 0.98 { return false }
        }
        if let range = capabilities.iso, let value = reading.iso {
            known = true
            if value < range.maximum * 0.98 { return false }
        }
        return known ? true : nil
    }

    /// The status `reading` argues for, given the current one (hysteresis).
    static func judgement(of reading: SceneReading, current: SceneLighting) -> SceneLighting {
        let atMaximum = reading.isExposureAtMaximum == true
        switch current {
        case .notEnoughLight:
            let stillDark = reading.meanLuma < brightEnoughLuma || (atMaximum && reading.meanLuma < tooDarkAtMaximumExposureLuma)
            return stillDark ? .notEnoughLight : judgement(of: reading, current: .normal)
        case .tooBright:
            return reading.clippedFraction > normalClippedFraction ? .tooBright : judgement(of: reading, current: .normal)
        case .normal, .unknown:
            if reading.meanLuma < tooDarkLuma || (atMaximum && reading.meanLuma < tooDarkAtMaximumExposureLuma) {
                return .notEnoughLight
            }
            if reading.clippedFraction > tooBrightClippedFraction { return .tooBright }
            return .normal
        }
    }

    private func publish(_ reading: SceneReading) {
        let changed = state.withLock { (state) -> (SceneLighting, [AsyncStream<SceneLighting>.Continuation])? in
            state.reading = reading
            let judged = Self.judgement(of: reading, current: state.status)
            guard judged != state.status else {
                state.candidateCount = 0
                return nil
            }
            if judged == state.candidate {
                state.candidateCount += 1
            } else {
                (state.candidate, state.candidateCount) = (judged, 1)
            }
            // The first judgement is published at once; later changes must hold.
            guard state.status == .unknown || state.candidateCount >= Self.framesToConfirm else { return nil }
            state.status = judged
            state.candidateCount = 0
            return (judged, Array(state.streams.values))
        }
        if let (status, streams) = changed { streams.forEach { $0.yield(status) } }
    }
}
