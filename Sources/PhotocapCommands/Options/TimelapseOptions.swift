import ArgumentParser

/// `--interval` and its companions: photos on a fixed schedule from one running session.
struct TimelapseOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Take a photo every DURATION (500ms, 10s, 2m, 1h) on one running session, on a schedule that does not drift; with --count N or --duration.",
        valueName: "duration"))
    var interval: TimeSpan?

    @Option(help: ArgumentHelp("With --interval: keep shooting for this long (with --count too, whichever ends first).",
                               valueName: "duration"))
    var duration: TimeSpan?

    @Option(help: ArgumentHelp("With --interval: a symbolic link at this path always points at the newest photo (replaced atomically).",
                               valueName: "path"))
    var latest: String?

    @Option(name: .customLong("reconnect-timeout"), help: ArgumentHelp(
        "With --interval: how long to wait for an unplugged camera to come back (found again by its bus info) before giving up.",
        valueName: "duration"))
    var reconnectTimeout = TimeSpan(.seconds(300))

    /// Checks the combination; `count` is the command's `--count`, `countGiven` whether it was set.
    func validate(countGiven: Bool) throws {
        guard let interval else {
            if duration != nil || latest != nil {
                throw ValidationError("--duration and --latest go with --interval")
            }
            return
        }
        guard countGiven || duration != nil else {
            throw ValidationError("--interval needs --count N or --duration, so the timelapse ends")
        }
        if let duration, duration.duration < interval.duration {
            throw ValidationError("--duration \(duration) is shorter than --interval \(interval)")
        }
    }
}
