import CExif

/// An owned libexif `ExifData` and the allocator its entries come from: the one place that
/// calls libexif.
final class EXIFData {
    /// The EXIF APP1 header libexif puts before (and expects before) the TIFF structure.
    static let app1Header: [UInt8] = Array("Exif".utf8) + [0, 0]

    let data: UnsafeMutablePointer<ExifData>
    private let memory: OpaquePointer
    /// Byte order of the TIFF structure; photocap writes little-endian ("II").
    let byteOrder = EXIF_BYTE_ORDER_INTEL

    /// An empty EXIF structure to build into.
    init() throws(CodecError) {
        guard let memory = exif_mem_new_default() else {
            throw .exif(function: "exif_mem_new_default", message: "out of memory")
        }
        guard let data = exif_data_new_mem(memory) else {
            exif_mem_unref(memory)
            throw .exif(function: "exif_data_new_mem", message: "out of memory")
        }
        self.memory = memory
        self.data = data
        exif_data_set_byte_order(data, byteOrder)
        exif_data_set_data_type(data, EXIF_DATA_TYPE_COMPRESSED)
        // We write exactly the entries we add; libexif must not invent defaults.
        exif_data_unset_option(data, EXIF_DATA_OPTION_FOLLOW_SPECIFICATION)
    }

    /// Parses a TIFF-structured block as it is, without libexif "fixing" it to the
    /// specification (that would invent entries the file does not have).
    convenience init(parsing tiffBlock: [UInt8]) throws(CodecError) {
        try self.init()
        // libexif reads no further than a JPEG APP1 segment holds (64 KiB): a TIFF file's
        // EXIF is read from its start without copying the whole file.
        let payload = Self.app1Header + tiffBlock.prefix(0xFFFE)
        guard payload.count <= Int(UInt32.max) else { throw .invalidArgument("EXIF block too large") }
        payload.withUnsafeBufferPointer { exif_data_load_data(data, $0.baseAddress, UInt32($0.count)) }
    }

    deinit {
        exif_data_unref(data)
        exif_mem_unref(memory)
    }

    private func content(_ ifd: ExifIfd) -> UnsafeMutablePointer<ExifContent> {
        withUnsafePointer(to: data.pointee.ifd) { tuple in
            tuple.withMemoryRebound(to: UnsafeMutablePointer<ExifContent>?.self, capacity: Int(EXIF_IFD_COUNT.rawValue)) {
                $0[Int(ifd.rawValue)]!
            }
        }
    }

    // MARK: Building

    /// Adds an entry with raw value bytes (already in ``byteOrder``).
    func add(_ tag: ExifTag, to ifd: ExifIfd, format: ExifFormat, components: Int, bytes: [UInt8]) throws(CodecError) {
        guard let entry = exif_entry_new_mem(memory) else {
            throw .exif(function: "exif_entry_new_mem", message: "out of memory")
        }
        defer { exif_entry_unref(entry) }
        guard let storage = exif_mem_alloc(memory, ExifLong(max(bytes.count, 1))) else {
            throw .exif(function: "exif_mem_alloc", message: "out of memory")
        }
        bytes.withUnsafeBytes { storage.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        entry.pointee.tag = tag
        entry.pointee.format = format
        entry.pointee.components = UInt(components)
        entry.pointee.size = UInt32(bytes.count)
        entry.pointee.data = storage.assumingMemoryBound(to: UInt8.self)
        exif_content_add_entry(content(ifd), entry)
    }

    /// Adds a NUL-terminated ASCII entry.
    func addASCII(_ tag: ExifTag, to ifd: ExifIfd, _ text: String) throws(CodecError) {
        let bytes = Array(text.utf8.map { $0 < 0x80 ? $0 : UInt8(ascii: "?") }) + [0]
        try add(tag, to: ifd, format: EXIF_FORMAT_ASCII, components: bytes.count, bytes: bytes)
    }

    /// Adds an UNDEFINED entry (version fields, component configuration).
    func addUndefined(_ tag: ExifTag, to ifd: ExifIfd, _ bytes: [UInt8]) throws(CodecError) {
        try add(tag, to: ifd, format: EXIF_FORMAT_UNDEFINED, components: bytes.count, bytes: bytes)
    }

    /// Adds a SHORT entry.
    func addShort(_ tag: ExifTag, to ifd: ExifIfd, _ value: UInt16) throws(CodecError) {
        var bytes = [UInt8](repeating: 0, count: 2)
        bytes.withUnsafeMutableBufferPointer { exif_set_short($0.baseAddress, byteOrder, value) }
        try add(tag, to: ifd, format: EXIF_FORMAT_SHORT, components: 1, bytes: bytes)
    }

    /// Adds a LONG entry.
    func addLong(_ tag: ExifTag, to ifd: ExifIfd, _ value: UInt32) throws(CodecError) {
        var bytes = [UInt8](repeating: 0, count: 4)
        bytes.withUnsafeMutableBufferPointer { exif_set_long($0.baseAddress, byteOrder, value) }
        try add(tag, to: ifd, format: EXIF_FORMAT_LONG, components: 1, bytes: bytes)
    }

    /// Adds a RATIONAL entry.
    func addRational(_ tag: ExifTag, to ifd: ExifIfd, _ numerator: UInt32, _ denominator: UInt32) throws(CodecError) {
        try addRationals(tag, to: ifd, [(numerator, denominator)])
    }

    /// Adds a RATIONAL entry of several components (GPS coordinates and times).
    func addRationals(_ tag: ExifTag, to ifd: ExifIfd, _ values: [(UInt32, UInt32)]) throws(CodecError) {
        var bytes = [UInt8](repeating: 0, count: 8 * values.count)
        bytes.withUnsafeMutableBufferPointer { buffer in
            for (index, value) in values.enumerated() {
                exif_set_rational(buffer.baseAddress! + 8 * index, byteOrder, ExifRational(numerator: value.0, denominator: value.1))
            }
        }
        try add(tag, to: ifd, format: EXIF_FORMAT_RATIONAL, components: values.count, bytes: bytes)
    }

    /// Adds an SRATIONAL entry.
    func addSignedRational(_ tag: ExifTag, to ifd: ExifIfd, _ numerator: Int32, _ denominator: Int32) throws(CodecError) {
        var bytes = [UInt8](repeating: 0, count: 8)
        bytes.withUnsafeMutableBufferPointer {
            exif_set_srational($0.baseAddress, byteOrder, ExifSRational(numerator: numerator, denominator: denominator))
        }
        try add(tag, to: ifd, format: EXIF_FORMAT_SRATIONAL, components: 1, bytes: bytes)
    }

    /// Makes `jpeg` the IFD1 thumbnail; libexif writes JPEGInterchangeFormat/Length for it.
    func setThumbnail(_ jpeg: [UInt8]) throws(CodecError) {
        guard let storage = exif_mem_alloc(memory, ExifLong(jpeg.count)) else {
            throw .exif(function: "exif_mem_alloc", message: "out of memory")
        }
        jpeg.withUnsafeBytes { storage.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        data.pointee.data = storage.assumingMemoryBound(to: UInt8.self)
        data.pointee.size = UInt32(jpeg.count)
    }

    /// Serialises the structure; returns the TIFF block without the "Exif\0\0" header.
    func tiffBlock() throws(CodecError) -> [UInt8] {
        var buffer: UnsafeMutablePointer<UInt8>?
        var size: UInt32 = 0
        exif_data_save_data(data, &buffer, &size)
        guard let buffer, Int(size) > Self.app1Header.count + 8 else {
            throw .exif(function: "exif_data_save_data", message: "produced no data")
        }
        defer { exif_mem_free(memory, buffer) }
        return Array(UnsafeBufferPointer(start: buffer + Self.app1Header.count, count: Int(size) - Self.app1Header.count))
    }

    /// The first integer of a SHORT or LONG entry, nil when absent.
    func integer(_ tag: ExifTag, in ifd: ExifIfd) -> Int? {
        guard let entry = exif_content_get_entry(content(ifd), tag), let bytes = entry.pointee.data,
              entry.pointee.components >= 1 else { return nil }
        let order = exif_data_get_byte_order(data)
        switch entry.pointee.format {
        case EXIF_FORMAT_SHORT where entry.pointee.size >= 2: return Int(exif_get_short(bytes, order))
        case EXIF_FORMAT_LONG where entry.pointee.size >= 4: return Int(exif_get_long(bytes, order))
        default: return nil
        }
    }

    // MARK: Reading

    /// One entry as found in an IFD.
    struct Entry {
        let ifd: ExifIfd
        let tag: ExifTag
        let name: String
        let text: String
        let format: ExifFormat
        let components: Int
        let firstInteger: Int?
        /// The first value of a RATIONAL or SRATIONAL entry; nil for other formats or a zero
        /// denominator.
        let firstRational: Double?
    }

    /// Every entry of every IFD, IFD0 first.
    func entries() -> [Entry] {
        let order = exif_data_get_byte_order(data)
        var result: [Entry] = []
        for ifd in [EXIF_IFD_0, EXIF_IFD_EXIF, EXIF_IFD_GPS, EXIF_IFD_INTEROPERABILITY, EXIF_IFD_1] {
            let content = content(ifd)
            for index in 0..<Int(content.pointee.count) {
                guard let entry = content.pointee.entries[index] else { continue }
                let tag = entry.pointee.tag
                let name = exif_tag_get_name_in_ifd(tag, ifd).map { String(cString: $0) }
                    ?? "Tag0x" + String(tag.rawValue, radix: 16, uppercase: true)
                var text = [CChar](repeating: 0, count: 1024)
                let value = text.withUnsafeMutableBufferPointer { buffer -> String in
                    guard let result = exif_entry_get_value(entry, buffer.baseAddress, UInt32(buffer.count)) else { return "" }
                    return String(cString: result)
                }
                var integer: Int?
                if entry.pointee.components >= 1, let bytes = entry.pointee.data {
                    switch entry.pointee.format {
                    case EXIF_FORMAT_SHORT where entry.pointee.size >= 2: integer = Int(exif_get_short(bytes, order))
                    case EXIF_FORMAT_LONG where entry.pointee.size >= 4: integer = Int(exif_get_long(bytes, order))
                    default: integer = nil
                    }
                }
                var rational: Double?
                if entry.pointee.components >= 1, let bytes = entry.pointee.data, entry.pointee.size >= 8 {
                    switch entry.pointee.format {
                    case EXIF_FORMAT_RATIONAL:
                        let value = exif_get_rational(bytes, order)
                        rational = value.denominator == 0 ? nil : Double(value.numerator) / Double(value.denominator)
                    case EXIF_FORMAT_SRATIONAL:
                        let value = exif_get_srational(bytes, order)
                        rational = value.denominator == 0 ? nil : Double(value.numerator) / Double(value.denominator)
                    default: rational = nil
                    }
                }
                result.append(Entry(ifd: ifd, tag: tag, name: name, text: value, format: entry.pointee.format,
                                    components: Int(entry.pointee.components), firstInteger: integer,
                                    firstRational: rational))
            }
        }
        return result
    }

    /// The IFD1 thumbnail bytes, if libexif found one.
    var thumbnail: [UInt8]? {
        guard let bytes = data.pointee.data, data.pointee.size > 0 else { return nil }
        return Array(UnsafeBufferPointer(start: bytes, count: Int(data.pointee.size)))
    }
}
