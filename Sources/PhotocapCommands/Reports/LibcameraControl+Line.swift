import PhotoCapture

extension LibcameraControl {
    /// `Brightness (float, 0x00000009) -1...1 default 0`: the control as `controls` and
    /// `devices` print it.
    var line: String {
        "\(name) (\(valueType.rawValue)\(isArray ? " array" : ""), \(String(printf: "0x%08x", id))) \(minimum)...\(maximum)"
            + (defaultValue.map { " default \($0)" } ?? "")
    }
}
