/// The shape of a photo as people see it, width:height of the upright picture, modelled on
/// `AVCaptureAspectRatio`: a portrait 3:4 photo is taller than wide whatever the sensor's
/// mounting and however the device is held.
///
/// Set one with ``CaptureDevice/setDynamicAspectRatio(_:timeout:)``; photos are then cropped to
/// it (see ``PhotoFraming``).
public struct AspectRatio: Hashable, Sendable, CustomStringConvertible {
    /// The width term, in lowest terms with ``height``.
    public let width: Int
    /// The height term.
    public let height: Int

    /// A square photo.
    public static let ratio1x1 = AspectRatio(width: 1, height: 1)
    /// Portrait, 3 wide for 4 high.
    public static let ratio3x4 = AspectRatio(width: 3, height: 4)
    /// Landscape, 4 wide for 3 high.
    public static let ratio4x3 = AspectRatio(width: 4, height: 3)
    /// Tall portrait, 9 wide for 16 high.
    public static let ratio9x16 = AspectRatio(width: 9, height: 16)
    /// Wide landscape, 16 wide for 9 high.
    public static let ratio16x9 = AspectRatio(width: 16, height: 9)

    /// The ratios a camera offers: 1:1, 3:4, 4:3, 9:16 and 16:9, as Apple's dynamic aspect
    /// ratios are.
    public static let supported: [AspectRatio] = [.ratio1x1, .ratio3x4, .ratio4x3, .ratio9x16, .ratio16x9]

    private init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Parses `W:H` (for example `16:9`) into one of the ``supported`` ratios; nil otherwise.
    public init?(parsing text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]),
              let ratio = Self.supported.first(where: { $0.width == width && $0.height == height })
        else { return nil }
        self = ratio
    }

    /// The ratio turned a quarter: 3:4 for 4:3.
    public var transposed: AspectRatio { AspectRatio(width: height, height: width) }

    /// `W:H`.
    public var description: String { "\(width):\(height)" }
}
