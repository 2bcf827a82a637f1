import ArgumentParser
import Foundation

/// Prints `photocap: error: MESSAGE` as one line on stderr; the result is thrown to exit with 1.
func fail(_ message: String) -> ExitCode {
    FileHandle.standardError.write(Data("photocap: error: \(message)\n".utf8))
    return ExitCode(1)
}

/// Prints a note on stderr (never mixed into --json output).
func note(_ message: String) {
    FileHandle.standardError.write(Data("photocap: \(message)\n".utf8))
}
