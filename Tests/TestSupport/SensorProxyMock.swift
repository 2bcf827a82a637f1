import Foundation

/// A private D-Bus bus for a test, shaped like the system bus, with python-dbusmock's
/// `iio-sensors-proxy` template on it standing in for iio-sensor-proxy — or with nothing on it.
/// Everything it started is stopped, and its folder removed, at ``stop()`` or its end.
///
/// Missing tools fail the test with the Debian package to install (`dbus-daemon`,
/// `python3-dbusmock`), never skip it.
public final class SensorProxyMock {
    /// The bus's D-Bus address, for `RotationCoordinator.Bus.address` or
    /// `DBUS_SYSTEM_BUS_ADDRESS`.
    public let address: String
    /// The mock's log: one line per method it was called with.
    public let logPath: String
    private let folder: URL
    private let daemon: Process
    private var mock: Process?

    /// The interpreter python3-dbusmock installs for (a python3 earlier on PATH, such as
    /// pyenv's, need not have it).
    static let python = "/usr/bin/python3"

    /// Starts the bus and, unless `hasAccelerometer` is nil, the mock with an accelerometer or
    /// without one, reporting `orientation`. Waits (at most 10 s) until the proxy's name is on the
    /// bus.
    public init(hasAccelerometer: Bool?, orientation: String = "normal") throws {
        folder = try TestPaths.temporaryFolder("photocap-dbus")
        let socket = folder.appendingPathComponent("system_bus_socket").path
        address = "unix:path=\(socket)"
        logPath = folder.appendingPathComponent("mock.log").path
        let configuration = folder.appendingPathComponent("bus.conf")
        // The system bus's shape (type, EXTERNAL authentication) without its policy, which
        // lets only root own names.
        try """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>system</type>
              <listen>unix:path=\(socket)</listen>
              <auth>EXTERNAL</auth>
              <policy context="default">
                <allow user="*"/>
                <allow own="*"/>
                <allow send_destination="*"/>
                <allow receive_sender="*"/>
              </policy>
            </busconfig>
            """.write(to: configuration, atomically: true, encoding: .utf8)
        daemon = try Self.start(ExternalTool.path(of: "dbus-daemon"),
                                ["--config-file=\(configuration.path)", "--nofork", "--nopidfile"], log: nil)
        do {
            try Self.waitUntil("the bus's socket appears") { FileManager.default.fileExists(atPath: socket) }
            if let hasAccelerometer { try startProxy(hasAccelerometer: hasAccelerometer, orientation: orientation) }
        } catch {
            stop()
            throw error
        }
    }

    /// Starts the mock proxy, with an accelerometer or without one, reporting `orientation`, and
    /// waits (at most 10 s) until its name is on the bus.
    public func startProxy(hasAccelerometer: Bool, orientation: String = "normal") throws {
        guard try ExternalTool.run(Self.python, ["-c", "import dbusmock"]).status == 0 else {
            throw ExternalTool.Missing(tool: "python-dbusmock", package: "python3-dbusmock")
        }
        let parameters = "{\"has_accelerometer\": \(hasAccelerometer), \"accelerometer_orientation\": \"\(orientation)\"}"
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = address
        let errors = folder.appendingPathComponent("mock.stderr")
        let mock = try Self.start(Self.python, ["-m", "dbusmock", "--template", "iio-sensors-proxy", "-p", parameters,
                                                "-l", logPath], log: errors, environment: environment)
        self.mock = mock
        try Self.waitUntil("python-dbusmock's sensor proxy is on the bus") {
            guard mock.isRunning else { return true }
            return try isProxyOnTheBus()
        }
        guard mock.isRunning else {
            throw Failure(description: "python-dbusmock ended at start: \((try? String(contentsOf: errors, encoding: .utf8)) ?? "")")
        }
    }

    /// Stops the mock proxy (as iio-sensor-proxy ending), and waits (at most 10 s) until its name
    /// has left the bus.
    public func stopProxy() throws {
        guard let mock else { return }
        Self.end(mock)
        self.mock = nil
        try Self.waitUntil("the sensor proxy's name leaves the bus") { try !isProxyOnTheBus() }
    }

    private func isProxyOnTheBus() throws -> Bool {
        try dbus(["/org/freedesktop/DBus", "org.freedesktop.DBus.NameHasOwner", "string:net.hadess.SensorProxy"],
                 destination: "org.freedesktop.DBus").contains("boolean true")
    }

    deinit { stop() }

    /// The mock turned, as iio-sensor-proxy reports a turn: `normal`, `left-up`, `right-up`,
    /// `bottom-up` or `undefined` (sent to the clients that claim the accelerometer).
    public func turn(to orientation: String) throws {
        _ = try dbus(["/net/hadess/SensorProxy", "org.freedesktop.DBus.Mock.SetInternalProperty",
                      "string:net.hadess.SensorProxy", "string:AccelerometerOrientation", "variant:string:\(orientation)"])
    }

    /// The bus names that claim the accelerometer now.
    public func accelerometerOwners() throws -> [String] {
        let reply = try dbus(["/net/hadess/SensorProxy", "org.freedesktop.DBus.Mock.GetInternalProperty", "string:AccelerometerOwners"])
        return reply.split(separator: "\n").compactMap { line in
            let text = line.trimmingCharacters(in: .whitespaces)
            return text.hasPrefix("string \"") ? String(text.dropFirst(8).dropLast()) : nil
        }
    }

    /// The methods the mock was called with, in order (`ClaimAccelerometer`, `GetAll`...).
    public func calls() throws -> [String] {
        try String(contentsOfFile: logPath, encoding: .utf8).split(separator: "\n").compactMap { line in
            line.split(separator: " ").dropFirst().first.map(String.init)
        }
    }

    /// Stops the mock and the bus and removes their folder.
    public func stop() {
        for process in [mock, daemon].compactMap({ $0 }) { Self.end(process) }
        mock = nil
        try? FileManager.default.removeItem(at: folder)
    }

    /// A failure to set the bus up.
    public struct Failure: Error, CustomStringConvertible {
        /// What failed.
        public let description: String
    }

    /// Calls a method on the bus with dbus-send and returns the printed reply.
    private func dbus(_ arguments: [String], destination: String = "net.hadess.SensorProxy") throws -> String {
        let run = try ExternalTool.run("dbus-send", ["--bus=\(address)", "--print-reply", "--reply-timeout=5000",
                                                     "--dest=\(destination)"] + arguments)
        guard run.status == 0 else { throw Failure(description: "dbus-send \(arguments.joined(separator: " ")): \(run.stderr)") }
        return run.text
    }

    /// SIGKILL: a child of the test process may inherit SIGTERM blocked or ignored.
    private static func end(_ process: Process) {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    private static func start(_ path: String, _ arguments: [String], log: URL?, environment: [String: String]? = nil) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        if let environment { process.environment = environment }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        if let log {
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
            process.standardError = try FileHandle(forWritingTo: log)
        } else {
            process.standardError = FileHandle.nullDevice
        }
        try process.run()
        return process
    }

    /// Polls `condition` every 20 ms for at most 10 s.
    private static func waitUntil(_ what: String, _ condition: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if try condition() { return }
            Thread.sleep(forTimeInterval: 0.02)
        }
        throw Failure(description: "timed out after 10 s waiting until \(what)")
    }
}
