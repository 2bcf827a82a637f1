/// Why a ``RotationCoordinator`` has no reading from iio-sensor-proxy.
public enum SensorProxyError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A D-Bus error a call was answered with: its name and message.
    public struct BusError: Sendable, Equatable, CustomStringConvertible {
        /// The error's name, such as `org.freedesktop.DBus.Error.ServiceUnknown`.
        public let name: String
        /// The error's message.
        public let message: String

        /// `org.freedesktop.DBus.Error.ServiceUnknown: The name is not activatable`.
        public var description: String { "\(name): \(message)" }
    }

    /// libsystemd (`libsystemd.so.0`, whose sd-bus speaks D-Bus) could not be loaded: dlopen's
    /// reason.
    case libraryUnavailable(reason: String)
    /// The bus could not be reached at `address` (nil: the system bus).
    case busUnavailable(address: String?, Errno)
    /// No iio-sensor-proxy on the bus (`net.hadess.SensorProxy` has no owner).
    case proxyUnavailable(BusError)
    /// iio-sensor-proxy answered `method` with an error.
    case callFailed(method: String, BusError)
    /// The bus connection failed while waiting for changes.
    case connectionFailed(Errno)
    /// The sensor proxy runs, but the machine has no accelerometer (`HasAccelerometer` false).
    case noAccelerometer
    /// No answer within `milliseconds` to `step`: `connecting` (the bus did not authenticate
    /// the connection or answer its Hello), `AddMatch` (the bus did not subscribe it), or a
    /// method of iio-sensor-proxy (`GetAll`, `ClaimAccelerometer`).
    case timedOut(step: String, milliseconds: Int)

    /// What went wrong, in a sentence.
    public var description: String {
        switch self {
        case .libraryUnavailable(let reason):
            "no rotation source: libsystemd could not be loaded (\(reason))"
        case .busUnavailable(let address, let errno):
            "no rotation source: cannot connect to \(address.map { "the D-Bus bus at \($0)" } ?? "the system D-Bus") (\(errno))"
        case .proxyUnavailable(let error):
            "no rotation source: iio-sensor-proxy (net.hadess.SensorProxy) is not running (\(error))"
        case .callFailed(let method, let error):
            "iio-sensor-proxy refused \(method): \(error)"
        case .connectionFailed(let errno):
            "the D-Bus connection to iio-sensor-proxy failed (\(errno))"
        case .noAccelerometer:
            "no rotation source: iio-sensor-proxy reports no accelerometer"
        case .timedOut(let step, let milliseconds) where step == "connecting":
            "no rotation source: the D-Bus bus accepted the connection but did not answer within \(milliseconds) ms"
        case .timedOut(let step, let milliseconds):
            "D-Bus timed out: no answer to \(step) within \(milliseconds) ms"
        }
    }
}
