import ArgumentParser
import PhotoCapture

extension PixelSize: ExpressibleByArgument {
    /// Parses `WIDTHxHEIGHT`.
    public init?(argument: String) {
        self.init(parsing: argument)
    }
}
