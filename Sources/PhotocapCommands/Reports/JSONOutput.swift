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

/// The CLI's JSON style: sorted keys, unescaped slashes; one line unless `pretty`.
package func jsonText(_ value: some Encodable, pretty: Bool = false) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = pretty ? [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted]
                                      : [.sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(value), as: UTF8.self)
}
