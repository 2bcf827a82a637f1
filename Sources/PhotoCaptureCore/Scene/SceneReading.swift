/// One analysis of a downscaled frame by the scene monitor.
public struct SceneReading: Sendable, Equatable {
    /// The frame's sequence number.
    public let sequence: UInt64
    /// Mean luma, 0...255 (full range).
    public let meanLuma: Double
    /// The share of samples at luma ≤ 16: crushed shadows.
    public let darkFraction: Double
    /// The share of samples at luma ≥ 250: clipped highlights.
    public let clippedFraction: Double
    /// Whether the camera reports its exposure time and gain both at their maximum (nil when it
    /// has neither control): automatic exposure has nothing left to give.
    public let isExposureAtMaximum: Bool?
}
