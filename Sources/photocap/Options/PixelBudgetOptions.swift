import ArgumentParser
import PhotoCapture

/// `--max-pixels N`: the pixel budget (``PixelBudget``) for the commands that decode images.
struct PixelBudgetOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Largest picture to decode, in pixels (width × height), checked from each file's header before any memory is allocated.",
        discussion: "Default \(PixelBudget.defaultMaximumPixels) (256 megapixels); raise it for larger files."))
    var maxPixels: Int = PixelBudget.defaultMaximumPixels

    /// Validation is where ArgumentParser lets an option group act before `run()`: the budget is
    /// process-wide, like Pillow's MAX_IMAGE_PIXELS.
    mutating func validate() throws {
        guard maxPixels > 0 else { throw ValidationError("--max-pixels \(maxPixels) must be positive") }
        PixelBudget.maximumPixels = maxPixels
    }
}
