import Imaging

/// A scene that changes over time for the synthetic camera: pictures rendered for the time since
/// the stream started, changing only at ``changeTimes`` (so a picture is rendered once per part).
///
/// `PhotoCaptureVision`'s scripted people scene is one; tests drive the live stream with it.
public struct SyntheticSceneScript: Sendable, Equatable {
    /// A name that tells scripts apart (scripts compare by name and change times).
    public let name: String
    /// Seconds from the stream's start at which the picture changes, ascending; the first part
    /// starts at 0.
    public let changeTimes: [Double]
    /// The upright picture of the part starting at the given time, at the given size.
    public let render: @Sendable (Double, PixelSize) -> RGBImage

    /// A script named `name` whose picture changes at `changeTimes` and is drawn by `render`.
    public init(name: String, changeTimes: [Double], render: @escaping @Sendable (Double, PixelSize) -> RGBImage) {
        (self.name, self.changeTimes, self.render) = (name, changeTimes.sorted(), render)
    }

    /// The start of the part in view `time` seconds after the stream started.
    func partStart(at time: Double) -> Double {
        changeTimes.last { $0 <= time } ?? 0
    }

    /// Scripts compare by name and change times.
    public static func == (lhs: SyntheticSceneScript, rhs: SyntheticSceneScript) -> Bool {
        lhs.name == rhs.name && lhs.changeTimes == rhs.changeTimes
    }
}
