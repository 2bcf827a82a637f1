import CRaw
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
    private let raw: UnsafeMutablePointer<libraw_data_t>

    /// Opens and unpacks `data`. Throws ``CodecError/libRaw(function:message:)`` when LibRaw
    /// cannot read it (not a RAW file, truncated data) and
    /// ``CodecError/pixelBudgetExceeded(format:size:limit:)`` when its sensor size is past the
    /// ``PixelBudget`` (checked before unpacking).
    package init(data: consuming [UInt8]) throws(CodecError) {
        guard !data.isEmpty else { throw .corruptFile(format: "RAW", reason: "the file is empty") }
        try LibRaw.load()
        guard let raw = libraw.`init`(0) else { throw .libRaw(function: "libraw_init", message: "out of memory") }
        self.raw = raw
        // LibRaw's default handler prints "unknown file: Unexpected end of file" on stderr; the
        // failure reaches the caller as an error instead, one line.
        libraw.set_dataerror_handler(raw, { _, _, _ in }, nil)
        // LibRaw reads the file only until unpack has the sensor data: it reads `data` in
        // place, and lets go of it before the closure ends (the array's storage is valid only
        // there). No copy of the file is held beside the sensor data while it is developed.
        let unpacked = data.withUnsafeBytes { file in
            Result { () throws(CodecError) in
                defer { libraw.recycle_datastream(raw) }
                try check(libraw.open_buffer(raw, UnsafeMutableRawPointer(mutating: file.baseAddress), file.count), "libraw_open_buffer")
                // libraw_open_buffer reads the headers only; unpack allocates the sensor data.
                try PixelBudget.check(rawSize, declaredBy: "RAW")
                try check(libraw.unpack(raw), "libraw_unpack")
            }
        }
        try unpacked.get()
        guard raw.pointee.rawdata.raw_image != nil else {
            throw CodecError.unsupportedFormat(reason: "LibRaw decoded no single-channel CFA data (not a Bayer RAW file)")
        }
    }

    deinit {
        libraw.close(raw)
    }

    /// LibRaw's text for `code`.
    private static func message(_ code: Int32) -> String {
        libraw.strerror(code).map { String(cString: $0) } ?? "LibRaw error \(code)"
    }

    private func check(_ code: Int32, _ function: String) throws(CodecError) {
        guard code == LIBRAW_SUCCESS.rawValue else {
            throw .libRaw(function: function, message: Self.message(code))
        }
    }

    /// The whole sensor area LibRaw decoded (raw_width × raw_height).
    package var rawSize: PixelSize {
        PixelSize(width: Int(raw.pointee.sizes.raw_width), height: Int(raw.pointee.sizes.raw_height))
    }

    /// The visible image inside it (width × height), as stored.
    package var imageSize: PixelSize {
        PixelSize(width: Int(raw.pointee.sizes.width), height: Int(raw.pointee.sizes.height))
    }

    /// Whether the file is a DNG (LibRaw read a DNGVersion).
    package var isDNG: Bool { raw.pointee.idata.dng_version != 0 }

    /// The colours of the 2×2 filter tile at the top-left of the image, row by row, as LibRaw
    /// reads them (0 red, 1 green, 2 blue), in ``FramePixelFormat/BayerPattern/colorIndices`` form.
    package var cfaColorIndices: [UInt8] {
        let names = withUnsafeBytes(of: raw.pointee.idata.cdesc) { Array($0) }
        return [(0, 0), (0, 1), (1, 0), (1, 1)].map { row, column in
            let index = Int(libraw.COLOR(raw, Int32(row), Int32(column)))
            switch names.indices.contains(index) ? names[index] : 0 {
            case UInt8(ascii: "R"): return 0
            case UInt8(ascii: "B"): return 2
            default: return 1
            }
        }
    }

    /// The largest raw value (the DNG WhiteLevel).
    package var whiteLevel: Int { Int(raw.pointee.color.maximum) }

    /// The black level LibRaw subtracts.
    package var blackLevel: Int { Int(raw.pointee.color.black) }

    /// The white balance multipliers as shot (LibRaw's `cam_mul`: red, green, blue, green).
    package var cameraMultipliers: [Float] { withUnsafeBytes(of: raw.pointee.color.cam_mul) { Array($0.bindMemory(to: Float.self)) } }

    /// How LibRaw turns the developed image when asked to (from the file's Orientation tag).
    package var orientation: Orientation {
        // LibRaw's flip codes, indexed by the TIFF Orientation value ("50132467"), inverted.
        let byFlip: [Int: Orientation] = [0: .up, 1: .upMirrored, 3: .down, 2: .downMirrored,
                                          4: .leftMirrored, 6: .right, 7: .rightMirrored, 5: .left]
        return byFlip[Int(raw.pointee.sizes.flip)] ?? .up
    }

    /// The unprocessed values of ``rawSize``, row by row, as LibRaw decoded them (no black
    /// subtraction, no scaling).
    package func rawValues() -> [UInt16] {
        let size = rawSize
        let pitch = Int(raw.pointee.sizes.raw_pitch) / 2
        let image = raw.pointee.rawdata.raw_image!
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
        raw.pointee.params.use_camera_wb = 1
        raw.pointee.params.use_camera_matrix = 1
        raw.pointee.params.output_color = 1  // sRGB
        raw.pointee.params.output_bps = 8
        // The sRGB curve: power 1/2.4 with a linear toe of slope 12.92.
        raw.pointee.params.gamm.0 = 1 / 2.4
        raw.pointee.params.gamm.1 = 12.92
        raw.pointee.params.no_auto_bright = 1
        raw.pointee.params.bright = 1
        // LibRaw otherwise lowers the white level to the brightest sample once that exceeds 75% of
        // it, brightening every photo without a highlight at full scale.
        raw.pointee.params.adjust_maximum_thr = 0
        raw.pointee.params.highlight = 0
        raw.pointee.params.user_qual = 3  // AHD
        raw.pointee.params.half_size = halfSize ? 1 : 0
        raw.pointee.params.user_flip = applyingOrientation ? -1 : 0
        try check(libraw.dcraw_process(raw), "libraw_dcraw_process")
        var code: Int32 = 0
        guard let image = libraw.dcraw_make_mem_image(raw, &code) else {
            throw .libRaw(function: "libraw_dcraw_make_mem_image", message: Self.message(code))
        }
        defer { libraw.dcraw_clear_mem(image) }
        // The 16-bit four-channel image the bitmap was made from (8 bytes a pixel) is not
        // needed again (dcraw_process makes it anew): freed before the bitmap is copied.
        libraw.free_image(raw)
        let header = image.pointee
        guard header.type == LIBRAW_IMAGE_BITMAP, header.colors == 3, header.bits == 8 else {
            throw .libRaw(function: "libraw_dcraw_make_mem_image",
                          message: "expected an 8-bit RGB bitmap, got type \(header.type.rawValue), \(header.colors) colours, \(header.bits) bits")
        }
        let size = PixelSize(width: Int(header.width), height: Int(header.height))
        let pixels = withUnsafePointer(to: &image.pointee.data) {
            [UInt8](UnsafeBufferPointer(start: UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self), count: size.area * 3))
        }
        return RGBImage(size: size, pixels: pixels)
    }
}
