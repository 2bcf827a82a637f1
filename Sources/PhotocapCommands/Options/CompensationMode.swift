import ArgumentParser
import PhotoCapture

/// How much of the orientation correction goes into the pixels: one flag of three, so the
/// modes exclude each other by construction.
enum CompensationMode: String, EnumerableFlag {
    /// `--compensation` (the default): the sensor's mounting is undone in the pixels.
    case compensation
    /// `--no-compensation`: pixels as delivered, the whole correction in the metadata.
    case noCompensation
    /// `--upright`: everything in the pixels, orientation 1.
    case upright

    static func help(for value: CompensationMode) -> ArgumentHelp? {
        switch value {
        case .compensation:
            return "Undo the sensor's mounting in the pixels; the metadata says how the device was held."
        case .noCompensation:
            return "Keep the sensor's pixels; write the whole correction as metadata (fast path)."
        case .upright:
            return "Apply the whole correction to the pixels and write orientation 1."
        }
    }

    /// The library's mode.
    var orientationCompensation: OrientationCompensation {
        switch self {
        case .compensation: return .sensor
        case .noCompensation: return .off
        case .upright: return .upright
        }
    }
}
