/// MIPI CSI-2 packing written from the V4L2 specification (pixfmt-srggb10p, pixfmt-srggb12p),
/// independently of photocap's kernels, to make frames whose every sample is known.
public enum CSI2Packer {
    /// `values` (row by row, `width` a row, each below 2^bits) packed as 10-bit (4 samples in 5
    /// bytes: 4 high bytes, then a byte of the 2 low bits of each, the first sample in bits 1–0)
    /// or 12-bit (2 samples in 3 bytes: 2 high bytes, then the low 4 bits of each, the first in
    /// bits 3–0); `width` must be a multiple of the group size.
    public static func pack(_ values: [UInt16], width: Int, bits: Int) -> [UInt8] {
        precondition(bits == 10 || bits == 12)
        let group = bits == 10 ? 4 : 2
        precondition(width % group == 0 && values.count % width == 0)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(values.count * bits / 8)
        for start in stride(from: 0, to: values.count, by: group) {
            let samples = values[start..<start + group].map(Int.init)
            var low = 0
            for (index, sample) in samples.enumerated() {
                precondition(sample < 1 << bits)
                bytes.append(UInt8(sample >> (bits - 8)))
                low |= (sample & ((1 << (bits - 8)) - 1)) << ((bits - 8) * index)
            }
            bytes.append(UInt8(low))
        }
        return bytes
    }

    /// A pattern that reaches 0, the largest value and every bit of a `bits`-bit sample, and
    /// differs between neighbouring sites (so a swapped or shifted sample shows).
    public static func pattern(width: Int, height: Int, bits: Int) -> [UInt16] {
        let limit = 1 << bits
        return (0..<width * height).map { index in
            let (x, y) = (index % width, index / width)
            switch (x + y * 7) % 97 {
            case 0: return 0
            case 1: return UInt16(limit - 1)
            default: return UInt16((x * 37 + y * 1009 + (x * y) % 13) % limit)
            }
        }
    }
}
