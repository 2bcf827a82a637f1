/// The quantisation range of Y'CbCr samples.
public enum YCbCrRange: String, Hashable, Sendable {
    /// Studio swing: luma 16...235, chroma 16...240 (the V4L2 default for Y'CbCr formats).
    case limited
    /// Full swing: 0...255, as JPEG/JFIF stores it.
    case full
}

/// One image as a camera delivered it, before any conversion.
///
/// A frame borrows or owns its bytes through ``FrameStorage``; it stays valid for as long as it
/// is referenced.
public struct Frame: Sendable {
    /// How the bytes are laid out.
    public let format: FramePixelFormat
    /// Width and height in pixels.
    public let size: PixelSize
    /// Bytes per row of the first plane (chroma planes follow the V4L2 single-plane convention).
    public let bytesPerRow: Int
    /// The quantisation range of Y'CbCr samples; RGB and grey frames are full range.
    public let range: YCbCrRange
    /// The bytes.
    public let storage: FrameStorage
    /// The camera's frame counter.
    public let sequence: UInt64
    /// When the exposure started, on the monotonic clock, in nanoseconds.
    public let timestampNanoseconds: UInt64
    /// For the 16-bit CFA image of a RAW file that photocap develops itself: how its samples
    /// become sRGB, which the conversion pass then does instead of a camera's plain demosaic.
    package var development: CFADevelopment?

    /// Creates a frame over `storage`; fails when the storage is too small for the layout.
    package init(
        format: FramePixelFormat, size: PixelSize, bytesPerRow: Int? = nil,
        range: YCbCrRange? = nil, storage: FrameStorage, sequence: UInt64 = 0,
        timestampNanoseconds: UInt64 = 0
    ) throws(ImagingError) {
        guard !size.isEmpty, let minimumStride = format.checkedMinimumBytesPerRow(width: size.width) else {
            throw .invalidSize(size)
        }
        let stride = bytesPerRow ?? minimumStride
        guard stride >= minimumStride else {
            throw .strideTooSmall(bytesPerRow: stride, format: format, width: size.width)
        }
        let needed = try format.frameByteCount(size: size, bytesPerRow: stride)
        guard storage.count >= needed else {
            throw .frameTooSmall(expected: needed, actual: storage.count, format: format, size: size)
        }
        self.format = format
        self.size = size
        self.bytesPerRow = stride
        self.range = range ?? (format.isYUV ? .limited : .full)
        self.storage = storage
        self.sequence = sequence
        self.timestampNanoseconds = timestampNanoseconds
    }
}

/// Bytes of a frame: owned, or borrowed (from a driver buffer, a file's mapping) and handed
/// back when released.
public final class FrameStorage: @unchecked Sendable {
    /// Who keeps a frame's bytes besides the frame, which says what keeping the frame longer
    /// costs.
    package enum Holder: Sendable {
        /// A camera's buffer, which the camera needs back to go on streaming: let go as soon
        /// as the frame is converted, never kept for later.
        case camera
        /// Nobody: memory made for this frame alone (a copy, a decoded or developed frame);
        /// keeping the frame keeps all of it.
        case frame
        /// The frame's source, anyway: a file's mapping, a picture a camera hands out again.
        /// Keeping the frame costs nothing more.
        case source
    }

    // Immutable after init; the bytes are only read while the storage is alive.
    private let pointer: UnsafeRawBufferPointer
    private let release: @Sendable (UnsafeRawBufferPointer) -> Void
    /// Who keeps the bytes besides the frame.
    package let holder: Holder

    /// Borrows `pointer`; `release` runs once when the storage is deallocated. `holder` says
    /// who else keeps the bytes (a driver buffer's camera, a mapped file's source).
    package init(borrowing pointer: UnsafeRawBufferPointer, holder: Holder,
                release: @escaping @Sendable (UnsafeRawBufferPointer) -> Void) {
        self.pointer = pointer
        self.holder = holder
        self.release = release
    }

    /// The bytes of `storage`, which this keeps alive, as memory its source keeps anyway
    /// (``Holder/source``): a picture a camera renders once and hands out with many frames.
    package convenience init(keptBySource storage: FrameStorage) {
        self.init(borrowing: storage.pointer, holder: .source) { _ in withExtendedLifetime(storage) {} }
    }

    /// Copies `bytes` into memory the storage owns.
    package convenience init(copying bytes: some Collection<UInt8>) {
        let buffer = LargeAllocation.allocate(byteCount: max(bytes.count, 1))
        // One memcpy for contiguous bytes (Data, arrays); the generic element-by-element copy,
        // unspecialised across modules, is some 30 times slower on a 24 MB frame.
        let copied: Void? = bytes.withContiguousStorageIfAvailable { buffer.copyMemory(from: UnsafeRawBufferPointer($0)) }
        if copied == nil { _ = buffer.initializeMemory(as: UInt8.self, from: bytes) }
        self.init(borrowing: UnsafeRawBufferPointer(buffer), holder: .frame) { LargeAllocation.deallocate(UnsafeMutableRawBufferPointer(mutating: $0)) }
    }

    /// Allocates `count` bytes and lets `fill` write them once; `holder` says who else keeps
    /// them (by default nobody).
    package convenience init<Failure: Error>(
        count: Int, holder: Holder = .frame, fill: (UnsafeMutableRawBufferPointer) throws(Failure) -> Void
    ) throws(Failure) {
        let buffer = LargeAllocation.allocate(byteCount: max(count, 1))
        do {
            try fill(UnsafeMutableRawBufferPointer(rebasing: buffer[0..<count]))
        } catch {
            LargeAllocation.deallocate(buffer)
            throw error
        }
        self.init(borrowing: UnsafeRawBufferPointer(rebasing: buffer[0..<count]), holder: holder) {
            LargeAllocation.deallocate(UnsafeMutableRawBufferPointer(mutating: $0))
        }
    }

    deinit { release(pointer) }

    /// Number of bytes.
    public var count: Int { pointer.count }

    /// Calls `body` with the bytes.
    public func withUnsafeBytes<Result, Failure: Error>(
        _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try body(pointer)
    }
}
