import FoundationEssentials
import PhotoCapture
import Synchronization

/// The session's newest preview frame, as PNG for the page.
///
/// The video output keeps one frame and drops the rest; this keeps the newest only, and encodes
/// it when a viewer asks (once per frame, whatever the number of viewers): a viewer that pulls
/// slowly gets fewer frames, at the rate its link carries, and none is queued for it.
package final class Viewfinder: Sendable {
    private struct State {
        var newest: VideoFrame?
        var encoded: (sequence: UInt64, fieldOfView: NormalizedRect, png: Data)?
        var reader: Task<Void, Never>?
    }
    private let state = Mutex(State())
    private let output: VideoDataOutput

    /// A viewfinder of `output`'s frames.
    init(output: VideoDataOutput) { self.output = output }

    /// Starts keeping the newest frame.
    func start() {
        let frames = output.frames()
        let reader = Task { [weak self] in
            for await frame in frames {
                guard let self else { return }
                self.state.withLock { $0.newest = frame }
            }
        }
        state.withLock { $0.reader = reader }
    }

    /// Stops reading frames.
    func stop() {
        state.withLock { $0.reader }?.cancel()
    }

    /// The newest frame as PNG, its sequence number and the part of the whole upright picture
    /// it shows; nil before the first frame.
    package func newestPNG() throws -> (sequence: UInt64, fieldOfView: NormalizedRect, png: Data)? {
        let (frame, cached) = state.withLock { ($0.newest, $0.encoded) }
        guard let frame else { return nil }
        if let cached, cached.sequence == frame.sequence { return cached }
        let encoded = (frame.sequence, frame.fieldOfView, try ImageEncoder.pngData(Self.rgbImage(frame)))
        state.withLock { $0.encoded = encoded }
        return encoded
    }

    /// The newest frame, as delivered (its sequence number and field of view); nil before the first.
    var newestFrame: VideoFrame? { state.withLock { $0.newest } }

    /// Frames delivered by the output and dropped by it (a slow reader).
    package var counts: (delivered: Int, dropped: Int) { (output.deliveredFrameCount, output.droppedFrameCount) }

    /// The RGB picture of a BGRA frame.
    static func rgbImage(_ frame: VideoFrame) -> RGBImage {
        let plane = frame.planes[0]
        let width = frame.size.width, height = frame.size.height
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        plane.bytes.withUnsafeBufferPointer { source in
            pixels.withUnsafeMutableBufferPointer { target in
                for y in 0..<height {
                    var from = y * plane.bytesPerRow
                    var to = y * width * 3
                    for _ in 0..<width {
                        target[to] = source[from + 2]
                        target[to + 1] = source[from + 1]
                        target[to + 2] = source[from]
                        from += 4
                        to += 3
                    }
                }
            }
        }
        return RGBImage(size: frame.size, pixels: pixels)
    }
}
