import ArgumentParser
import PhotoCapture
import Foundation

/// Prints `photocap: error: MESSAGE` as one line on stderr, control characters escaped (messages
/// quote text from files); the result is thrown to exit with 1.
func fail(_ message: String) -> ExitCode {
    FileHandle.standardError.write(Data("photocap: error: \(message.escapingControlCharacters)\n".utf8))
    return ExitCode(1)
}

/// Prints a note on stderr (never mixed into --json output), control characters escaped.
func note(_ message: String) {
    FileHandle.standardError.write(Data("photocap: \(message.escapingControlCharacters)\n".utf8))
}
