import ArgumentParser
import PhotoCapture

/// `--max-pixels N`: the pixel budget (``PixelBudget``) for the commands that decode images;
/// left at its default, it also keeps each decode within the memory the process may use.
struct PixelBudgetOptions: ParsableArguments {
    @Option(help: "Largest picture to decode, in pixels (width × height, 256 megapixels by default, and by default no more than fits in the memory this process may use: its cgroup limit or MemAvailable), checked from each file's header before anything is allocated.")
    var maxPixels: Int = PixelBudget.defaultMaximumPixels

    /// Validation is where ArgumentParser lets an option group act before `run()`: the budget is
    /// process-wide, like Pillow's MAX_IMAGE_PIXELS.
    mutating func validate() throws {
        guard maxPixels > 0 else { throw ValidationError("--max-pixels \(maxPixels) must be positive") }
        PixelBudget.maximumPixels = maxPixels
    }
}

extension PixelBudgetOptions {
    /// With the default `--max-pixels`, refuses pictures whose decode (`footprint` bytes per
    /// pixel) cannot fit in ``MemoryAllowance/current()``: the kernel would kill the process
    /// part way instead. A budget given on purpose is the user's to judge.
    func limitMemory(_ footprint: DecodeFootprint) {
        guard maxPixels == PixelBudget.defaultMaximumPixels, let allowance = MemoryAllowance.current() else { return }
        PixelBudget.memory = PixelBudget.MemoryCheck(bytesPerPixel: footprint.bytesPerPixel, allowance: allowance)
    }
}
