import CJPEGCoefficients
import Dispatch
import Imaging

/// A lossless turn of a JPEG's DCT coefficients (libjpeg's coefficient API), turned and
/// entropy-coded in strips on parallel threads and joined with restart markers, like the
/// strip-parallel encode (``JPEGEncoder/encodeInStrips(_:quality:strips:alongside:)``).
///
/// The coefficients are those tjTransform (jpegtran) would write — the same decoded pixels —
/// but libjpeg-turbo's transupp reaches the source blocks column by column through its
/// virtual-array accessor in one thread: on a 12 MP 90° turn that costs more than reading and
/// writing the file together. The read itself, the serial part, runs on two threads for a large
/// single-scan baseline file (``EntropyDecode``). Owns the libjpeg state; released in `deinit`.
package final class JPEGCoefficientTurn {
    private let turn: OpaquePointer
    /// The original bytes, which libjpeg's source manager reads in place.
    private let jpeg: [UInt8]

    /// Reads the coefficients of `jpeg` for the turn `orientation` asks for, in up to `strips`
    /// strips, entropy-decoding on two threads where `strips` allows and `splitDecode` does. Nil
    /// when this path does not take the file (not 8-bit, or the turn is not exact); throws when
    /// libjpeg fails on it (a damaged file).
    package init?(_ jpeg: [UInt8], orientation: Orientation, strips: Int, splitDecode: Bool = true) throws(CodecError) {
        self.jpeg = jpeg
        var message = [CChar](repeating: 0, count: 256)
        var opened: OpaquePointer?
        let code = self.jpeg.withUnsafeBufferPointer {
            pc_jpeg_turn_open($0.baseAddress, $0.count, Int32(orientation.exifValue), Int32(strips),
                              splitDecode && strips >= 2 ? 2 : 1, &opened, &message)
        }
        switch code {
        case Int32(PC_JPEG_TURN_OK):
            guard let opened else { return nil }
            turn = opened
        case Int32(PC_JPEG_TURN_UNSUPPORTED):
            return nil
        default:
            throw .libjpeg(function: "jpeg_read_coefficients", message: String(cMessage: message))
        }
    }

    deinit { pc_jpeg_turn_close(turn) }

    /// How the coefficients were entropy-decoded.
    package enum EntropyDecode: Equatable, Sendable {
        /// By libjpeg: a small, progressive, restart-coded or otherwise unusual file, or one
        /// thread only.
        case libjpeg
        /// By the split decoder on one thread: the speculative second half never fell into step.
        case oneThread
        /// By the split decoder, the second half on a second thread from the middle of the data.
        case twoThreads
    }

    /// How this turn's coefficients were read.
    package var entropyDecode: EntropyDecode {
        switch pc_jpeg_turn_entropy_decode(turn) {
        case Int32(PC_JPEG_TURN_DECODED_IN_TWO): .twoThreads
        case Int32(PC_JPEG_TURN_DECODED_IN_ONE): .oneThread
        default: .libjpeg
        }
    }

    /// Whether libjpeg warned while reading the coefficients: data cut short or damaged, which it
    /// filled in or skipped.
    package var readWithWarnings: Bool { pc_jpeg_turn_warnings(turn) > 0 }

    /// The turned picture: a baseline JPEG with the original's quantisation tables, one restart
    /// interval per strip, and `segments` (the caller's application segments, whole) after its
    /// SOI — written once, as the strips are joined.
    package func turned(inserting segments: [UInt8] = []) throws(CodecError) -> (jpeg: [UInt8], size: PixelSize) {
        var width: Int32 = 0, height: Int32 = 0, restartInterval: UInt32 = 0
        pc_jpeg_turn_geometry(turn, &width, &height, &restartInterval)
        let count = Int(pc_jpeg_turn_strip_count(turn))
        var results = [Result<UnsafeBufferPointer<UInt8>, CodecError>?](repeating: nil, count: count)
        results.withUnsafeMutableBufferPointer { slots in
            // Each iteration fills only its own strip and its own slot.
            let work = TurnWork(turn: turn, slots: slots)
            DispatchQueue.concurrentPerform(iterations: count) { index in
                var bytes: UnsafePointer<UInt8>?
                var length = 0
                var message = [CChar](repeating: 0, count: 256)
                let code = pc_jpeg_turn_strip(work.turn, Int32(index), &bytes, &length, &message)
                work.slots[index] = code == Int32(PC_JPEG_TURN_OK) && bytes != nil
                    ? .success(UnsafeBufferPointer(start: bytes, count: length))
                    : .failure(.libjpeg(function: "jpeg_write_coefficients",
                                        message: String(cMessage: message)))
            }
        }
        var strips: [UnsafeBufferPointer<UInt8>] = []
        for result in results { try strips.append(result!.get()) }
        let size = PixelSize(width: Int(width), height: Int(height))
        guard let joined = JPEGEncoder.joined(strips, height: size.height, restartInterval: Int(restartInterval), inserting: segments) else {
            throw .libjpeg(function: "jpeg_write_coefficients", message: "the turned strips do not share their tables")
        }
        return (joined, size)
    }
}

/// The turn and result slots handed to the strip threads: each touches only its own index.
private struct TurnWork: @unchecked Sendable {
    let turn: OpaquePointer
    let slots: UnsafeMutableBufferPointer<Result<UnsafeBufferPointer<UInt8>, CodecError>?>
}
