import Imaging

extension PixelBudget {
    /// Checks the size a `format` file declares before anything is allocated for its pixels:
    /// ``CodecError/pixelBudgetExceeded(format:size:limit:)`` past the budget,
    /// ``CodecError/memoryExceeded(format:size:bytesNeeded:allowance:)`` when its decode would
    /// not fit in memory (at `bytesPerPixel` when the decoder holds more than the budget's
    /// figure), ``CodecError/corruptFile(format:reason:)`` for an empty size.
    package static func check(_ size: PixelSize, declaredBy format: String, holding bytesPerPixel: Int? = nil) throws(CodecError) {
        do { try check(size, holding: bytesPerPixel) } catch {
            switch error {
            case .pixelBudgetExceeded(let size, let limit):
                throw .pixelBudgetExceeded(format: format, size: size, limit: limit)
            case .memoryExceeded(let size, let needed, let allowance):
                throw .memoryExceeded(format: format, size: size, bytesNeeded: needed, allowance: allowance)
            default:
                throw .corruptFile(format: format, reason: "it declares an invalid size \(size)")
            }
        }
    }
}
