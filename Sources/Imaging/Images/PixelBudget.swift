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
    private static let memoryCheck = Mutex<MemoryCheck?>(nil)

    /// What a picture's decode may take from memory: `bytesPerPixel` of the picture's declared
    /// size (everything the running task holds for it at once) within `allowance`.
    public struct MemoryCheck: Sendable, Hashable {
        /// Bytes held per pixel of the declared picture while it is decoded and used.
        public var bytesPerPixel: Int
        /// The bytes the process may use.
        public var allowance: MemoryAllowance

        /// A check of `bytesPerPixel` per pixel against `allowance`.
        public init(bytesPerPixel: Int, allowance: MemoryAllowance) {
            (self.bytesPerPixel, self.allowance) = (max(1, bytesPerPixel), allowance)
        }
    }

    /// The current budget in pixels (width × height); at least 1.
    public static var maximumPixels: Int {
        get { limit.load(ordering: .relaxed) }
        set { limit.store(max(1, newValue), ordering: .relaxed) }
    }

    /// When set, ``check(_:holding:)`` also refuses a picture whose decode does not fit in memory
    /// (``ImagingError/memoryExceeded(size:bytesNeeded:allowance:)``); nil (the default) checks
    /// pixels only.
    public static var memory: MemoryCheck? {
        get { memoryCheck.withLock { $0 } }
        set { memoryCheck.withLock { $0 = newValue } }
    }

    /// The pixel count of `size` when it is positive and within the budget.
    ///
    /// Throws ``ImagingError/invalidSize(_:)`` for a zero or negative dimension and
    /// ``ImagingError/pixelBudgetExceeded(size:limit:)`` past the budget (the product is
    /// computed without overflow, so any declared size is judged correctly), and
    /// ``ImagingError/memoryExceeded(size:bytesNeeded:allowance:)`` when ``memory`` is set and
    /// the decode would not fit: at ``MemoryCheck/bytesPerPixel``, or at `bytesPerPixel` when a
    /// decoder knows it will hold more (a 16-bit TIFF turned in its own kind).
    @discardableResult
    public static func check(_ size: PixelSize, holding bytesPerPixel: Int? = nil) throws(ImagingError) -> Int {
        guard !size.isEmpty else { throw .invalidSize(size) }
        let budget = maximumPixels
        let (pixels, overflow) = size.width.multipliedReportingOverflow(by: size.height)
        guard !overflow, pixels <= budget else { throw .pixelBudgetExceeded(size: size, limit: budget) }
        if let memory {
            let (needed, overflow) = pixels.multipliedReportingOverflow(by: max(memory.bytesPerPixel, bytesPerPixel ?? 0))
            guard !overflow, needed <= memory.allowance.bytes else {
                throw .memoryExceeded(size: size, bytesNeeded: overflow ? .max : needed, allowance: memory.allowance)
            }
        }
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

extension PixelBudget {
    /// "whose decoding needs N bytes (2.4 GB, 9 per pixel), more than the M bytes (…) this
    /// process may use (SOURCE)", the figures of a memory refusal, said the same way by every
    /// layer.
    public static func memorySentence(size: PixelSize, needed: Int, allowance: MemoryAllowance) -> String {
        let pixels = max(1, size.width.multipliedReportingOverflow(by: size.height).partialValue)
        return "whose decoding needs \(needed) bytes (\(MemoryAllowance.gigabytes(needed)), \(needed / pixels) per pixel), "
            + "more than the \(allowance.bytes) bytes (\(MemoryAllowance.gigabytes(allowance.bytes))) this process may use "
            + "(\(allowance.source))"
    }
}
