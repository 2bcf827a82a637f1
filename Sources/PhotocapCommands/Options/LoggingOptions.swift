import ArgumentParser
import Logging

/// What the session and the camera log on stderr (swift-log's stream handler): silent unless
/// asked.
struct LoggingOptions: ParsableArguments {
    @Flag(help: "Log what the camera does on stderr: stream starts and restarts with their format, the first frame, dropped frames, control changes (--log-level debug).")
    var verbose = false

    @Option(name: .customLong("log-level"), help: "Log on stderr from this level up: trace, debug, info, notice, warning, error or critical.")
    var logLevel: Logger.Level?

    /// A logger writing to stderr at the level asked for; nil when no logging was asked for.
    var logger: Logger? {
        guard let level = logLevel ?? (verbose ? .debug : nil) else { return nil }
        var logger = Logger(label: "photocap", factory: { StreamLogHandler.standardError(label: $0) })
        logger.logLevel = level
        return logger
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
