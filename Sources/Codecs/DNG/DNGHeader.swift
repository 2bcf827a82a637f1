#if canImport(Glibc)
import Glibc
#endif
import Imaging

/// The size of a DNG's CFA image read from its directories alone, with `pread`, before the
/// file is read whole: a DNG at the pixel limit holds hundreds of megabytes, which `develop`
/// read and copied three times (1.59 GB at 16384x16384) before LibRaw's check refused it.
package enum DNGHeader {
    /// Most entries a directory may have here: a DNG's IFD0 has some 60.
    static let maximumEntries = 1024
    /// Most SubIFDs looked at for the CFA image: photocap's DNGs have one.
    static let maximumSubIFDs = 64

    /// The CFA image's ImageWidth × ImageLength (IFD0 when its NewSubFileType is 0, else the
    /// first SubIFD whose NewSubFileType is 0) of the open file `descriptor` of `fileSize`
    /// bytes; nil when the directories do not say, which the full read then names.
    package static func cfaSize(descriptor: Int32, fileSize: Int) -> PixelSize? {
        func read(_ offset: Int, _ count: Int) -> [UInt8]? {
            // Every offset and count from the file is bounded by the file before a buffer is sized.
            guard offset >= 0, count > 0, count <= fileSize, offset <= fileSize - count else { return nil }
            var bytes = [UInt8](repeating: 0, count: count)
            let got = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, count, off_t(offset)) }
            return got == count ? bytes : nil
        }
        guard let bytes = read(0, 8), let header = TIFFHeader(bytes) else { return nil }
        let little = header.isLittleEndian
        func integer(_ bytes: [UInt8], _ at: Int, _ count: Int) -> Int {
            (try? TIFFHeader.integer(bytes, at: at, count: count, littleEndian: little)) ?? 0
        }
        /// A directory's NewSubFileType, size and SubIFD offsets.
        func directory(at offset: Int) -> (kind: Int, width: Int?, height: Int?, subIFDs: [Int])? {
            guard let countBytes = read(offset, 2) else { return nil }
            let count = integer(countBytes, 0, 2)
            guard count <= maximumEntries, let entries = read(offset + 2, count * 12) else { return nil }
            var result: (kind: Int, width: Int?, height: Int?, subIFDs: [Int]) = (0, nil, nil, [])
            for index in 0..<count {
                let at = index * 12
                let (tag, type, values) = (integer(entries, at, 2), integer(entries, at + 2, 2), integer(entries, at + 4, 4))
                // SHORT values sit in the first two bytes of the field, LONG (and IFD) in all four.
                let value = integer(entries, at + 8, type == 3 ? 2 : 4)
                switch tag {
                case 254: result.kind = value
                case 256: result.width = value
                case 257: result.height = value
                case 330 where values == 1: result.subIFDs = [value]
                case 330 where values > 1 && [4, 13].contains(type):
                    let listed = read(value, min(values, maximumSubIFDs) * 4) ?? []
                    result.subIFDs = stride(from: 0, to: listed.count, by: 4).map { integer(listed, $0, 4) }
                default: break
                }
            }
            return result
        }
        guard let first = directory(at: header.firstIFDOffset) else { return nil }
        let cfa = first.kind == 0 ? first : first.subIFDs.lazy.compactMap { directory(at: $0) }.first { $0.kind == 0 }
        guard let cfa, let width = cfa.width, let height = cfa.height else { return nil }
        return PixelSize(width: width, height: height)
    }
}
