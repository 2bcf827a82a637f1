import Synchronization

/// The largest picture, in pixels, that any decoder of photocap allocates memory for: every
/// decode path (JPEG, TIFF, HEIC, RAW, MJPEG frames, frame files) checks the size a file's
/// header declares against it before allocating, so a small file that declares a huge picture
/// (a decompression bomb) fails at once with ``ImagingError/pixelBudgetExceeded(size:limit:)``
/// instead of exhausting memory. Like Pillow's `Image.MAX_IMAGE_PIXELS`, it is one process-wide
/// setting; raise it for files that really are that large.
public enum PixelBudget {
    /// 256 megapixels (16384 × 16384): above the largest camera sensors and panoramas most people
    /// have; one 8-bit RGB picture of this size takes 768 MB.
    public static let defaultMaximumPixels = 1 << 28

    private static let limit = Atomic<Int>(defaultMaximumPixels)

    /// The current budget in pixels (width × height); at least 1.
    public static var maximumPixels: Int {
        get { limit.load(ordering: .relaxed) }
        set { limit.store(max(1, newValue), ordering: .relaxed) }
    }

    /// The pixel count of `size` when it is positive and within the budget.
    ///
    /// Throws ``ImagingError/invalidSize(_:)`` for a zero or negative dimension and
    /// ``ImagingError/pixelBudgetExceeded(size:limit:)`` past the budget (the product is
    /// computed without overflow, so any declared size is judged correctly).
    @discardableResult
    public static func check(_ size: PixelSize) throws(ImagingError) -> Int {
        guard !size.isEmpty else { throw .invalidSize(size) }
        let budget = maximumPixels
        let (pixels, overflow) = size.width.multipliedReportingOverflow(by: size.height)
        guard !overflow, pixels <= budget else { throw .pixelBudgetExceeded(size: size, limit: budget) }
        return pixels
    }
}

extension PixelBudget {
    /// `width × height` in megapixels with one decimal, for messages ("4290.3 MP"); never
    /// overflows.
    public static func megapixels(_ width: Int, _ height: Int) -> String {
        let value = Double(width) * Double(height) / 1_000_000
        return "\((value * 10).rounded() / 10) MP"
    }
}
