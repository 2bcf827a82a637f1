import Imaging

extension PixelBudget {
    /// Checks the size a `format` file declares before anything is allocated for its pixels:
    /// ``CodecError/pixelBudgetExceeded(format:size:limit:)`` past the budget,
    /// ``CodecError/corruptFile(format:reason:)`` for an empty size.
    static func check(_ size: PixelSize, declaredBy format: String) throws(CodecError) {
        do { try check(size) } catch {
            if case .pixelBudgetExceeded(let size, let limit) = error {
                throw .pixelBudgetExceeded(format: format, size: size, limit: limit)
            }
            throw .corruptFile(format: format, reason: "it declares an invalid size \(size)")
        }
    }
}
