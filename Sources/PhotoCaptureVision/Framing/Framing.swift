import PhotoCapture

/// A way to frame a photo: an aspect ratio of the upright picture and a zoom factor, applied
/// with `CaptureDevice.setDynamicAspectRatio(_:timeout:)` first and then the zoom, like
/// Apple's `AVCaptureFraming`.
public struct Framing: Hashable, Sendable, CustomStringConvertible {
    /// The upright picture's shape.
    public let aspectRatio: AspectRatio
    /// How many times narrower than the largest crop of the ratio (1 = as large as fits).
    public let zoomFactor: Double

    /// A framing of `aspectRatio` narrowed `zoomFactor` times (at least 1).
    public init(aspectRatio: AspectRatio, zoomFactor: Double = 1) {
        self.aspectRatio = aspectRatio
        self.zoomFactor = max(1, zoomFactor)
    }

    /// The part of an upright picture of `size` this framing keeps, normalised to the picture:
    /// the same centred crop the photo pipeline makes.
    public func crop(inUpright size: PixelSize) -> NormalizedRect {
        NormalizedRect(PixelRect.centred(ratio: (aspectRatio.width, aspectRatio.height), zoom: zoomFactor, in: size), in: size)
    }

    /// `3:4 ×2`.
    public var description: String {
        zoomFactor == 1 ? "\(aspectRatio)" : "\(aspectRatio) ×\(zoomFactor.formatted())"
    }

    /// Every ratio at zoom 1, 1.5 and 2: what the monitor can recommend.
    public static let all: [Framing] = AspectRatio.supported.flatMap { ratio in
        [1, 1.5, 2].map { Framing(aspectRatio: ratio, zoomFactor: $0) }
    }
}

extension Double {
    /// `2`, `1.5`: no trailing zeros.
    fileprivate func formatted() -> String {
        self == rounded() ? String(Int(self)) : String(self)
    }
}
