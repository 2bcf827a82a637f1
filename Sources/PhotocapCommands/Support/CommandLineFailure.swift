import ArgumentParser
import PhotoCapture
#if canImport(Glibc)
import Glibc
#endif

/// Prints `photocap: error: MESSAGE` as one line on stderr, control characters escaped (messages
/// quote text from files); the result is thrown to exit with 1.
package func fail(_ message: String) -> ExitCode {
    writeToStandardError("photocap: error: \(message.escapingControlCharacters)\n")
    return ExitCode(1)
}

/// Prints a note on stderr (never mixed into --json output), control characters escaped.
package func note(_ message: String) {
    writeToStandardError("photocap: \(message.escapingControlCharacters)\n")
}

/// Writes `text` as it is to stderr in one write(2) (as FileHandle.standardError did: it
/// appears at once, between lines on stdout, and shares no stdio buffer between threads).
func writeToStandardError(_ text: String) {
    let bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
        let written = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress! + offset, $0.count - offset) }
        if written > 0 {
            offset += written
        } else if written < 0 && errno == EINTR {
            continue
        } else {
            return
        }
    }
}
