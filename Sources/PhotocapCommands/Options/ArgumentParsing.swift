import ArgumentParser
import PhotoCapture

extension PixelSize: ExpressibleByArgument {
    /// Parses `WIDTHxHEIGHT`.
    public init?(argument: String) {
        self.init(parsing: argument)
    }
}

extension FramePixelFormat: ExpressibleByArgument {
    /// Parses a V4L2 code or name (`YUYV`, `nv12`, `i420`, `rgb24`).
    public init?(argument: String) {
        self.init(name: argument)
    }

    /// Lower-case names for help.
    public static var allValueStrings: [String] { allCases.map(\.rawValue) }
}

extension PhotoFormat: ExpressibleByArgument {}
extension HEICEncodingSpeed: ExpressibleByArgument {}

extension PhotoQualityPrioritization: ExpressibleByArgument {
    /// Parses `speed`, `balanced` or `quality`.
    public init?(argument: String) {
        guard let level = Self.allCases.first(where: { $0.description == argument }) else { return nil }
        self = level
    }

    /// The names, for help.
    public static var allValueStrings: [String] { allCases.map(\.description) }
}
