import FoundationEssentials
import PhotoCapture

/// `{"width": W, "height": H}` in the CLI's JSON.
struct JSONSize: Encodable {
    let width: Int
    let height: Int

    init(_ size: PixelSize) {
        width = size.width
        height = size.height
    }
}

/// The CLI's JSON style: sorted keys, unescaped slashes; one line unless `pretty`. Every
/// control character a terminal could act on is escaped, not only the C0 ones JSON requires.
package func jsonText(_ value: some Encodable, pretty: Bool = false) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = pretty ? [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted]
                                      : [.sortedKeys, .withoutEscapingSlashes]
    return escapingTerminalControls(inJSON: String(decoding: try encoder.encode(value), as: UTF8.self))
}

/// `json` with DEL, the C1 controls (CSI, OSC… as single characters) and the bidirectional
/// overrides written as `\uXXXX`: the encoder leaves them raw, and strings from files reach
/// the JSON. Outside strings JSON text holds none of them, so the result stays the same JSON.
func escapingTerminalControls(inJSON json: String) -> String {
    // C0 controls inside strings are the encoder's to escape; outside them they are layout.
    func needsEscape(_ scalar: Unicode.Scalar) -> Bool { scalar.value >= 0x7F && scalar.isTerminalControl }
    guard json.unicodeScalars.contains(where: needsEscape) else { return json }
    var escaped = String.UnicodeScalarView()
    for scalar in json.unicodeScalars {
        guard needsEscape(scalar) else { escaped.append(scalar); continue }
        let hex = String(scalar.value, radix: 16, uppercase: true)
        escaped.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).unicodeScalars)
    }
    return String(escaped)
}
