#if canImport(Glibc)
import Glibc
#endif

/// MD5 (RFC 1321), for the one place a file format asks for it: the GUID of a JPEG's extended
/// XMP is the MD5 of the extended packet (XMP specification, part 3). None of the libraries
/// photocap links offers it.
package enum MD5 {
    /// The 16-byte digest of `bytes`.
    package static func digest(_ bytes: [UInt8]) -> [UInt8] {
        var state: (UInt32, UInt32, UInt32, UInt32) = (0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476)
        var message = bytes
        message.append(0x80)
        while message.count % 64 != 56 { message.append(0) }
        let bits = UInt64(bytes.count) &* 8
        for shift in stride(from: 0, to: 64, by: 8) { message.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
        var words = [UInt32](repeating: 0, count: 16)
        for block in stride(from: 0, to: message.count, by: 64) {
            for index in 0..<16 {
                let at = block + index * 4
                words[index] = UInt32(message[at]) | UInt32(message[at + 1]) << 8 | UInt32(message[at + 2]) << 16 | UInt32(message[at + 3]) << 24
            }
            var (a, b, c, d) = state
            for step in 0..<64 {
                let mixed: UInt32
                let word: Int
                switch step / 16 {
                case 0: (mixed, word) = ((b & c) | (~b & d), step)
                case 1: (mixed, word) = ((d & b) | (~d & c), (5 * step + 1) % 16)
                case 2: (mixed, word) = (b ^ c ^ d, (3 * step + 5) % 16)
                default: (mixed, word) = (c ^ (b | ~d), (7 * step) % 16)
                }
                let sum = a &+ mixed &+ constants[step] &+ words[word]
                (a, d, c) = (d, c, b)
                b = b &+ ((sum << shifts[step]) | (sum >> (32 - shifts[step])))
            }
            state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d)
        }
        return [state.0, state.1, state.2, state.3].flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> (8 * UInt32($0))) } }
    }

    /// The digest in 32 uppercase hexadecimal digits.
    package static func hexDigest(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789ABCDEF")
        return String(digest(bytes).flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xF)]] })
    }

    /// Left rotations of each step.
    private static let shifts: [UInt32] = [[7, 12, 17, 22], [5, 9, 14, 20], [4, 11, 16, 23], [6, 10, 15, 21]].flatMap { round in
        (0..<16).map { round[$0 % 4] }
    }

    /// floor(2^32 · |sin(i + 1)|), as RFC 1321 tabulates it.
    private static let constants: [UInt32] = (0..<64).map { UInt32(truncatingIfNeeded: Int64((abs(sin(Double($0 + 1))) * 4_294_967_296).rounded(.down))) }
}
