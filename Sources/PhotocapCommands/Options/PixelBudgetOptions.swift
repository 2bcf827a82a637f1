import ArgumentParser
import PhotoCapture

/// `--max-pixels N`: the pixel budget (``PixelBudget``) for the commands that decode images.
struct PixelBudgetOptions: ParsableArguments {
    @Option(help: "Largest picture to decode, in pixels (width × height, 256 megapixels by default), checked from each file's header before anything is allocated.")
    var maxPixels: Int = PixelBudget.defaultMaximumPixels

    /// Validation is where ArgumentParser lets an option group act before `run()`: the budget is
    /// process-wide, like Pillow's MAX_IMAGE_PIXELS.
    mutating func validate() throws {
        guard maxPixels > 0 else { throw ValidationError("--max-pixels \(maxPixels) must be positive") }
        PixelBudget.maximumPixels = maxPixels
    }
}
