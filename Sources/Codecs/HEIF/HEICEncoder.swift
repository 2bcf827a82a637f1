import CHeif
import Imaging

/// Encodes planar images as HEIC (HEVC in HEIF) with libheif and x265.
///
/// Owns one x265 encoder configured once; each ``encode(_:quality:orientation:thumbnail:exif:)``
/// builds a fresh file. Not thread-safe: use one encoder per thread.
package final class HEICEncoder {
    /// The context the encoder was obtained from; libheif ties encoders to a context.
    private let encoderContext: HEIFContext
    private let encoder: OpaquePointer

    /// Creates an encoder using x265's `preset`.
    package init(preset: HEICEncoderPreset = .medium) throws(CodecError) {
        encoderContext = try HEIFContext()
        var encoder: OpaquePointer?
        try HEIFContext.check(heif.context_get_encoder_for_format(encoderContext.context, heif_compression_HEVC, &encoder),
                              "heif_context_get_encoder_for_format")
        guard let encoder else { throw .heif(function: "heif_context_get_encoder_for_format", message: "no HEVC encoder") }
        self.encoder = encoder
        try HEIFContext.check(heif.encoder_set_parameter_string(encoder, "preset", preset.rawValue),
                              "heif_encoder_set_parameter_string(preset)")
        // The same size and PSNR in less time (see x265Parameters).
        for (name, value) in preset.x265Parameters {
            try HEIFContext.check(heif.encoder_set_parameter(encoder, name, value), "heif_encoder_set_parameter(\(name))")
        }
    }

    deinit { heif.encoder_release(encoder) }

    /// Encodes `image` as the primary image of a new HEIC file and returns the file's bytes.
    ///
    /// - Parameters:
    ///   - image: the stored pixels, written as Y'CbCr 4:2:0 with an nclx colour profile saying
    ///     full range, BT.601 matrix (what the planes are).
    ///   - quality: 1...100.
    ///   - orientation: what a viewer must do to show the image upright; written as the
    ///     `irot`/`imir` properties of the image (and of the thumbnail).
    ///   - thumbnail: an optional thumbnail, already with the same physical transform as `image`.
    ///   - exif: an optional TIFF-structured EXIF block (from ``EXIFBuilder``), stored as an
    ///     Exif item of the primary image. Its orientation should agree with `orientation`.
    ///   - xmp: an optional XMP packet, stored as an XMP (`mime`, `application/rdf+xml`) item of
    ///     the primary image. Its `tiff:Orientation`, if any, should agree with `orientation`.
    ///   - carried: what a re-encoded file keeps of its original: the ICC profile and nclx
    ///     primaries and transfer (of the image and thumbnail, whose pixels are in that colour
    ///     space), and the metadata items, stored as they are. Auxiliary images are not written
    ///     (``HEIFAuxiliaryWriter`` adds them to the file).
    ///   - alpha: an optional alpha plane (8-bit, `image`'s size, rows without padding), which
    ///     libheif codes as the primary image's alpha auxiliary image. libheif 1.15 writes no
    ///     other auxiliary image (depth, gain map: see ``HEIFAuxiliaryWriter``), and none for a grid.
    ///
    /// A picture of more pixels than ``tiling`` allows is coded as a grid of tiles
    /// (``HEIFGridWriter``); its orientation, colour, thumbnail and metadata are the grid's.
    package func encode(_ image: PlanarImage, quality: Int, orientation: Orientation, thumbnail: PlanarImage?,
                       exif: [UInt8]?, xmp: String? = nil,
                       carrying carried: HEIFCarriedProperties = HEIFCarriedProperties(), alpha: [UInt8]? = nil) throws(CodecError) -> [UInt8] {
        guard (1...100).contains(quality) else { throw .invalidArgument("HEIC quality \(quality) is not in 1...100") }
        if let alpha, alpha.count != image.size.area {
            throw .invalidArgument("an alpha plane of \(alpha.count) bytes for a \(image.size) picture")
        }
        try HEIFContext.check(heif.encoder_set_lossy_quality(encoder, Int32(quality)), "heif_encoder_set_lossy_quality")
        let file = try HEIFContext()
        guard let options = heif.encoding_options_alloc() else {
            throw .heif(function: "heif_encoding_options_alloc", message: "out of memory")
        }
        defer { heif.encoding_options_free(options) }
        // image_orientation arrived with version 5 of the struct (libheif 1.14).
        guard options.pointee.version >= 5 else {
            throw .heif(function: "heif_encoding_options_alloc", message: "options version \(options.pointee.version) has no image_orientation (libheif < 1.14)")
        }
        options.pointee.image_orientation = heif_orientation(rawValue: UInt32(orientation.exifValue))
        // libheif leaves the nclx colr box out by default (a macOS workaround); readers then
        // guess the range and matrix. Write it: the planes are full-range BT.601.
        options.pointee.macOS_compatibility_workaround_no_nclx_profile = 0

        let grid = tiling?.layout(for: image.size)
        let primary: HEIFImageHandle
        var tiles: [Int] = []
        if let grid {
            guard alpha == nil else { throw .invalidArgument("a \(image.size) picture is coded as a grid, which libheif gives no alpha") }
            // The orientation belongs to the grid, not to each tile.
            options.pointee.image_orientation = heif_orientation_normal
            (primary, tiles) = try encodeTiles(of: image, grid: grid, into: file, options: options, colour: carried)
            options.pointee.image_orientation = heif_orientation(rawValue: UInt32(orientation.exifValue))
        } else {
            primary = try encodeImage(image, into: file, options: options, colour: carried, alpha: alpha)
        }
        // The handles' C objects are released with them: kept until every call below has used them.
        defer { withExtendedLifetime((file, primary)) {} }
        if let thumbnail { try addThumbnail(thumbnail, of: primary, to: file, options: options, colour: carried) }
        try Self.addMetadata(exif: exif, xmp: xmp, carried: carried.metadata, of: primary, to: file)
        // libheif 1.15 lists irot/imir before ispe and writes the rotated size into ispe to
        // make up for it; put both right (see repairingTransformedItems).
        let sizes = [grid?.tile ?? image.size] + (thumbnail.map { [$0.size] } ?? [])
        let repaired = try HEIFPropertyMap.repairingTransformedItems(in: try write(file), storedSizes: sizes)
        guard let grid else { return repaired }
        return try HEIFGridWriter.grid(.init(tiles: tiles, columns: grid.columns, rows: grid.rows, size: image.size),
                                       orientation: orientation, in: repaired)
    }

    /// Codes `thumbnail` into `file` as the thumbnail of `primary`.
    private func addThumbnail(_ thumbnail: PlanarImage, of primary: HEIFImageHandle, to file: HEIFContext,
                              options: UnsafeMutablePointer<heif_encoding_options>, colour carried: HEIFCarriedProperties) throws(CodecError) {
        let thumbnailHandle = try encodeImage(thumbnail, into: file, options: options, colour: carried)
        // libheif's C function passes its two handles to the C++ side in swapped order (true
        // in 1.15 and still upstream), so the thumbnail goes first to get "thmb" from the
        // thumbnail to the primary image, as heif-info and the test check.
        try withExtendedLifetime(thumbnailHandle) { () throws(CodecError) in
            try HEIFContext.check(heif.context_assign_thumbnail(file.context, thumbnailHandle.handle, primary.handle),
                                  "heif_context_assign_thumbnail")
        }
    }

    /// Stores the EXIF block, the XMP packet and the carried metadata items as items of `primary`.
    private static func addMetadata(exif: [UInt8]?, xmp: String?, carried: [HEIFCarriedProperties.MetadataItem], of primary: HEIFImageHandle,
                                    to file: HEIFContext) throws(CodecError) {
        if let exif {
            guard TIFFHeader(exif) != nil else { throw .invalidArgument("the EXIF block does not start with a TIFF header") }
            let error = exif.withUnsafeBytes {
                heif.context_add_exif_metadata(file.context, primary.handle, $0.baseAddress, Int32($0.count))
            }
            try HEIFContext.check(error, "heif_context_add_exif_metadata")
        }
        if let xmp {
            let bytes = Array(xmp.utf8)
            let error = bytes.withUnsafeBytes {
                heif.context_add_XMP_metadata(file.context, primary.handle, $0.baseAddress, Int32($0.count))
            }
            try HEIFContext.check(error, "heif_context_add_XMP_metadata")
        }
        for item in carried {
            let error = item.bytes.withUnsafeBytes {
                heif.context_add_generic_metadata(file.context, primary.handle, $0.baseAddress, Int32($0.count), item.type, item.contentType)
            }
            try HEIFContext.check(error, "heif_context_add_generic_metadata")
        }
    }

    /// Encodes 8-bit grey samples (`size`, rows without padding) as the only image of a new
    /// HEIC file, monochrome, with no transformation: an auxiliary image (depth, gain map) that
    /// ``HEIFAuxiliaryWriter`` takes the coded data and `hvcC` of.
    package func encodeGrey(_ grey: [UInt8], size: PixelSize, quality: Int) throws(CodecError) -> [UInt8] {
        guard (1...100).contains(quality) else { throw .invalidArgument("HEIC quality \(quality) is not in 1...100") }
        guard size.area > 0, grey.count == size.area else { throw .invalidArgument("\(grey.count) grey samples for a \(size) image") }
        try HEIFContext.check(heif.encoder_set_lossy_quality(encoder, Int32(quality)), "heif_encoder_set_lossy_quality")
        let file = try HEIFContext()
        var created: OpaquePointer?
        try HEIFContext.check(heif.image_create(Int32(size.width), Int32(size.height), heif_colorspace_monochrome,
                                                heif_chroma_monochrome, &created), "heif_image_create")
        guard let image = created else { throw .heif(function: "heif_image_create", message: "no image") }
        defer { heif.image_release(image) }
        try HEIFContext.check(heif.image_add_plane(image, heif_channel_Y, Int32(size.width), Int32(size.height), 8), "heif_image_add_plane")
        var stride: Int32 = 0
        guard let target = heif.image_get_plane(image, heif_channel_Y, &stride) else {
            throw .heif(function: "heif_image_get_plane", message: "the grey plane is missing")
        }
        grey.withUnsafeBufferPointer { source in
            for row in 0..<size.height {
                (target + row * Int(stride)).update(from: source.baseAddress! + row * size.width, count: size.width)
            }
        }
        var handle: OpaquePointer?
        try HEIFContext.check(heif.context_encode_image(file.context, image, encoder, nil, &handle), "heif_context_encode_image")
        guard let handle else { throw .heif(function: "heif_context_encode_image", message: "no image handle") }
        heif.image_handle_release(handle)
        return try write(file)
    }

    /// When a picture is coded as a grid of tiles (``HEIFGridWriter``), and how big they are.
    package struct Tiling: Sendable, Equatable {
        /// Pictures with more pixels than this are tiled.
        package var threshold: Int
        /// The side of a tile; even.
        package var tileSide: Int

        package init(threshold: Int, tileSide: Int) {
            precondition(tileSide >= 64 && tileSide % 2 == 0, "a tile side of \(tileSide)")
            self.threshold = threshold
            self.tileSide = tileSide
        }

        /// Beyond 35,651,584 luma samples, or 16,888 a side, a picture is no HEVC level's
        /// (6 to 6.2, ITU-T H.265 table A.8) coded whole; and x265 coding one whole holds about
        /// 12 bytes per pixel (2.47 GB for 200 MP, 230 MB for a 4096x4096 tile). Up to that
        /// every camera's pictures but 48 MP phones' and larger stay one image, as before.
        /// Tiles of 1024 (x265 needs no more than the picture's planes for them) coded the
        /// 200 MP picture fastest of 512...4096, in 9% more bytes than 2048 and 25% fewer than 512.
        package static let standard = Tiling(threshold: 35_651_584, tileSide: 1024)

        /// The longest side HEVC codes at any level (√(8 × 35,651,584)).
        static let longestSide = 16_888

        /// The tiles a picture of `size` is coded in, or nil for one image (at most the
        /// threshold and ``longestSide``, or more than 256 tiles a side).
        package func layout(for size: PixelSize) -> (tile: PixelSize, columns: Int, rows: Int)? {
            guard size.area > threshold || max(size.width, size.height) > Self.longestSide else { return nil }
            let columns = (size.width + tileSide - 1) / tileSide, rows = (size.height + tileSide - 1) / tileSide
            guard columns <= 256, rows <= 256, columns * rows > 1 else { return nil }
            return (PixelSize(width: tileSide, height: tileSide), columns, rows)
        }
    }

    /// When pictures are coded as a grid of tiles; nil: never.
    package var tiling: Tiling? = .standard

    /// Codes `image` as tiles of `grid`, in raster order, each a separate image of `file`;
    /// tiles the picture does not fill repeat its last column and row. Returns the first tile
    /// (libheif's primary image, which thumbnails and metadata are attached to until
    /// ``HEIFGridWriter`` moves them to the grid) and every tile's item ID.
    private func encodeTiles(of image: PlanarImage, grid: (tile: PixelSize, columns: Int, rows: Int),
                             into file: HEIFContext, options: UnsafeMutablePointer<heif_encoding_options>,
                             colour: HEIFCarriedProperties) throws(CodecError) -> (first: HEIFImageHandle, tiles: [Int]) {
        let tile: PlanarImage
        do { tile = try PlanarImage(size: grid.tile) } catch { throw .imaging(error) }
        var first: HEIFImageHandle?
        for row in 0..<grid.rows {
            for column in 0..<grid.columns {
                let corner = (x: column * grid.tile.width, y: row * grid.tile.height)
                do { try image.copyBlock(PixelRect(x: corner.x, y: corner.y, size: grid.tile), into: tile, x: 0, y: 0) } catch { throw .imaging(error) }
                let handle = try encodeImage(tile, into: file, options: options, colour: colour)
                if first == nil { first = handle }
            }
        }
        // libheif 1.15 has no getter for a handle's item ID; the file holds only the tiles yet,
        // listed in the order they were added.
        let count = Int(heif.context_get_number_of_top_level_images(file.context))
        var identifiers = [heif_item_id](repeating: 0, count: count)
        let listed = Int(heif.context_get_list_of_top_level_image_IDs(file.context, &identifiers, Int32(count)))
        guard let first, count == grid.columns * grid.rows, listed == count else {
            throw .heif(function: "heif_context_get_list_of_top_level_image_IDs", message: "\(listed) images for \(grid.columns * grid.rows) tiles")
        }
        return (first, identifiers.map(Int.init))
    }

    /// The quality at which `sample` encodes at about `bytesPerPixel` (not above), by bisection
    /// over 10...95, where x265's output shrinks as the quality falls: five or six encodes of
    /// the sample, so keep it small (about a megapixel).
    package func quality(matching bytesPerPixel: Double, sample: PlanarImage) throws(CodecError) -> Int {
        var low = 10, high = 95
        while high - low > 2 {
            let middle = (low + high) / 2
            let bytes = try encode(sample, quality: middle, orientation: .up, thumbnail: nil, exif: nil).count
            if Double(bytes) / Double(sample.size.area) > bytesPerPixel { high = middle } else { low = middle }
        }
        return low
    }

    /// Copies the planes into a libheif image and encodes it into `file`.
    private func encodeImage(_ image: PlanarImage, into file: HEIFContext, options: UnsafeMutablePointer<heif_encoding_options>,
                             colour: HEIFCarriedProperties, alpha: [UInt8]? = nil) throws(CodecError) -> HEIFImageHandle {
        var created: OpaquePointer?
        try HEIFContext.check(heif.image_create(Int32(image.size.width), Int32(image.size.height), heif_colorspace_YCbCr,
                                                heif_chroma_420, &created), "heif_image_create")
        guard let heifImage = created else { throw .heif(function: "heif_image_create", message: "no image") }
        defer { heif.image_release(heifImage) }
        let channels = [heif_channel_Y, heif_channel_Cb, heif_channel_Cr]
        for (plane, channel) in channels.enumerated() {
            let planeSize = image.size(ofPlane: plane)
            try HEIFContext.check(heif.image_add_plane(heifImage, channel, Int32(planeSize.width), Int32(planeSize.height), 8),
                                  "heif_image_add_plane")
            var stride: Int32 = 0
            guard let target = heif.image_get_plane(heifImage, channel, &stride) else {
                throw .heif(function: "heif_image_get_plane", message: "plane \(plane) missing")
            }
            let source = image.baseAddress(ofPlane: plane)
            let sourceStride = image.stride(ofPlane: plane)
            for row in 0..<planeSize.height {
                (target + row * Int(stride)).update(from: source + row * sourceStride, count: planeSize.width)
            }
        }
        if let alpha {
            // libheif codes an alpha plane as an auxiliary image of the one it codes
            // (save_alpha_channel, on by default).
            try HEIFContext.check(heif.image_add_plane(heifImage, heif_channel_Alpha, Int32(image.size.width), Int32(image.size.height), 8),
                                  "heif_image_add_plane(alpha)")
            var stride: Int32 = 0
            guard let target = heif.image_get_plane(heifImage, heif_channel_Alpha, &stride) else {
                throw .heif(function: "heif_image_get_plane", message: "the alpha plane is missing")
            }
            alpha.withUnsafeBufferPointer { source in
                for row in 0..<image.size.height {
                    (target + row * Int(stride)).update(from: source.baseAddress! + row * image.size.width, count: image.size.width)
                }
            }
        }
        try setColourProfile(of: heifImage, carrying: colour)
        var handle: OpaquePointer?
        try HEIFContext.check(heif.context_encode_image(file.context, heifImage, encoder, options, &handle),
                              "heif_context_encode_image")
        guard let handle else { throw .heif(function: "heif_context_encode_image", message: "no image handle") }
        return HEIFImageHandle(handle)
    }

    /// Full-range BT.601 Y'CbCr (what the planes are) with sRGB primaries and transfer — JFIF's
    /// colour space — unless `carried` names others; its ICC profile is attached as it was.
    private func setColourProfile(of image: OpaquePointer, carrying carried: HEIFCarriedProperties) throws(CodecError) {
        guard let nclx = heif.nclx_color_profile_alloc() else {
            throw .heif(function: "heif_nclx_color_profile_alloc", message: "out of memory")
        }
        defer { heif.nclx_color_profile_free(nclx) }
        nclx.pointee.color_primaries = carried.nclxPrimaries.map { heif_color_primaries(rawValue: UInt32($0)) }
            ?? heif_color_primaries_ITU_R_BT_709_5
        nclx.pointee.transfer_characteristics = carried.nclxTransfer.map { heif_transfer_characteristics(rawValue: UInt32($0)) }
            ?? heif_transfer_characteristic_IEC_61966_2_1
        nclx.pointee.matrix_coefficients = heif_matrix_coefficients_ITU_R_BT_601_6
        nclx.pointee.full_range_flag = 1
        try HEIFContext.check(heif.image_set_nclx_color_profile(image, nclx), "heif_image_set_nclx_color_profile")
        if let profile = carried.iccProfile {
            let error = profile.bytes.withUnsafeBytes { heif.image_set_raw_color_profile(image, profile.type, $0.baseAddress, $0.count) }
            try HEIFContext.check(error, "heif_image_set_raw_color_profile")
        }
    }

    /// Serialises `file` into memory through a `heif_writer`.
    private func write(_ file: HEIFContext) throws(CodecError) -> [UInt8] {
        let sink = HEIFMemorySink()
        var writer = heif_writer(writer_api_version: 1) { _, data, size, userData in
            let sink = Unmanaged<HEIFMemorySink>.fromOpaque(userData!).takeUnretainedValue()
            if let data, size > 0 {
                sink.bytes.append(contentsOf: UnsafeRawBufferPointer(start: data, count: size))
            }
            return heif_error(code: heif_error_Ok, subcode: heif_suberror_Unspecified, message: HEIFMemorySink.success)
        }
        try withExtendedLifetime(sink) { () throws(CodecError) in
            try HEIFContext.check(heif.context_write(file.context, &writer, Unmanaged.passUnretained(sink).toOpaque()),
                                  "heif_context_write")
        }
        guard !sink.bytes.isEmpty else { throw .heif(function: "heif_context_write", message: "wrote nothing") }
        return sink.bytes
    }
}

/// The growable buffer `heif_context_write` writes into.
private final class HEIFMemorySink {
    var bytes: [UInt8] = []
    /// The message of a successful `heif_error`; a static string, as libheif expects.
    static var success: UnsafePointer<CChar> {
        UnsafeRawPointer(("Success" as StaticString).utf8Start).assumingMemoryBound(to: CChar.self)
    }
}
