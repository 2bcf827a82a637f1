import Foundation
import TestSupport

/// A photocap run stopped with SIGINT, as a user presses Ctrl-C.
///
/// Synchronous on purpose: the suite's blocking tests can starve the cooperative pool, and an
/// awaited sleep could then wake after the run had ended on its own.
struct InterruptedRun {
    /// Whether the process exited (rather than died of the signal).
    let exited: Bool
    /// Its exit status, or the signal that killed it.
    let status: Int32
    let stderr: String
    /// From the first SIGINT to the end of the process.
    let secondsToExit: TimeInterval

    /// Runs photocap with `arguments` and interrupts it after `seconds`.
    init(_ arguments: [String], interruptingAfter seconds: TimeInterval) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TestPaths.photocap)
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = Pipe()
        try process.run()
        Thread.sleep(forTimeInterval: seconds)
        let interrupted = Date()
        // On a loaded machine the first SIGINT can come before the handler is in place (the
        // signal is ignored while it is being set up): repeat it.
        for _ in 0..<10 where process.isRunning {
            process.interrupt()
            Thread.sleep(forTimeInterval: 0.5)
        }
        process.waitUntilExit()
        secondsToExit = Date().timeIntervalSince(interrupted)
        exited = process.terminationReason == .exit
        status = process.terminationStatus
        stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }
}
