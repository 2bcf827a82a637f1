extension StringProtocol {
    /// The text without the spaces and tabs around it: Foundation's
    /// `trimmingCharacters(in: .whitespaces)` (tab and Unicode's space separators), which
    /// FoundationEssentials, all photocap loads, lacks.
    package var trimmingWhitespace: String {
        let isSpace = { (character: Character) in
            character.unicodeScalars.allSatisfy { $0 == "\t" || $0.properties.generalCategory == .spaceSeparator }
        }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}
