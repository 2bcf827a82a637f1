import CRaw
#if canImport(Glibc)
import Glibc
#endif
import Imaging

/// A RAW file (photocap's DNGs, or any other RAW file LibRaw reads) opened from memory with
/// LibRaw: its unprocessed sensor values, what LibRaw makes of its layout, and development
/// into an sRGB image. The one place that calls LibRaw.
///
/// Development: demosaic (AHD), white balance as shot (DNG `AsShotNeutral`), the camera's
/// colour matrix to sRGB primaries, the sRGB tone curve, 8 bits per sample; the file's white
/// level as it says (no automatic brightening or white-level adjustment), highlights clipped.
/// A handle is used by one thread at a time.
package final class RAWDeveloper {
    let raw: OpaquePointer
    /// What LibRaw read of the file, once unpacked.
    let info: pc_raw_info

    /// Opens and unpacks `data`. Throws ``CodecError/libRaw(function:message:)`` when LibRaw
    /// cannot read it (not a RAW file, truncated data) and
    /// ``CodecError/pixelBudgetExceeded(format:size:limit:)`` when its sensor size is past the
    /// ``PixelBudget`` (checked before unpacking).
    package init(data: consuming [UInt8]) throws(CodecError) {
        guard !data.isEmpty else { throw .corruptFile(format: "RAW", reason: "the file is empty") }
        // LibRaw reads the file only until unpack has the sensor data: it reads `data` in
        // place, and lets go of it before the closure ends (the array's storage is valid only
        // there). No copy of the file is held beside the sensor data while it is developed.
        (raw, info) = try Self.unpacked(by: "libraw_open_buffer") { raw in
            data.withUnsafeBytes { file in pc_raw_open_buffer(raw, file.baseAddress!, file.count) }
        }
    }

    /// Opens and unpacks the regular file open as `descriptor` (which stays the caller's), as
    /// ``init(data:)`` does, without holding the file in memory: LibRaw reads it a buffer at a
    /// time through `/proc/self/fd`, the same file whatever has happened to its path since. Nil
    /// where that path cannot be opened (no /proc): read the file then.
    package init?(descriptor: Int32) throws(CodecError) {
        let path = "/proc/self/fd/\(descriptor)"
        guard access(path, R_OK) == 0 else { return nil }
        (raw, info) = try Self.unpacked(by: "libraw_open_file") { raw in pc_raw_open_file(raw, path) }
    }

    /// A LibRaw processor that `open` (LibRaw's function `opening`) gave the file to, its headers
    /// checked against the budget, unpacked, and its file let go of. Throws (the processor
    /// closed) when any step fails or LibRaw decoded no CFA data.
    private static func unpacked(by opening: String, _ open: (OpaquePointer) -> Int32) throws(CodecError) -> (OpaquePointer, pc_raw_info) {
        try LibRaw.load()
        guard let raw = pc_raw_init() else { throw .libRaw(function: "libraw_init", message: "out of memory") }
        do throws(CodecError) {
            do {
                defer { pc_raw_recycle_datastream(raw) }
                try check(open(raw), opening)
                // Opening reads the headers only; unpack allocates the sensor data.
                try PixelBudget.check(info(raw).rawSize, declaredBy: "RAW")
                try check(pc_raw_unpack(raw), "libraw_unpack")
            }
            let info = info(raw)
            guard info.raw_image != nil else {
                throw CodecError.unsupportedFormat(reason: "LibRaw decoded no single-channel CFA data (not a Bayer RAW file)")
            }
            return (raw, info)
        } catch {
            pc_raw_close(raw)
            throw error
        }
    }

    private static func info(_ raw: OpaquePointer) -> pc_raw_info {
        var info = pc_raw_info()
        pc_raw_read_info(raw, &info)
        return info
    }

    deinit {
        pc_raw_close(raw)
    }

    /// LibRaw's text for `code`.
    private static func message(_ code: Int32) -> String {
        pc_raw_strerror(code).map { String(cString: $0) } ?? "LibRaw error \(code)"
    }

    private static func check(_ code: Int32, _ function: String) throws(CodecError) {
        guard code == pc_raw_success else {
            throw .libRaw(function: function, message: Self.message(code))
        }
    }

    /// The whole sensor area LibRaw decoded (raw_width × raw_height).
    package var rawSize: PixelSize {
        info.rawSize
    }

    /// The visible image inside it (width × height), as stored.
    package var imageSize: PixelSize {
        PixelSize(width: Int(info.width), height: Int(info.height))
    }

    /// Whether the file is a DNG (LibRaw read a DNGVersion).
    package var isDNG: Bool { info.dng_version != 0 }

    /// The colours of the 2×2 filter tile at the top-left of the image, row by row, as LibRaw
    /// reads them (0 red, 1 green, 2 blue), in ``FramePixelFormat/BayerPattern/colorIndices`` form.
    package var cfaColorIndices: [UInt8] {
        let names = withUnsafeBytes(of: info.colors) { Array($0) }
        return [(0, 0), (0, 1), (1, 0), (1, 1)].map { row, column in
            let index = Int(pc_raw_color(raw, Int32(row), Int32(column)))
            switch names.indices.contains(index) ? names[index] : 0 {
            case UInt8(ascii: "R"): return 0
            case UInt8(ascii: "B"): return 2
            default: return 1
            }
        }
    }

    /// The largest raw value (the DNG WhiteLevel).
    package var whiteLevel: Int { Int(info.maximum) }

    /// The black level LibRaw subtracts.
    package var blackLevel: Int { Int(info.black) }

    /// The white balance multipliers as shot (LibRaw's `cam_mul`: red, green, blue, green).
    package var cameraMultipliers: [Float] { withUnsafeBytes(of: info.camera_multipliers) { Array($0.bindMemory(to: Float.self)) } }

    /// How LibRaw turns the developed image when asked to (from the file's Orientation tag).
    package var orientation: Orientation {
        // LibRaw's flip codes, indexed by the TIFF Orientation value ("50132467"), inverted.
        let byFlip: [Int: Orientation] = [0: .up, 1: .upMirrored, 3: .down, 2: .downMirrored,
                                          4: .leftMirrored, 6: .right, 7: .rightMirrored, 5: .left]
        return byFlip[Int(info.flip)] ?? .up
    }

    /// The unprocessed values of ``rawSize``, row by row, as LibRaw decoded them (no black
    /// subtraction, no scaling).
    package func rawValues() -> [UInt16] {
        let size = rawSize
        let pitch = Int(info.raw_pitch) / 2
        let image = info.raw_image!
        var values = [UInt16](repeating: 0, count: size.area)
        values.withUnsafeMutableBufferPointer { target in
            for row in 0..<size.height {
                (target.baseAddress! + row * size.width).update(from: image + row * pitch, count: size.width)
            }
        }
        return values
    }

    /// Develops the RAW data into 8-bit sRGB.
    ///
    /// - Parameters:
    ///   - halfSize: one pixel per 2×2 tile, no demosaic: a quarter of the pixels, much faster
    ///     (for previews).
    ///   - applyingOrientation: turn the result as the file's Orientation says (as a viewer
    ///     would); false keeps the stored orientation.
    package func develop(halfSize: Bool = false, applyingOrientation: Bool = false) throws(CodecError) -> RGBImage {
        try Self.check(pc_raw_process(raw, halfSize ? 1 : 0, applyingOrientation ? 1 : 0), "libraw_dcraw_process")
        var bitmap = pc_raw_bitmap()
        try Self.check(pc_raw_make_bitmap(raw, &bitmap), "libraw_dcraw_make_mem_image")
        defer { pc_raw_clear_bitmap(&bitmap) }
        // The 16-bit four-channel image the bitmap was made from (8 bytes a pixel) is not
        // needed again (dcraw_process makes it anew): freed before the bitmap is copied.
        pc_raw_free_image(raw)
        guard bitmap.is_bitmap != 0, bitmap.colors == 3, bitmap.bits == 8 else {
            throw .libRaw(function: "libraw_dcraw_make_mem_image",
                          message: "expected an 8-bit RGB bitmap, got \(bitmap.is_bitmap != 0 ? "a bitmap" : "a JPEG"), \(bitmap.colors) colours, \(bitmap.bits) bits")
        }
        let size = PixelSize(width: Int(bitmap.width), height: Int(bitmap.height))
        let pixels = [UInt8](UnsafeBufferPointer(start: bitmap.data, count: size.area * 3))
        return RGBImage(size: size, pixels: pixels)
    }
}

extension pc_raw_info {
    /// The whole sensor area LibRaw decoded.
    fileprivate var rawSize: PixelSize { PixelSize(width: Int(raw_width), height: Int(raw_height)) }
}
