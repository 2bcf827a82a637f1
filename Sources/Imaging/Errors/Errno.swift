import Glibc

/// A POSIX error number, shaped as swift-system's `Errno` (an `Error`, compared by value, its
/// codes named as swift-system names them), printed as the C library's message with the
/// number. Here, below every layer that makes system calls, so the file, V4L2 and D-Bus layers
/// share one type without a dependency on swift-system.
public struct Errno: RawRepresentable, Error, Hashable, Sendable, CustomStringConvertible {
    /// The C `errno` value.
    public let rawValue: Int32

    /// The error number `rawValue`.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The error number `rawValue`.
    public init(_ rawValue: Int32) { self.rawValue = rawValue }

    /// ENOENT: no such file (no camera at that path).
    public static let noSuchFileOrDirectory = Errno(ENOENT)
    /// ENODEV: operation not supported by device (V4L2 says so of an unplugged or unregistered
    /// device).
    public static let operationNotSupportedByDevice = Errno(ENODEV)
    /// ENXIO: no such device or address (also reported for a vanished device).
    public static let noSuchAddressOrDevice = Errno(ENXIO)
    /// ENODEV, by its former name here; swift-system calls it `operationNotSupportedByDevice`.
    @available(*, deprecated, renamed: "operationNotSupportedByDevice")
    public static var noSuchDevice: Errno { operationNotSupportedByDevice }
    /// ENXIO, by its former name here; swift-system calls it `noSuchAddressOrDevice`.
    @available(*, deprecated, renamed: "noSuchAddressOrDevice")
    public static var noSuchDeviceOrAddress: Errno { noSuchAddressOrDevice }
    /// EBUSY: another process holds the device.
    public static let resourceBusy = Errno(EBUSY)
    /// EACCES: the user may not open the device.
    public static let permissionDenied = Errno(EACCES)
    /// EPERM: the operation is not permitted.
    public static let notPermitted = Errno(EPERM)
    /// EIO: an input/output error (a driver's fatal streaming error).
    public static let ioError = Errno(EIO)
    /// EAGAIN: nothing ready yet on a non-blocking descriptor.
    public static let resourceTemporarilyUnavailable = Errno(EAGAIN)
    /// EINVAL: the driver refused an argument.
    public static let invalidArgument = Errno(EINVAL)
    /// EINTR: a signal interrupted the call.
    public static let interrupted = Errno(EINTR)
    /// ENOMEM: out of memory (or of buffer space in the driver).
    public static let noMemory = Errno(ENOMEM)
    /// EPIPE: a media-controller pipeline's formats do not match from its sensor to the node
    /// (VIDIOC_STREAMON).
    public static let brokenPipe = Errno(EPIPE)

    /// The C library's message alone, e.g. "No such device".
    public var message: String { String(cString: strerror(rawValue)) }

    /// The C library's message and the number, e.g. "No such device (errno 19)".
    public var description: String { "\(message) (errno \(rawValue))" }
}
