#pragma once
// The one seam to libheif. It is loaded with dlopen on first use, not linked: linked, it and the
// codecs it brings (x265, libde265, dav1d, aom, and what they need) were mapped, relocated and
// initialised at every photocap start-up (~3 ms), for the runs that read or write HEIF only.
// Its own header gives each function's type; pc_heif_load finds them all.
#include <stddef.h>
#include <libheif/heif.h>

/// The libheif functions photocap calls, named without their `heif_` prefix.
#define PC_HEIF_FUNCTIONS(X) \
    X(context_add_XMP_metadata) \
    X(context_add_exif_metadata) \
    X(context_add_generic_metadata) \
    X(context_alloc) \
    X(context_assign_thumbnail) \
    X(context_encode_image) \
    X(context_free) \
    X(context_get_encoder_for_format) \
    X(context_get_image_handle) \
    X(context_get_list_of_top_level_image_IDs) \
    X(context_get_number_of_top_level_images) \
    X(context_get_primary_image_handle) \
    X(context_read_from_memory_without_copy) \
    X(context_write) \
    X(decode_image) \
    X(decoding_options_alloc) \
    X(decoding_options_free) \
    X(encoder_release) \
    X(encoder_set_lossy_quality) \
    X(encoder_set_parameter) \
    X(encoder_set_parameter_string) \
    X(encoding_options_alloc) \
    X(encoding_options_free) \
    X(image_add_plane) \
    X(image_create) \
    X(image_get_bits_per_pixel_range) \
    X(image_get_chroma_format) \
    X(image_get_colorspace) \
    X(image_get_height) \
    X(image_get_plane) \
    X(image_get_plane_readonly) \
    X(image_get_width) \
    X(image_handle_free_auxiliary_types) \
    X(image_handle_get_auxiliary_image_handle) \
    X(image_handle_get_auxiliary_type) \
    X(image_handle_get_chroma_bits_per_pixel) \
    X(image_handle_get_color_profile_type) \
    X(image_handle_get_height) \
    X(image_handle_get_ispe_height) \
    X(image_handle_get_ispe_width) \
    X(image_handle_get_list_of_auxiliary_image_IDs) \
    X(image_handle_get_list_of_metadata_block_IDs) \
    X(image_handle_get_list_of_thumbnail_IDs) \
    X(image_handle_get_luma_bits_per_pixel) \
    X(image_handle_get_metadata) \
    X(image_handle_get_metadata_content_type) \
    X(image_handle_get_metadata_size) \
    X(image_handle_get_metadata_type) \
    X(image_handle_get_nclx_color_profile) \
    X(image_handle_get_number_of_auxiliary_images) \
    X(image_handle_get_number_of_metadata_blocks) \
    X(image_handle_get_number_of_thumbnails) \
    X(image_handle_get_raw_color_profile) \
    X(image_handle_get_raw_color_profile_size) \
    X(image_handle_get_thumbnail) \
    X(image_handle_get_width) \
    X(image_handle_release) \
    X(image_release) \
    X(image_set_nclx_color_profile) \
    X(image_set_raw_color_profile) \
    X(nclx_color_profile_alloc) \
    X(nclx_color_profile_free)

#define PC_HEIF_FIELD(name) __typeof__(heif_##name) *_Nonnull name;

/// libheif's functions, each typed after the function it holds.
typedef struct {
    PC_HEIF_FUNCTIONS(PC_HEIF_FIELD)
} pc_heif_functions;

#undef PC_HEIF_FIELD

/// Loads libheif ("libheif.so.1") once per process, thread-safe, and returns its functions;
/// NULL when it cannot be loaded, with the reason (dlerror's text) in `reason`.
const pc_heif_functions *_Nullable pc_heif_load(char *_Nullable reason, size_t reason_size);
