/// A JPEG's extended XMP (XMP specification, part 3): the properties that do not fit the
/// standard packet's APP1 segment — an Android portrait's depth map and original picture — in
/// a second packet, split over APP1 segments that each carry the signature, the packet's GUID
/// (the MD5 of the whole packet, in 32 uppercase hexadecimal digits, which the standard packet
/// names in `xmpNote:HasExtendedXMP`), the packet's full length and the chunk's offset.
package enum JPEGExtendedXMP {
    /// The signature that starts each segment's payload.
    static let app1Header = Array("http://ns.adobe.com/xmp/extension/".utf8) + [0]
    /// Bytes of the packet per segment, as Adobe's writers split it (the specification allows
    /// up to 65,458).
    static let chunkSize = 65400

    /// One segment of extended XMP.
    private struct Chunk {
        let segment: JPEGFile.Segment
        let guid: [UInt8]
        let fullLength: Int
        let offset: Int
        let data: Range<Int>
    }

    /// The GUID of `packet`: its MD5 in 32 uppercase hexadecimal digits.
    package static func guid(of packet: [UInt8]) -> String { MD5.hexDigest(packet) }

    /// The extended packet whose GUID is `guid`, put together from its segments in the order of
    /// their offsets; nil when no segment carries that GUID. Throws when its segments disagree on
    /// its length, overlap or leave part of it out.
    package static func packet(in jpeg: [UInt8], guid: String) throws(CodecError) -> [UInt8]? {
        let chunks = try chunks(of: jpeg).filter { $0.guid == Array(guid.utf8) }
        guard let fullLength = chunks.first?.fullLength else { return nil }
        // The chunks are checked to cover the declared length before anything is allocated:
        // the length is the file's word (0xFFFFFFFF once cost 4.2 GB), what they hold is not.
        let ordered = chunks.sorted(by: { $0.offset < $1.offset })
        var covered = 0
        for chunk in ordered {
            guard chunk.fullLength == fullLength else {
                throw .corruptFile(format: "JPEG", reason: "the extended XMP \(guid) is said to be \(fullLength) and \(chunk.fullLength) bytes long")
            }
            guard chunk.offset == covered, chunk.offset + chunk.data.count <= fullLength else {
                throw .corruptFile(format: "JPEG", reason: "the extended XMP \(guid) has a gap or an overlap at byte \(min(chunk.offset, covered)) of \(fullLength)")
            }
            covered += chunk.data.count
        }
        guard covered == fullLength else {
            throw .corruptFile(format: "JPEG", reason: "the extended XMP \(guid) stops at byte \(covered) of \(fullLength)")
        }
        var packet: [UInt8] = []
        packet.reserveCapacity(fullLength)
        for chunk in ordered { packet += jpeg[chunk.data] }
        return packet
    }

    /// `jpeg` without the segments of the extended packet `guid`, and with `packet` (when not
    /// nil) split into segments under its own GUID (``guid(of:)``) right after the standard XMP
    /// segment — or where the removed segments began, when there is none.
    package static func replacing(_ guid: String, with packet: [UInt8]?, in jpeg: [UInt8]) throws(CodecError) -> [UInt8] {
        let segments = try JPEGFile.headerSegments(of: jpeg)
        let old = try chunks(of: jpeg).filter { $0.guid == Array(guid.utf8) }.map(\.segment.range)
        let anchor = segments.list.first { $0.isXMP(in: jpeg) }?.range.upperBound ?? old.first?.lowerBound ?? 2
        var output: [UInt8] = []
        output.reserveCapacity(jpeg.count + (packet?.count ?? 0))
        var position = 0
        for range in old.sorted(by: { $0.lowerBound < $1.lowerBound }) + [jpeg.count..<jpeg.count] {
            if (position...range.lowerBound).contains(anchor) {
                output += jpeg[position..<anchor]
                if let packet { output += try self.segments(of: packet) }
                position = anchor
            }
            output += jpeg[position..<range.lowerBound]
            position = range.upperBound
        }
        return output
    }

    /// The APP1 segments that carry `packet`.
    private static func segments(of packet: [UInt8]) throws(CodecError) -> [UInt8] {
        guard packet.count <= Int(UInt32.max) else { throw .invalidArgument("an extended XMP packet of \(packet.count) bytes") }
        let guid = Array(guid(of: packet).utf8)
        var output: [UInt8] = []
        for offset in stride(from: 0, to: packet.count, by: chunkSize) {
            let data = packet[offset..<min(offset + chunkSize, packet.count)]
            let length = 2 + app1Header.count + guid.count + 8 + data.count
            output += [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + app1Header + guid
            output += bigEndian(UInt32(packet.count)) + bigEndian(UInt32(offset))
            output += data
        }
        return output
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * UInt32($0))) } }

    /// Every extended XMP segment of `jpeg`, whatever its GUID.
    private static func chunks(of jpeg: [UInt8]) throws(CodecError) -> [Chunk] {
        try JPEGFile.headerSegments(of: jpeg).list.compactMap { segment -> Chunk? in
            guard segment.marker == 0xE1, segment.payloadStarts(with: app1Header, in: jpeg) else { return nil }
            let start = segment.payloadStart + app1Header.count
            guard segment.range.upperBound - start >= 40 else { return nil }
            func word(_ at: Int) -> Int { jpeg[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
            return Chunk(segment: segment, guid: Array(jpeg[start..<(start + 32)]), fullLength: word(start + 32), offset: word(start + 36),
                         data: (start + 40)..<segment.range.upperBound)
        }
    }
}
