import CHeif
import Imaging

/// An owned `heif_image_handle`.
final class HEIFImageHandle {
    let handle: OpaquePointer

    init(_ handle: OpaquePointer) { self.handle = handle }

    deinit { heif.image_handle_release(handle) }

    /// Size as stored (`ispe`).
    var storedSize: PixelSize {
        PixelSize(width: Int(heif.image_handle_get_ispe_width(handle)), height: Int(heif.image_handle_get_ispe_height(handle)))
    }

    /// Size after the transformations (`irot`, `imir`, `clap`).
    var displayedSize: PixelSize {
        PixelSize(width: Int(heif.image_handle_get_width(handle)), height: Int(heif.image_handle_get_height(handle)))
    }

    /// The item IDs of its thumbnails.
    var thumbnailItems: [Int] {
        Self.identifiers(count: heif.image_handle_get_number_of_thumbnails(handle)) {
            heif.image_handle_get_list_of_thumbnail_IDs(handle, $0, $1)
        }.map(Int.init)
    }

    /// The item IDs of its auxiliary images: alpha, depth, gain maps, mattes.
    var auxiliaryItems: [Int] {
        Self.identifiers(count: heif.image_handle_get_number_of_auxiliary_images(handle, 0)) {
            heif.image_handle_get_list_of_auxiliary_image_IDs(handle, 0, $0, $1)
        }.map(Int.init)
    }

    /// The first thumbnail item, if any.
    func firstThumbnail() throws(CodecError) -> HEIFImageHandle? {
        guard heif.image_handle_get_number_of_thumbnails(handle) > 0 else { return nil }
        var identifier: heif_item_id = 0
        guard heif.image_handle_get_list_of_thumbnail_IDs(handle, &identifier, 1) == 1 else { return nil }
        var thumbnail: OpaquePointer?
        try HEIFContext.check(heif.image_handle_get_thumbnail(handle, identifier, &thumbnail), "heif_image_handle_get_thumbnail")
        return thumbnail.map(HEIFImageHandle.init)
    }

    /// The first Exif metadata item, as libheif stores it (4-byte offset prefix + TIFF).
    func exifItem() throws(CodecError) -> [UInt8]? {
        var identifier: heif_item_id = 0
        guard heif.image_handle_get_list_of_metadata_block_IDs(handle, "Exif", &identifier, 1) == 1 else { return nil }
        return try metadata(identifier)
    }

    /// The colour description, metadata items other than Exif, and auxiliary images.
    func carriedProperties() throws(CodecError) -> HEIFCarriedProperties {
        var result = HEIFCarriedProperties()
        let profileSize = heif.image_handle_get_raw_color_profile_size(handle)
        if profileSize > 0 {
            var bytes = [UInt8](repeating: 0, count: profileSize)
            let error = bytes.withUnsafeMutableBytes { heif.image_handle_get_raw_color_profile(handle, $0.baseAddress) }
            try HEIFContext.check(error, "heif_image_handle_get_raw_color_profile")
            let restricted = heif.image_handle_get_color_profile_type(handle) == heif_color_profile_type_rICC
            result.iccProfile = .init(type: restricted ? "rICC" : "prof", bytes: bytes)
        }
        var nclx: UnsafeMutablePointer<heif_color_profile_nclx>?
        // An error here means "no nclx box", which is normal.
        if heif.image_handle_get_nclx_color_profile(handle, &nclx).code == heif_error_Ok, let nclx {
            defer { heif.nclx_color_profile_free(nclx) }
            result.nclxPrimaries = UInt16(nclx.pointee.color_primaries.rawValue)
            result.nclxTransfer = UInt16(nclx.pointee.transfer_characteristics.rawValue)
        }
        for identifier in Self.identifiers(count: heif.image_handle_get_number_of_metadata_blocks(handle, nil), {
            heif.image_handle_get_list_of_metadata_block_IDs(handle, nil, $0, $1)
        }) {
            let type = heif.image_handle_get_metadata_type(handle, identifier).map { String(cString: $0) } ?? ""
            guard type != "Exif" else { continue }
            let contentType = heif.image_handle_get_metadata_content_type(handle, identifier).map { String(cString: $0) }
            result.metadata.append(.init(type: type, contentType: contentType?.isEmpty == false ? contentType : nil,
                                         bytes: try metadata(identifier)))
        }
        result.auxiliaryImages = try auxiliaryImages().map(\.name)
        return result
    }

    /// Every auxiliary image, alpha and depth included (filter 0), named by its `auxC` type
    /// (``auxiliaryNames``, else the type itself), with its item ID.
    func auxiliaryImages() throws(CodecError) -> [(name: String, handle: HEIFImageHandle, item: Int)] {
        var images: [(name: String, handle: HEIFImageHandle, item: Int)] = []
        for identifier in auxiliaryItems.map(heif_item_id.init) {
            var auxiliary: OpaquePointer?
            try HEIFContext.check(heif.image_handle_get_auxiliary_image_handle(handle, identifier, &auxiliary),
                                  "heif_image_handle_get_auxiliary_image_handle")
            guard let auxiliary else { continue }
            let image = HEIFImageHandle(auxiliary)
            var type: UnsafePointer<CChar>?
            try HEIFContext.check(heif.image_handle_get_auxiliary_type(auxiliary, &type), "heif_image_handle_get_auxiliary_type")
            let urn = type.map { String(cString: $0) } ?? ""
            heif.image_handle_free_auxiliary_types(auxiliary, &type)
            images.append((Self.auxiliaryNames[urn] ?? (urn.isEmpty ? "auxiliary" : urn), image, Int(identifier)))
        }
        return images
    }

    /// Decodes the stored samples (no `irot`/`imir`/`clap` applied) of a grey image — an alpha
    /// or depth auxiliary image — as 8-bit grey; nil when they are deeper, unless `reducing`
    /// (an alpha, whose picture is written in 8 bits too): then scaled to 8 bits.
    func decodeStoredGrey(reducing: Bool = false) throws(CodecError) -> (size: PixelSize, grey: [UInt8])? {
        try PixelBudget.check(storedSize, declaredBy: "HEIC")
        let bits = Int(heif.image_handle_get_luma_bits_per_pixel(handle))
        guard bits == 8 || (reducing && (9...16).contains(bits)), let options = heif.decoding_options_alloc() else { return nil }
        defer { heif.decoding_options_free(options) }
        options.pointee.ignore_transformations = 1
        var decoded: OpaquePointer?
        // Coded 4:2:0 (x265 codes no 4:0:0) or monochrome: libheif 1.15 converts neither into
        // the other's layout, so the coded one is asked for, the grey samples being Y in both.
        let coded = heif.decode_image(handle, &decoded, heif_colorspace_YCbCr, heif_chroma_420, options)
        if coded.code != heif_error_Ok {
            try HEIFContext.check(heif.decode_image(handle, &decoded, heif_colorspace_monochrome, heif_chroma_monochrome, options),
                                  "heif_decode_image")
        }
        guard let decoded else { throw .heif(function: "heif_decode_image", message: "no image") }
        defer { heif.image_release(decoded) }
        let range = Int(heif.image_get_bits_per_pixel_range(decoded, heif_channel_Y))
        guard range == bits else { return nil }
        let size = PixelSize(width: Int(heif.image_get_width(decoded, heif_channel_Y)), height: Int(heif.image_get_height(decoded, heif_channel_Y)))
        var stride: Int32 = 0
        guard size.area > 0, let plane = heif.image_get_plane_readonly(decoded, heif_channel_Y, &stride) else {
            throw .heif(function: "heif_image_get_plane_readonly", message: "the decoded image has no grey plane")
        }
        var grey = [UInt8]()
        grey.reserveCapacity(size.area)
        for row in 0..<size.height {
            let start = plane + row * Int(stride)
            if range == 8 {
                grey.append(contentsOf: UnsafeBufferPointer(start: start, count: size.width))
            } else {
                // Deeper samples are 16-bit words (libheif's layout); rounded to the nearest of 256 levels.
                let maximum = (1 << range) - 1
                let words = UnsafeRawPointer(start).bindMemory(to: UInt16.self, capacity: size.width)
                for column in 0..<size.width { grey.append(UInt8((Int(words[column]) * 255 + maximum / 2) / maximum)) }
            }
        }
        return (size, grey)
    }

    /// What the common `auxC` types are, in words.
    static let auxiliaryNames = [
        "urn:mpeg:mpegB:cicp:systems:auxiliary:alpha": "alpha", "urn:mpeg:hevc:2015:auxid:1": "alpha",
        "urn:mpeg:mpegB:cicp:systems:auxiliary:depth": "depth", "urn:mpeg:hevc:2015:auxid:2": "depth",
        "urn:com:apple:photo:2020:aux:hdrgainmap": "HDR gain map", "urn:com:apple:photo:2019:aux:semanticskinmatte": "skin matte",
        "urn:com:apple:photo:2019:aux:semantichairmatte": "hair matte", "urn:com:apple:photo:2019:aux:semanticteethmatte": "teeth matte",
        "urn:com:apple:photo:2018:aux:portraiteffectsmatte": "portrait matte",
    ]

    /// Metadata items larger than this are refused before any allocation (256 MiB).
    static let largestMetadataItem = 1 << 28

    /// The item IDs a libheif list function writes, given how many there are.
    private static func identifiers(count: Int32, _ list: (UnsafeMutablePointer<heif_item_id>, Int32) -> Int32) -> [heif_item_id] {
        guard count > 0 else { return [] }
        var identifiers = [heif_item_id](repeating: 0, count: Int(count))
        let written = identifiers.withUnsafeMutableBufferPointer { list($0.baseAddress!, count) }
        return Array(identifiers.prefix(Int(max(0, written))))
    }

    /// One metadata item's bytes, as stored.
    func metadata(_ identifier: heif_item_id) throws(CodecError) -> [UInt8] {
        let size = heif.image_handle_get_metadata_size(handle, identifier)
        // A file in memory cannot hold more; a corrupt iloc can say anything.
        guard size <= Self.largestMetadataItem else {
            throw .corruptFile(format: "HEIF", reason: "metadata item \(identifier) claims \(size) bytes")
        }
        var bytes = [UInt8](repeating: 0, count: size)
        let error = bytes.withUnsafeMutableBytes { heif.image_handle_get_metadata(handle, identifier, $0.baseAddress) }
        try HEIFContext.check(error, "heif_image_handle_get_metadata")
        return bytes
    }

    /// Decodes the stored pixels (no `irot`/`imir`/`clap` applied) to 8-bit Y'CbCr 4:2:0
    /// planes — with no conversion for an image coded so (``HEIFPropertyMap/codes8Bit420(_:)``,
    /// which the caller checks) — when they are in JFIF's coding, as a ``PlanarImage`` is (see
    /// ``isJFIFCoded``); nil otherwise. An alpha plane is left out.
    func decodeStoredPlanes() throws(CodecError) -> PlanarImage? {
        try PixelBudget.check(storedSize, declaredBy: "HEIC")
        guard isJFIFCoded, heif.image_handle_get_luma_bits_per_pixel(handle) == 8, heif.image_handle_get_chroma_bits_per_pixel(handle) == 8,
              let options = heif.decoding_options_alloc() else { return nil }
        defer { heif.decoding_options_free(options) }
        options.pointee.ignore_transformations = 1
        var decoded: OpaquePointer?
        // Asked for what is coded, libheif hands the decoder's planes over unconverted (asked
        // for nothing in particular, 1.15 converts to RGB).
        try HEIFContext.check(heif.decode_image(handle, &decoded, heif_colorspace_YCbCr, heif_chroma_420, options),
                              "heif_decode_image")
        guard let decoded else { throw .heif(function: "heif_decode_image", message: "no image") }
        defer { heif.image_release(decoded) }
        let channels = [heif_channel_Y, heif_channel_Cb, heif_channel_Cr]
        guard heif.image_get_colorspace(decoded) == heif_colorspace_YCbCr, heif.image_get_chroma_format(decoded) == heif_chroma_420,
              channels.allSatisfy({ heif.image_get_bits_per_pixel_range(decoded, $0) == 8 }) else { return nil }
        let size = PixelSize(width: Int(heif.image_get_width(decoded, heif_channel_Y)), height: Int(heif.image_get_height(decoded, heif_channel_Y)))
        let image: PlanarImage
        do { image = try PlanarImage(size: size) } catch { throw .imaging(error) }
        for (plane, channel) in channels.enumerated() {
            let planeSize = image.size(ofPlane: plane)
            var stride: Int32 = 0
            guard Int(heif.image_get_width(decoded, channel)) == planeSize.width, Int(heif.image_get_height(decoded, channel)) == planeSize.height,
                  let source = heif.image_get_plane_readonly(decoded, channel, &stride) else {
                throw .heif(function: "heif_image_get_plane_readonly", message: "plane \(plane) is missing or not \(planeSize)")
            }
            let target = image.baseAddress(ofPlane: plane)
            for row in 0..<planeSize.height {
                (target + row * image.stride(ofPlane: plane)).update(from: source + row * Int(stride), count: planeSize.width)
            }
        }
        return image
    }

    /// Whether its planes code colour as JFIF does — full-range BT.601, what libheif assumes
    /// without an nclx `colr` box — so that they can be written again as they are
    /// (``HEICEncoder`` writes that coding). Planes said to be coded otherwise came back from
    /// libheif 1.15's decode and encode changed (a flat Y of 71 as 65 to 75), so they go through RGB.
    var isJFIFCoded: Bool {
        var nclx: UnsafeMutablePointer<heif_color_profile_nclx>?
        // An error here means "no nclx box".
        guard heif.image_handle_get_nclx_color_profile(handle, &nclx).code == heif_error_Ok, let nclx else { return true }
        defer { heif.nclx_color_profile_free(nclx) }
        let matrix = nclx.pointee.matrix_coefficients
        return nclx.pointee.full_range_flag != 0
            && (matrix == heif_matrix_coefficients_ITU_R_BT_601_6 || matrix == heif_matrix_coefficients_ITU_R_BT_470_6_System_B_G)
    }

    /// Decodes to packed RGB; `applyingTransformations` false gives the stored pixels.
    func decodeRGB(applyingTransformations: Bool) throws(CodecError) -> (size: PixelSize, rgb: [UInt8]) {
        // ispe is the size of the coded picture; a grid's tiles add up to it.
        try PixelBudget.check(storedSize, declaredBy: "HEIC")
        guard let options = heif.decoding_options_alloc() else {
            throw .heif(function: "heif_decoding_options_alloc", message: "out of memory")
        }
        defer { heif.decoding_options_free(options) }
        options.pointee.ignore_transformations = applyingTransformations ? 0 : 1
        var decoded: OpaquePointer?
        try HEIFContext.check(heif.decode_image(handle, &decoded, heif_colorspace_RGB, heif_chroma_interleaved_RGB, options),
                              "heif_decode_image")
        guard let image = decoded else { throw .heif(function: "heif_decode_image", message: "no image") }
        defer { heif.image_release(image) }
        let width = Int(heif.image_get_width(image, heif_channel_interleaved))
        let height = Int(heif.image_get_height(image, heif_channel_interleaved))
        var stride: Int32 = 0
        guard width > 0, height > 0, let plane = heif.image_get_plane_readonly(image, heif_channel_interleaved, &stride) else {
            throw .heif(function: "heif_image_get_plane_readonly", message: "the decoded image has no interleaved RGB plane")
        }
        var rgb = [UInt8]()
        rgb.reserveCapacity(width * height * 3)
        for row in 0..<height {
            rgb.append(contentsOf: UnsafeBufferPointer(start: plane + row * Int(stride), count: width * 3))
        }
        return (PixelSize(width: width, height: height), rgb)
    }
}
