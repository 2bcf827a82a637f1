import CHeif
import Imaging

/// An owned `heif_image_handle`.
final class HEIFImageHandle {
    let handle: OpaquePointer

    init(_ handle: OpaquePointer) { self.handle = handle }

    deinit { heif_image_handle_release(handle) }

    /// Size as stored (`ispe`).
    var storedSize: PixelSize {
        PixelSize(width: Int(heif_image_handle_get_ispe_width(handle)), height: Int(heif_image_handle_get_ispe_height(handle)))
    }

    /// Size after the transformations (`irot`, `imir`, `clap`).
    var displayedSize: PixelSize {
        PixelSize(width: Int(heif_image_handle_get_width(handle)), height: Int(heif_image_handle_get_height(handle)))
    }

    /// The first thumbnail item, if any.
    func firstThumbnail() throws(CodecError) -> HEIFImageHandle? {
        guard heif_image_handle_get_number_of_thumbnails(handle) > 0 else { return nil }
        var identifier: heif_item_id = 0
        guard heif_image_handle_get_list_of_thumbnail_IDs(handle, &identifier, 1) == 1 else { return nil }
        var thumbnail: OpaquePointer?
        try HEIFContext.check(heif_image_handle_get_thumbnail(handle, identifier, &thumbnail), "heif_image_handle_get_thumbnail")
        return thumbnail.map(HEIFImageHandle.init)
    }

    /// The first Exif metadata item, as libheif stores it (4-byte offset prefix + TIFF).
    func exifItem() throws(CodecError) -> [UInt8]? {
        var identifier: heif_item_id = 0
        guard heif_image_handle_get_list_of_metadata_block_IDs(handle, "Exif", &identifier, 1) == 1 else { return nil }
        let size = heif_image_handle_get_metadata_size(handle, identifier)
        var bytes = [UInt8](repeating: 0, count: size)
        let error = bytes.withUnsafeMutableBytes { heif_image_handle_get_metadata(handle, identifier, $0.baseAddress) }
        try HEIFContext.check(error, "heif_image_handle_get_metadata")
        return bytes
    }

    /// Decodes to packed RGB; `applyingTransformations` false gives the stored pixels.
    func decodeRGB(applyingTransformations: Bool) throws(CodecError) -> (size: PixelSize, rgb: [UInt8]) {
        // ispe is the size of the coded picture; a grid's tiles add up to it.
        try PixelBudget.check(storedSize, declaredBy: "HEIC")
        guard let options = heif_decoding_options_alloc() else {
            throw .heif(function: "heif_decoding_options_alloc", message: "out of memory")
        }
        defer { heif_decoding_options_free(options) }
        options.pointee.ignore_transformations = applyingTransformations ? 0 : 1
        var decoded: OpaquePointer?
        try HEIFContext.check(heif_decode_image(handle, &decoded, heif_colorspace_RGB, heif_chroma_interleaved_RGB, options),
                              "heif_decode_image")
        guard let image = decoded else { throw .heif(function: "heif_decode_image", message: "no image") }
        defer { heif_image_release(image) }
        let width = Int(heif_image_get_width(image, heif_channel_interleaved))
        let height = Int(heif_image_get_height(image, heif_channel_interleaved))
        var stride: Int32 = 0
        guard width > 0, height > 0, let plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride) else {
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
