import Codecs
import Glibc

/// An open YUV4MPEG2 file, read with `pread` one frame at a time (never all of it), closed
/// when the last reference goes.
final class ClipFile: Sendable {
    let path: String
    let header: ClipHeader
    private let descriptor: Int32

    /// Opens `path` and parses its header.
    init(path: String) throws(ClipError) {
        // As every reader of files opens them: a FIFO or a directory is refused, not waited on.
        let descriptor: Int32
        do { descriptor = try InputFile.openRegular(path).descriptor } catch { throw .unreadable(error) }
        self.path = path
        self.descriptor = descriptor
        do throws(ClipError) {
            var head = [UInt8](repeating: 0, count: ClipHeader.maximumLength)
            let count = try Self.read(descriptor, into: &head, at: 0)
            header = try ClipHeader(head.prefix(count))
        } catch {
            close(descriptor)
            throw error
        }
    }

    deinit { close(descriptor) }

    /// Where the planes of the frame whose `FRAME` line starts at `offset` begin, or nil at the
    /// end of the file; `index` is named in errors.
    func planesOffset(frameAt offset: Int, index: Int) throws(ClipError) -> Int? {
        // "FRAME", optional parameters, a line end: ffmpeg writes no parameters.
        var line = [UInt8](repeating: 0, count: 256)
        let count = try Self.read(descriptor, into: &line, at: offset)
        if count == 0 { return nil }
        guard line.starts(with: Array("FRAME".utf8)), count > 5, line[5] == UInt8(ascii: "\n") || line[5] == UInt8(ascii: " "),
              let end = line[..<count].firstIndex(of: UInt8(ascii: "\n")) else {
            throw .invalidFrameHeader(index: index)
        }
        return offset + end + 1
    }

    /// Reads the planes at `offset` into `buffer` (a whole frame), `index` named in errors.
    func readPlanes(at offset: Int, into buffer: UnsafeMutableRawBufferPointer, index: Int) throws(ClipError) {
        guard let done = InputFile.read(descriptor, into: buffer, at: offset) else { throw .system(call: "pread", errno: errno) }
        if done < buffer.count { throw .truncatedFrame(index: index, expected: buffer.count, actual: done) }
    }

    private static func read(_ descriptor: Int32, into bytes: inout [UInt8], at offset: Int) throws(ClipError) -> Int {
        guard let done = bytes.withUnsafeMutableBytes({ InputFile.read(descriptor, into: $0, at: offset) }) else {
            throw .system(call: "pread", errno: errno)
        }
        return done
    }
}
