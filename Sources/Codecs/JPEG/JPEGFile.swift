#if canImport(Glibc)
import Glibc
#endif
import Imaging

/// Reads and rewrites the marker segments of a JPEG file without decoding it.
package enum JPEGFile {
    /// The largest APP1 payload ("Exif\0\0" + block): 65535 minus the 2 length bytes.
    static let maximumAPP1Payload = 65533
    /// The namespace header that starts a standard XMP APP1 segment's payload, before the packet.
    static let xmpAPP1Header = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0]
    /// The largest TIFF-structured EXIF block one APP1 segment holds.
    package static let maximumEXIFBlock = maximumAPP1Payload - EXIFData.app1Header.count

    /// An APP1 segment (marker, length, "Exif\0\0", block) holding `tiffBlock`; throws when the
    /// block does not start with a TIFF header or does not fit in one segment.
    package static func exifSegment(_ tiffBlock: [UInt8]) throws(CodecError) -> [UInt8] {
        guard TIFFHeader(tiffBlock) != nil else {
            throw .invalidArgument("the EXIF block does not start with a TIFF header")
        }
        let payloadCount = EXIFData.app1Header.count + tiffBlock.count
        guard payloadCount <= maximumAPP1Payload else {
            throw .invalidArgument("an EXIF block of \(tiffBlock.count) bytes does not fit in one APP1 segment (at most \(maximumAPP1Payload - EXIFData.app1Header.count))")
        }
        let length = payloadCount + 2
        return [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + EXIFData.app1Header + tiffBlock
    }

    /// A standard XMP APP1 segment holding `packet`; throws when the packet exceeds
    /// ``maximumXMPPacket`` bytes.
    package static func xmpSegment(_ packet: String) throws(CodecError) -> [UInt8] {
        let bytes = Array(packet.utf8)
        guard bytes.count <= maximumXMPPacket else {
            throw .invalidArgument("an XMP packet of \(bytes.count) bytes does not fit in one APP1 segment (at most \(maximumXMPPacket))")
        }
        let length = xmpAPP1Header.count + bytes.count + 2
        return [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + xmpAPP1Header + bytes
    }

    /// Inserts an APP1 EXIF segment ("Exif\0\0" + `tiffBlock`) right after SOI and the JFIF
    /// APP0 (if any), replacing any existing EXIF APP1.
    ///
    /// Throws when `jpeg` is not a JPEG file or when "Exif\0\0" + `tiffBlock` exceeds the
    /// 65533 bytes a segment can hold.
    package static func insertingEXIF(_ tiffBlock: [UInt8], into jpeg: [UInt8]) throws(CodecError) -> [UInt8] {
        let exif = try exifSegment(tiffBlock)
        let segments = try headerSegments(of: jpeg)
        var output: [UInt8] = []
        output.reserveCapacity(jpeg.count + exif.count)
        output += [0xFF, 0xD8]
        var remaining = segments.list[...]
        // JFIF wants its APP0 first; EXIF readers accept APP1 after it.
        if let first = remaining.first, first.isJFIF(in: jpeg) {
            output += jpeg[first.range]
            remaining = remaining.dropFirst()
        }
        output += exif
        for segment in remaining where !segment.isEXIF(in: jpeg) {
            output += jpeg[segment.range]
        }
        output += jpeg[segments.scanStart...]
        return output
    }

    /// The largest XMP packet one standard XMP APP1 segment holds, as Adobe's XMP specification
    /// (part 3) gives it; larger packets need extended XMP, which photocap does not write.
    package static let maximumXMPPacket = 65502

    /// Inserts `packet` as a standard XMP APP1 segment ("http://ns.adobe.com/xap/1.0/\0" +
    /// packet) after SOI and the leading JFIF and EXIF segments, replacing any XMP APP1 `jpeg`
    /// has. Throws when the packet exceeds ``maximumXMPPacket`` bytes.
    package static func insertingXMP(_ packet: String, into jpeg: [UInt8]) throws(CodecError) -> [UInt8] {
        let xmp = try xmpSegment(packet)
        let segments = try headerSegments(of: jpeg)
        let leading = segments.list.prefix { $0.isJFIF(in: jpeg) || $0.isEXIF(in: jpeg) }
        var output = Array(jpeg[..<(leading.last?.range.upperBound ?? 2)])
        output += xmp
        for segment in segments.list.dropFirst(leading.count) where !segment.isXMP(in: jpeg) {
            output += jpeg[segment.range]
        }
        return output + jpeg[segments.scanStart...]
    }

    /// Every APPn and COM segment of `original`, whole and in their order: what a lossless turn
    /// keeps after its SOI, since the coding (components, colour transform) is the original's.
    package static func applicationSegments(of original: [UInt8]) throws(CodecError) -> [UInt8] {
        let segments = try headerSegments(of: original).list.filter { (0xE0...0xEF).contains($0.marker) || $0.marker == 0xFE }
        var output: [UInt8] = []
        output.reserveCapacity(segments.reduce(0) { $0 + $1.range.count })
        for segment in segments { output += original[segment.range] }
        return output
    }

    /// `encoded` with the segments of `original` that describe the picture rather than its
    /// coding — XMP, ICC profile, APP3–APP13 and APP15, comments, an Adobe APP14 that says YCbCr —
    /// inserted after its own JFIF and EXIF segments, in their original order. The original's
    /// JFIF APP0 (version, density) takes the place of the encoder's, or comes first where the
    /// original had it first, its density and thumbnail turned by `orientation`. With
    /// `keepingColourModel` (``JPEGCMYKTurn``, which codes the samples as the original did) its
    /// Adobe APP14 is carried whatever it says. Not carried: JFXX (APP0, an unturned second
    /// thumbnail) and an Adobe APP14 saying RGB/CMYK, which would misdescribe the new coding;
    /// EXIF, which callers rewrite. An MPF index is carried for ``MPFIndex`` to rebase.
    package static func carryingDescriptiveSegments(from original: [UInt8], into encoded: [UInt8],
                                                    turnedBy orientation: Orientation = .up,
                                                    keepingColourModel: Bool = false) throws(CodecError) -> [UInt8] {
        let source = try headerSegments(of: original)
        let target = try headerSegments(of: encoded)
        let jfif = source.list.first { $0.isJFIF(in: original) }
        let turnedJFIF = jfif.map { turnedJFIFSegment(original[$0.range], by: orientation) }
        var output: [UInt8] = [0xFF, 0xD8]
        var remaining = target.list[...]
        var resume = 2
        var jfifPlaced = false
        if let turnedJFIF, let first = remaining.first, first.isJFIF(in: encoded) {
            output += turnedJFIF
            remaining = remaining.dropFirst()
            resume = first.range.upperBound
            jfifPlaced = true
        } else if let turnedJFIF, source.list.first?.range == jfif?.range {
            output += turnedJFIF
            jfifPlaced = true
        }
        // After SOI and the leading APP0/EXIF APP1 of the new file.
        let leading = remaining.prefix { $0.isJFIF(in: encoded) || $0.isEXIF(in: encoded) }
        for segment in leading { output += encoded[segment.range] }
        resume = leading.last?.range.upperBound ?? resume
        for segment in source.list {
            if segment.range == jfif?.range {
                if !jfifPlaced, let turnedJFIF { output += turnedJFIF }
            } else if segment.isDescriptive(in: original) || (keepingColourModel && segment.isAdobe(in: original)) {
                output += original[segment.range]
            }
        }
        return output + encoded[resume...]
    }

    /// A JFIF APP0 segment for the picture turned by `orientation`: horizontal and vertical
    /// density swapped with the axes, the uncompressed thumbnail turned with the picture. A
    /// thumbnail shorter than its size says is dropped (size 0x0) rather than kept unturned.
    static func turnedJFIFSegment(_ segment: ArraySlice<UInt8>, by orientation: Orientation) -> [UInt8] {
        var bytes = Array(segment)
        // Marker, length, "JFIF\0", version, units, X and Y density, thumbnail width and height.
        let header = 4 + 14
        guard bytes.count >= header else { return bytes }
        let thumbnailSize = PixelSize(width: Int(bytes[16]), height: Int(bytes[17]))
        let thumbnailBytes = thumbnailSize.area * 3
        guard bytes.count >= header + thumbnailBytes else {
            bytes = Array(bytes[..<header])
            bytes[16] = 0
            bytes[17] = 0
            bytes[2] = UInt8((header - 2) >> 8)
            bytes[3] = UInt8((header - 2) & 0xFF)
            return bytes
        }
        if orientation.swapsDimensions {
            bytes.swapAt(12, 14)
            bytes.swapAt(13, 15)
            bytes.swapAt(16, 17)
        }
        if thumbnailBytes > 0 {
            let thumbnail = RGBImage(size: thumbnailSize, pixels: Array(bytes[header..<(header + thumbnailBytes)]))
            bytes.replaceSubrange(header..<(header + thumbnailBytes), with: thumbnail.transformed(by: orientation).pixels)
        }
        return bytes
    }

    /// `jpeg` with the `tiff:Orientation` of its XMP packet set to 1 (see ``XMPOrientation``);
    /// unchanged when it has no XMP or the packet no orientation.
    package static func withUprightXMP(_ jpeg: [UInt8]) throws(CodecError) -> [UInt8] {
        try editingXMP(jpeg) { XMPOrientation.upright(bytes: $0) }
    }

    /// `jpeg` with its standard XMP packet replaced by what `edit` makes of it, in the same
    /// place; unchanged when it has no XMP or `edit` returns nil.
    package static func editingXMP(_ jpeg: [UInt8], _ edit: (ArraySlice<UInt8>) -> [UInt8]?) throws(CodecError) -> [UInt8] {
        guard let xmp = try headerSegments(of: jpeg).list.first(where: { $0.isXMP(in: jpeg) }),
              let edited = edit(xmp.xmpPacket(in: jpeg))
        else { return jpeg }
        let payload = xmpAPP1Header + edited
        guard payload.count <= maximumAPP1Payload else {
            throw .invalidArgument("the edited XMP packet no longer fits one APP1 segment")
        }
        let length = payload.count + 2
        let segment: [UInt8] = [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
        return Array(jpeg[..<xmp.range.lowerBound]) + segment + Array(jpeg[xmp.range.upperBound...])
    }

    /// The standard XMP packet's bytes, nil without one.
    package static func xmpPacket(in jpeg: [UInt8]) throws(CodecError) -> ArraySlice<UInt8>? {
        try headerSegments(of: jpeg).list.first { $0.isXMP(in: jpeg) }?.xmpPacket(in: jpeg)
    }

    /// Whether the header defines Huffman tables (DHT). Webcams' MJPEG frames usually do not:
    /// decoders assume the standard tables of JPEG Annex K.3, but a file must carry them.
    package static func hasHuffmanTables(_ jpeg: [UInt8]) throws(CodecError) -> Bool {
        try headerSegments(of: jpeg).list.contains { $0.marker == 0xC4 }
    }

    /// `jpeg` with the standard Huffman tables (Annex K.3) inserted before the scan when it has
    /// none, as an MJPEG frame must get them to become a standalone file; unchanged otherwise.
    package static func withStandardHuffmanTables(_ jpeg: [UInt8]) throws(CodecError) -> [UInt8] {
        let segments = try headerSegments(of: jpeg)
        guard !segments.list.contains(where: { $0.marker == 0xC4 }) else { return jpeg }
        let tables = try standardHuffmanTables()
        return Array(jpeg[..<segments.scanStart]) + tables + Array(jpeg[segments.scanStart...])
    }

    /// `jpeg` without its DHT segments: a frame as a UVC webcam sends it.
    package static func removingHuffmanTables(_ jpeg: [UInt8]) throws(CodecError) -> [UInt8] {
        let segments = try headerSegments(of: jpeg)
        var output: [UInt8] = [0xFF, 0xD8]
        for segment in segments.list where segment.marker != 0xC4 { output += jpeg[segment.range] }
        return output + jpeg[segments.scanStart...]
    }

    /// libjpeg-turbo writes the Annex K.3 tables when Huffman optimisation is off, so they are
    /// taken from a tiny encoded image rather than typed in.
    private static func standardHuffmanTables() throws(CodecError) -> [UInt8] {
        let image: PlanarImage
        do { image = try PlanarImage(size: PixelSize(width: 16, height: 16)) } catch { throw .imaging(error) }
        let sample = try JPEGEncoder().encode(image, quality: 90)
        let segments = try headerSegments(of: sample)
        let tables = segments.list.filter { $0.marker == 0xC4 }.flatMap { sample[$0.range] }
        guard !tables.isEmpty else { throw .unsupportedFormat(reason: "libjpeg-turbo wrote no Huffman tables") }
        return tables
    }

    /// Whether the EXIF APP1 is the first segment after SOI (no JFIF APP0 before it).
    package static func startsWithEXIF(_ jpeg: [UInt8]) throws(CodecError) -> Bool {
        try headerSegments(of: jpeg).list.first?.isEXIF(in: jpeg) == true
    }

    /// `jpeg` without its JFIF APP0, which is optional when an EXIF APP1 says what the picture
    /// is; lets an EXIF block sit at the same file offset as in an original that had none, for
    /// maker notes that point into the file from its start (Canon's OriginalDecisionData).
    package static func removingJFIF(_ jpeg: [UInt8]) throws(CodecError) -> [UInt8] {
        let segments = try headerSegments(of: jpeg)
        guard let jfif = segments.list.first(where: { $0.isJFIF(in: jpeg) }) else { return jpeg }
        return Array(jpeg[..<jfif.range.lowerBound]) + Array(jpeg[jfif.range.upperBound...])
    }

    /// The bytes after the EOI that ends the first image: trailers that editors append
    /// (PhotoMechanic, FotoStation, MIE, Samsung); empty when there are none.
    package static func trailer(of jpeg: [UInt8]) throws(CodecError) -> ArraySlice<UInt8> {
        guard let end = endOfImage(in: jpeg, from: try headerSegments(of: jpeg).scanStart) else { return [] }
        return jpeg[(end + 2)...]
    }

    /// Where the first EOI marker (FF D9) at or after `start` begins, nil if there is none: after
    /// the scan's start, the end of the picture. 0xFF inside entropy-coded data is followed by
    /// 0x00 or RSTn, so the first FF D9 is EOI. memchr hops between the few 0xFF bytes of a
    /// scan instead of testing each of its megabytes.
    package static func endOfImage(in jpeg: [UInt8], from start: Int) -> Int? {
        jpeg.withUnsafeBufferPointer { buffer -> Int? in
            guard let base = buffer.baseAddress, start >= 0 else { return nil }
            var index = start
            while index + 1 < buffer.count {
                guard let found = memchr(base + index, 0xFF, buffer.count - 1 - index) else { return nil }
                let at = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                if buffer[at + 1] == 0xD9 { return at }
                index = at + 1
            }
            return nil
        }
    }

    /// The TIFF-structured EXIF block of a JPEG file, nil if it has none.
    package static func exifBlock(in jpeg: [UInt8]) throws(CodecError) -> [UInt8]? {
        let segments = try headerSegments(of: jpeg)
        guard let segment = segments.list.first(where: { $0.isEXIF(in: jpeg) }) else { return nil }
        return Array(jpeg[(segment.payloadStart + EXIFData.app1Header.count)..<segment.range.upperBound])
    }

    /// One marker segment before the scan.
    struct Segment {
        /// The marker's second byte (0xE1 for APP1).
        let marker: UInt8
        /// Marker, length and payload.
        let range: Range<Int>
        /// Where the payload starts (after the length).
        var payloadStart: Int { range.lowerBound + 4 }

        func payloadStarts(with prefix: [UInt8], in jpeg: [UInt8]) -> Bool {
            range.upperBound - payloadStart >= prefix.count
                && jpeg[payloadStart..<(payloadStart + prefix.count)].elementsEqual(prefix)
        }

        func isEXIF(in jpeg: [UInt8]) -> Bool {
            marker == 0xE1 && payloadStarts(with: EXIFData.app1Header, in: jpeg)
        }

        func isXMP(in jpeg: [UInt8]) -> Bool {
            marker == 0xE1 && payloadStarts(with: JPEGFile.xmpAPP1Header, in: jpeg)
        }

        /// The packet of a standard XMP segment (``isXMP(in:)``): its payload after the header.
        func xmpPacket(in jpeg: [UInt8]) -> ArraySlice<UInt8> {
            jpeg[(payloadStart + JPEGFile.xmpAPP1Header.count)..<range.upperBound]
        }

        /// Metadata about the picture that survives re-encoding (see
        /// ``JPEGFile/carryingDescriptiveSegments(from:into:)``).
        func isDescriptive(in jpeg: [UInt8]) -> Bool {
            switch marker {
            case 0xE1: return !isEXIF(in: jpeg)
            // MPF too: its table is rebased to the new coding (MPFIndex).
            case 0xE2: return true
            case 0xE3...0xE7, 0xE9...0xED, 0xEF, 0xFE: return true
            // Canon's CIFF metadata (PowerShot) rides in an APP0 of its own.
            case 0xE0: return payloadStarts(with: Array("II".utf8) + [0x1A, 0, 0, 0] + Array("HEAP".utf8), in: jpeg)
            // SPIFF's header gives the old coding's size and components.
            case 0xE8: return !payloadStarts(with: Array("SPIFF".utf8) + [0], in: jpeg)
            // Adobe's segment is carried when it says YCbCr (transform 1), as the new coding
            // is; one that says RGB or CMYK would misdescribe it.
            case 0xEE: return isAdobe(in: jpeg) && range.count >= 4 + 12 && jpeg[payloadStart + 11] == 1
            default: return false
            }
        }

        /// Adobe's APP14, which says how the samples are coded (YCbCr, YCCK, or as they are).
        func isAdobe(in jpeg: [UInt8]) -> Bool {
            marker == 0xEE && payloadStarts(with: Array("Adobe".utf8), in: jpeg)
        }

        func isJFIF(in jpeg: [UInt8]) -> Bool {
            marker == 0xE0 && payloadStarts(with: Array("JFIF".utf8) + [0], in: jpeg)
        }
    }

    /// The segments between SOI and the first SOS, and where that SOS starts.
    static func headerSegments(of jpeg: [UInt8]) throws(CodecError) -> (list: [Segment], scanStart: Int) {
        guard jpeg.count >= 4, jpeg[0] == 0xFF, jpeg[1] == 0xD8 else {
            throw .corruptFile(format: "JPEG", reason: "no SOI marker (FF D8) at the start")
        }
        var list: [Segment] = []
        var position = 2
        while true {
            guard position + 1 < jpeg.count else {
                throw .corruptFile(format: "JPEG", reason: "the file ends at byte \(jpeg.count) before the image data (no SOS marker)")
            }
            guard jpeg[position] == 0xFF else {
                throw .corruptFile(format: "JPEG", reason: "expected a marker at byte \(position), found 0x\(String(jpeg[position], radix: 16))")
            }
            let marker = jpeg[position + 1]
            if marker == 0xFF { position += 1; continue }  // fill byte
            if marker == 0xD9 {
                throw .corruptFile(format: "JPEG", reason: "EOI before any image data")
            }
            if marker == 0x01 || (0xD0...0xD7).contains(marker) {  // no length field
                position += 2
                continue
            }
            guard position + 3 < jpeg.count else {
                throw .corruptFile(format: "JPEG", reason: "the file ends inside the header of segment 0xFF\(String(marker, radix: 16, uppercase: true))")
            }
            if marker == 0xDA { return (list, position) }
            let length = Int(jpeg[position + 2]) << 8 | Int(jpeg[position + 3])
            let end = position + 2 + length
            guard length >= 2, end <= jpeg.count else {
                throw .corruptFile(format: "JPEG", reason: "segment 0xFF\(String(marker, radix: 16, uppercase: true)) at byte \(position) runs past the end of the file: the file is truncated at byte \(jpeg.count)")
            }
            list.append(Segment(marker: marker, range: position..<end))
            position = end
        }
    }
}
