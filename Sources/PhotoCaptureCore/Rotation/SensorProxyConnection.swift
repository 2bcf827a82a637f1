import CSensorProxy
import Glibc
import Imaging

/// A D-Bus connection to iio-sensor-proxy (through CSensorProxy's sd-bus seam).
///
/// Unchecked Sendable: the connection is used by the coordinator's watcher thread alone, which
/// opens, reads and follows it — except ``wake()``, which CSensorProxy makes safe from any
/// thread, and the close, which comes after that thread has ended.
final class SensorProxyConnection: @unchecked Sendable {
    /// What a wait saw.
    struct Events: OptionSet {
        let rawValue: Int32
        static let changed = Events(rawValue: Int32(PC_SENSOR_PROXY_CHANGED))
        static let ownerChanged = Events(rawValue: Int32(PC_SENSOR_PROXY_OWNER_CHANGED))
        static let woken = Events(rawValue: Int32(PC_SENSOR_PROXY_WOKEN))
    }

    /// A reading: whether there is an accelerometer, and its orientation (nil: `undefined`).
    struct Reading: Equatable {
        var hasAccelerometer: Bool
        var orientation: AccelerometerOrientation?
    }

    /// How long each call may wait for iio-sensor-proxy's answer.
    static let callTimeoutMilliseconds: Int32 = 2000

    private let proxy: OpaquePointer

    /// Connects to the bus at `address` (nil: the system bus) and subscribes to the proxy's
    /// changes; each step bounded by ``callTimeoutMilliseconds``, so it blocks that long at most.
    init(address: String?) throws(SensorProxyError) {
        var error = pc_sensor_proxy_error()
        let opened = address.map { pc_sensor_proxy_open($0, Self.callTimeoutMilliseconds, &error) }
            ?? pc_sensor_proxy_open(nil, Self.callTimeoutMilliseconds, &error)
        guard let opened else {
            if error.code == 0 { throw .libraryUnavailable(reason: Self.text(&error.message)) }
            if error.code == -ETIMEDOUT {
                throw .timedOut(step: Self.text(&error.step), milliseconds: Int(Self.callTimeoutMilliseconds))
            }
            throw .busUnavailable(address: address, Errno(-error.code))
        }
        proxy = opened
    }

    deinit { pc_sensor_proxy_close(proxy) }

    /// The accelerometer's state now.
    func read() throws(SensorProxyError) -> Reading {
        var error = pc_sensor_proxy_error()
        var has: Int32 = 0
        var orientation = [CChar](repeating: 0, count: 32)
        guard pc_sensor_proxy_read(proxy, &has, &orientation, orientation.count, &error) == 0 else {
            throw failure(of: "GetAll", error)
        }
        return Reading(hasAccelerometer: has != 0, orientation: AccelerometerOrientation(rawValue: String(cMessage: orientation)))
    }

    /// Claims the accelerometer, so the proxy reads it and sends its changes; released when the
    /// connection closes.
    func claim() throws(SensorProxyError) {
        var error = pc_sensor_proxy_error()
        guard pc_sensor_proxy_claim(proxy, &error) == 0 else { throw failure(of: "ClaimAccelerometer", error) }
    }

    /// Waits for a change or ``wake()``, at most `milliseconds` (nil: without a limit); no
    /// events when the time ran out.
    func wait(milliseconds: Int32? = nil) throws(SensorProxyError) -> Events {
        var error = pc_sensor_proxy_error()
        let seen = pc_sensor_proxy_wait(proxy, milliseconds ?? -1, &error)
        guard seen >= 0 else { throw .connectionFailed(Errno(-error.code)) }
        return Events(rawValue: seen)
    }

    /// Ends the current or next ``wait()``.
    func wake() { pc_sensor_proxy_wake(proxy) }

    private func failure(of method: String, _ error: pc_sensor_proxy_error) -> SensorProxyError {
        var error = error
        let name = Self.text(&error.name)
        // sd-bus names its own timeout; the bus answers NoReply for a service that did not.
        let timeouts = ["org.freedesktop.DBus.Error.Timeout", "org.freedesktop.DBus.Error.TimedOut",
                        "org.freedesktop.DBus.Error.NoReply"]
        if timeouts.contains(name) || (name.isEmpty && error.code == -ETIMEDOUT) {
            return .timedOut(step: method, milliseconds: Int(Self.callTimeoutMilliseconds))
        }
        guard !name.isEmpty else { return .connectionFailed(Errno(-error.code)) }
        let busError = SensorProxyError.BusError(name: name, message: Self.text(&error.message))
        // The bus itself answers for a name nobody owns.
        let unowned = ["org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner"]
        return unowned.contains(name) ? .proxyUnavailable(busError) : .callFailed(method: method, busError)
    }

    /// A NUL-terminated C array field as a String.
    private static func text<T>(_ field: inout T) -> String {
        withUnsafeBytes(of: &field) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}
