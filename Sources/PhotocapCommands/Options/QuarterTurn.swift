import ArgumentParser
import PhotoCapture

/// An angle on the command line that is a quarter turn, written as 0, 90, 180 or 270, as
/// `--sensor-rotation` and `--rotation` take it: checked by
/// ``Orientation/init(clockwiseDegrees:)``, the one test of "a quarter turn", so both options
/// refuse the same angles in the same words.
struct QuarterTurn: Equatable, CustomStringConvertible {
    /// 0, 90, 180 or 270.
    let degrees: Int

    /// No turn.
    static let zero = QuarterTurn(checked: 0)

    private init(checked degrees: Int) { self.degrees = degrees }

    /// The angle `argument` names, or a refusal that names `option` and what it takes.
    init(parsing argument: String, for option: String, orElse alternatives: String = "") throws(ValidationError) {
        guard let degrees = Int(argument), Orientation(clockwiseDegrees: degrees) != nil,
              Orientation.normalizedDegrees(degrees) == degrees else {
            let accepted = alternatives.isEmpty ? "0, 90, 180 or 270" : "0, 90, 180, 270 or \(alternatives)"
            throw ValidationError("\(option) must be \(accepted), got '\(argument)'")
        }
        self.degrees = degrees
    }

    var description: String { "\(degrees)" }
}

/// `--rotation`: a quarter turn, or `auto` for the accelerometer's.
enum DeviceRotation: Equatable, CustomStringConvertible {
    case fixed(QuarterTurn)
    case auto

    /// The rotation `argument` names, or the refusal.
    init(parsing argument: String) throws(ValidationError) {
        self = argument == "auto" ? .auto : .fixed(try QuarterTurn(parsing: argument, for: "--rotation", orElse: "auto"))
    }

    /// The angle of a fixed rotation; nil for `auto`.
    var degrees: Int? {
        if case .fixed(let turn) = self { return turn.degrees }
        return nil
    }

    var description: String { degrees.map(String.init) ?? "auto" }
}
