import FoundationEssentials
import Hummingbird
import Logging
import PhotoCapture
import PhotocapCommands
import ServiceLifecycle
#if canImport(Glibc)
import Glibc
#endif

/// Runs `photocap serve` until SIGINT or SIGTERM: opens the camera, listens, and on the signal
/// ends the event streams, lets the photo being taken be written, refuses the waiting ones,
/// releases the camera, then stops listening.
package enum ServeRunner {
    /// Serves as `serve` says; returns after a clean stop.
    package static func run(_ serve: ServeCommand) async throws {
        let address = try ListenAddress(parsing: serve.listen)
        let generated = serve.token == nil && !address.isLoopback
        let token = serve.token ?? (address.isLoopback ? nil : randomToken())
        let store: PhotoStore
        let coordinator: CaptureCoordinator
        do {
            store = try PhotoStore(folder: serve.output)
            coordinator = try await CaptureCoordinator(serve: serve, store: store, events: Broadcast(buffering: 64))
        } catch let error as ServerError {
            throw fail(error.message)
        } catch let error as SettingsRefusal {
            throw fail(error.message)
        } catch {
            throw fail("\(error)")
        }
        var limits = PhotoServer.Limits()
        limits.maxViewers = serve.maxViewers
        let router = PhotoServer.router(coordinator: coordinator, access: AccessPolicy(token: token, isLoopback: address.isLoopback),
                                        limits: limits)
        var logger = Logger(label: "photocap-serve")
        logger.logLevel = .warning
        let app = Application(
            router: router,
            configuration: .init(address: .hostname(address.host, port: address.port)),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? address.port
                let host = address.host.contains(":") ? "[\(address.host)]" : address.host
                // One line a script can read for the port (--listen …:0), and the token once.
                print("photocap serve: http://\(host):\(port)/" + (token.map { "?token=\($0)" } ?? ""))
                if generated, let token { print("photocap serve: token \(token) (every request needs it; it is not printed again)") }
                print("photocap serve: photos in \(store.folder); Ctrl-C stops")
                fflush(nil)
            },
            logger: logger)
        let group = serviceGroup(app, coordinator: coordinator, stoppingOnSignals: true, logger: logger)
        do {
            try await group.run()
        } catch {
            await coordinator.stop()
            throw fail("\(error)")
        }
        note("serve stopped: camera released, \(store.all.count) photos taken in \(store.folder)")
    }

    /// The server `app` and the camera's release, in the order a graceful shutdown (on SIGTERM
    /// or SIGINT when `stoppingOnSignals`, or triggered) stops them: the camera's event streams
    /// first, so that the server's wait for its open responses ends.
    package static func serviceGroup(_ app: some Service, coordinator: CaptureCoordinator,
                                     stoppingOnSignals: Bool, logger: Logger) -> ServiceGroup {
        ServiceGroup(configuration: .init(services: [app, CameraRelease(coordinator: coordinator)],
                                          gracefulShutdownSignals: stoppingOnSignals ? [.sigterm, .sigint] : [],
                                          logger: logger))
    }

    /// 128 random bits, hexadecimal.
    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in String(generator.next() as UInt32, radix: 16).leftPadded(to: 8) }.joined()
    }
}

/// Waits for the graceful shutdown, keeping the event streams alive meanwhile; then ends them
/// and releases the camera. It is the last service of the group, so it is shut down first,
/// before the server waits for its open responses to end.
struct CameraRelease: Service {
    let coordinator: CaptureCoordinator
    /// How often an idle event stream gets a keep-alive, which also finds viewers that left.
    static let keepAlive = Duration.seconds(5)

    func run() async throws {
        let events = coordinator.events
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                while !Task.isCancelled {
                    try? await Task.sleep(for: Self.keepAlive)
                    events.publish("")
                }
            }
            try? await gracefulShutdown()
            group.cancelAll()
        }
        events.closeAll()
        await coordinator.stop()
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: Swift.max(0, width - count)) + self
    }
}
