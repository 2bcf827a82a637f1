import Imaging

/// A camera backend's failure, in terms every backend shares: the device, the call that failed
/// with its errno when a call failed, and the backend's own error as the cause.
///
/// ``PhotoCaptureError`` carries this rather than a backend's error type, so the core of the
/// library names no backend; an app that wants the backend's details casts ``underlying`` (to
/// ``V4L2Error`` for a V4L2 camera). The one line a user reads is the backend error's.
public struct DeviceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The device, as the backend names it (a V4L2 camera's node path, `/dev/video0`).
    public let device: String
    /// The system call or ioctl that failed (`VIDIOC_STREAMON`), nil when the backend failed
    /// otherwise (a format the driver would not deliver, a timeout...).
    public let call: String?
    /// The failed call's errno.
    public let errno: Errno?
    /// The backend's own error, typed (a ``V4L2Error``).
    public let underlying: any Error & Sendable & Hashable

    /// An error of `device` whose cause is the backend's `underlying`; `call` and `errno` say
    /// which call failed, when one did.
    public init(device: String, call: String? = nil, errno: Errno? = nil, underlying: any Error & Sendable & Hashable) {
        self.device = device
        self.call = call
        self.errno = errno
        self.underlying = underlying
    }

    /// The backend error's line, so a message reads as it did when the backend's error was
    /// carried itself.
    public var description: String { String(describing: underlying) }

    /// Equal when they say the same of the same device and their causes are equal.
    public static func == (lhs: DeviceError, rhs: DeviceError) -> Bool {
        lhs.device == rhs.device && lhs.call == rhs.call && lhs.errno == rhs.errno
            && AnyHashable(lhs.underlying) == AnyHashable(rhs.underlying)
    }

    /// Hashes the device, the call, the errno and the cause.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(device)
        hasher.combine(call)
        hasher.combine(errno)
        hasher.combine(AnyHashable(underlying))
    }
}
