import FoundationEssentials
import PhotocapCommands

/// A photo's settings as a program sends them: a JSON object whose keys name `shoot`'s options
/// (`{"format": "heic", "compensation": "upright", "bracket": [-2, 0, 2], "artist": "Ann"}`).
/// They become `shoot`'s arguments, so they are checked by the same code and refused in the
/// same words as on the command line.
package struct PhotoRequest: Sendable, Equatable {
    /// `shoot`'s options, `--name=value` each.
    package let arguments: [String]

    /// The keys, and the option each one is.
    package static let options: [String: String] = [
        "format": "--format", "rawPlus": "--raw-plus", "quality": "--quality", "heicSpeed": "--heic-speed",
        "qualityPrioritization": "--quality-prioritization", "bracket": "--bracket", "bracketManual": "--bracket-manual",
        "settleFrames": "--settle-frames", "preview": "--preview", "thumbnail": "--thumbnail", "aspect": "--aspect",
        "zoom": "--zoom", "focus": "--focus", "artist": "--artist", "copyright": "--copyright",
        "description": "--description", "comment": "--comment", "location": "--location",
    ]

    /// `compensation`'s values and the flags they are.
    static let compensationFlags = ["on": "--compensation", "off": "--no-compensation", "upright": "--upright"]

    /// The settings in `body` (JSON; empty: the defaults), or the refusal.
    package init(json body: [UInt8]) throws(SettingsRefusal) {
        guard !body.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) else {
            arguments = []
            return
        }
        let object: [String: JSONSetting]
        do {
            object = try JSONDecoder().decode([String: JSONSetting].self, from: Data(body))
        } catch {
            throw SettingsRefusal("the body must be a JSON object of settings, each a string, a number or an array of numbers")
        }
        var arguments: [String] = []
        for key in object.keys.sorted() {
            let value = object[key]!
            if key == "compensation" {
                guard case .text(let mode) = value, let flag = Self.compensationFlags[mode] else {
                    throw SettingsRefusal("compensation must be on, off or upright, got \(value)")
                }
                arguments.append(flag)
            } else if let option = Self.options[key] {
                arguments.append("\(option)=\(value)")
            } else {
                throw SettingsRefusal("unknown setting '\(key)'; the settings are compensation, "
                                      + Self.options.keys.sorted().joined(separator: ", "))
            }
        }
        self.arguments = arguments
    }
}

/// One setting's value: what the command line would have as text.
enum JSONSetting: Decodable, Equatable, CustomStringConvertible {
    case text(String)
    case number(Double)
    case numbers([Double])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) {
            self = .text(text)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else {
            self = .numbers(try container.decode([Double].self))
        }
    }

    /// The value as an option's text: whole numbers without a fraction, arrays comma-separated.
    var description: String {
        switch self {
        case .text(let text): return text
        case .number(let number): return Self.text(number)
        case .numbers(let numbers): return numbers.map(Self.text).joined(separator: ",")
        }
    }

    private static func text(_ number: Double) -> String {
        number.rounded() == number && abs(number) < 1e15 ? String(Int64(number)) : String(number)
    }
}

/// The body of `PUT /api/auto-framing`: `{"enabled": true}` or `{"enabled": false}`.
package struct AutoFramingRequest: Sendable, Equatable, Decodable {
    /// Whether auto-framing is to be on.
    package let enabled: Bool

    /// The request in `body`, or the refusal: a JSON object with the one key `enabled`, a boolean.
    package init(json body: [UInt8]) throws(SettingsRefusal) {
        let keys: [String: AnyKey]
        do {
            keys = try JSONDecoder().decode([String: AnyKey].self, from: Data(body))
            self = try JSONDecoder().decode(Self.self, from: Data(body))
        } catch {
            throw SettingsRefusal(#"the body must be {"enabled": true} or {"enabled": false}"#)
        }
        if let unknown = keys.keys.sorted().first(where: { $0 != "enabled" }) {
            throw SettingsRefusal("unknown key '\(unknown)'; the only key is enabled")
        }
    }

    /// Any JSON value, to list an object's keys.
    private struct AnyKey: Decodable {
        init(from decoder: any Decoder) throws {}
    }
}
