#include "CRaw.h"

#include <CLibraryLoading.h>
#include <libraw/libraw.h>
#include <string.h>

// LibRaw's libtool soname is libraw_r.so.(current - age), from the header built against.
#if LIBRAW_SHLIB_AGE != 0
#error "LibRaw's soname is no longer libraw_r.so.LIBRAW_SHLIB_CURRENT: compute it here"
#endif
#define PC_STRING(text) #text
#define PC_SONAME(current) "libraw_r.so." PC_STRING(current)

/// The LibRaw functions photocap calls, named without their `libraw_` prefix.
#define PC_RAW_FUNCTIONS(X) \
    X(init) \
    X(set_dataerror_handler) \
    X(open_buffer) \
    X(open_file) \
    X(unpack) \
    X(recycle_datastream) \
    X(free_image) \
    X(close) \
    X(strerror) \
    X(COLOR) \
    X(dcraw_process) \
    X(dcraw_make_mem_image) \
    X(dcraw_clear_mem)

#define PC_RAW_FIELD(name) __typeof__(libraw_##name) *name;

// LibRaw's functions, each typed after the function it holds.
struct pc_raw_library {
    PC_RAW_FUNCTIONS(PC_RAW_FIELD)
};

#undef PC_RAW_FIELD

PC_LIBRARY_DEFINE(lib, struct pc_raw_library, PC_SONAME(LIBRAW_SHLIB_CURRENT), "libraw_", PC_RAW_FUNCTIONS);

const pc_raw_library *pc_raw_load(char *reason, size_t reason_size) {
    return (const pc_raw_library *)pc_library_load(&library, reason, reason_size);
}

const int pc_raw_success = LIBRAW_SUCCESS;

static libraw_data_t *data(pc_raw *raw) { return (libraw_data_t *)raw; }

static void ignore_data_error(void *context, const char *file, const int offset) {
    (void)context, (void)file, (void)offset;
}

pc_raw *pc_raw_init(void) {
    libraw_data_t *raw = lib.init(0);
    // LibRaw's default handler prints "unknown file: Unexpected end of file" on stderr; the
    // failure reaches the caller as an error instead, one line.
    if (raw) lib.set_dataerror_handler(raw, ignore_data_error, NULL);
    return (pc_raw *)raw;
}

void pc_raw_close(pc_raw *raw) { lib.close(data(raw)); }
const char *pc_raw_strerror(int code) { return lib.strerror(code); }

int pc_raw_open_buffer(pc_raw *raw, const void *buffer, size_t size) {
    // LibRaw only reads the buffer, though its parameter is not const.
    return lib.open_buffer(data(raw), (void *)buffer, size);
}

int pc_raw_open_file(pc_raw *raw, const char *path) { return lib.open_file(data(raw), path); }

int pc_raw_unpack(pc_raw *raw) { return lib.unpack(data(raw)); }
void pc_raw_recycle_datastream(pc_raw *raw) { lib.recycle_datastream(data(raw)); }
int pc_raw_color(pc_raw *raw, int row, int column) { return lib.COLOR(data(raw), row, column); }
void pc_raw_free_image(pc_raw *raw) { lib.free_image(data(raw)); }

void pc_raw_read_info(const pc_raw *raw, pc_raw_info *info) {
    const libraw_data_t *d = (const libraw_data_t *)raw;
    info->raw_width = d->sizes.raw_width;
    info->raw_height = d->sizes.raw_height;
    info->width = d->sizes.width;
    info->height = d->sizes.height;
    info->raw_pitch = (int)d->sizes.raw_pitch;
    info->flip = d->sizes.flip;
    info->dng_version = d->idata.dng_version;
    memcpy(info->colors, d->idata.cdesc, sizeof info->colors);
    info->maximum = d->color.maximum;
    info->black = d->color.black;
    memcpy(info->camera_multipliers, d->color.cam_mul, sizeof info->camera_multipliers);
    info->raw_image = d->rawdata.raw_image;
    info->top_margin = d->sizes.top_margin;
    info->left_margin = d->sizes.left_margin;
    memcpy(info->camera_to_srgb, d->color.rgb_cam, sizeof info->camera_to_srgb);
}

int pc_raw_site_levels(pc_raw *raw, unsigned black[4], float multiplier[4], unsigned *white) {
    const libraw_colordata_t *color = &data(raw)->color;
    const unsigned rows = color->cblack[4], columns = color->cblack[5];
    if ((rows || columns) && (rows == 0 || columns == 0 || 2 % rows || 2 % columns)) return 0;
    // scale_colors: the multipliers as shot unless the file has none (cam_mul[0] is -1 or 0).
    const float *chosen = color->cam_mul[0] > 0 && color->cam_mul[2] > 0 ? color->cam_mul : color->pre_mul;
    for (int site = 0; site < 4; site++) {
        const int row = site / 2, column = site % 2;
        const int c = lib.COLOR(data(raw), row, column);
        if (c < 0 || c > 3) return 0;
        black[site] = color->black + color->cblack[c] + (rows ? color->cblack[6 + row % rows * columns + column % columns] : 0);
        // A missing second green is the first's (scale_colors).
        float value = chosen[c] > 0 ? chosen[c] : c == 3 && chosen[1] > 0 ? chosen[1] : 0;
        if (c == 1 && value <= 0) value = 1;
        if (!(value > 0)) return 0;
        multiplier[site] = value;
    }
    if (color->maximum <= color->black) return 0;
    *white = color->maximum - color->black;
    return 1;
}

int pc_raw_process(pc_raw *raw, int half_size, int apply_flip) {
    libraw_output_params_t *params = &data(raw)->params;
    params->use_camera_wb = 1;
    params->use_camera_matrix = 1;
    params->output_color = 1;  // sRGB
    params->output_bps = 8;
    // The sRGB curve: power 1/2.4 with a linear toe of slope 12.92.
    params->gamm[0] = 1 / 2.4;
    params->gamm[1] = 12.92;
    params->no_auto_bright = 1;
    params->bright = 1;
    // LibRaw otherwise lowers the white level to the brightest sample once that exceeds 75% of
    // it, brightening every photo without a highlight at full scale.
    params->adjust_maximum_thr = 0;
    params->highlight = 0;
    params->user_qual = 3;  // AHD
    params->half_size = half_size ? 1 : 0;
    params->user_flip = apply_flip ? -1 : 0;
    return lib.dcraw_process(data(raw));
}

int pc_raw_make_bitmap(pc_raw *raw, pc_raw_bitmap *bitmap) {
    int code = LIBRAW_SUCCESS;
    libraw_processed_image_t *image = lib.dcraw_make_mem_image(data(raw), &code);
    if (!image) return code == LIBRAW_SUCCESS ? LIBRAW_UNSPECIFIED_ERROR : code;
    bitmap->width = image->width;
    bitmap->height = image->height;
    bitmap->colors = image->colors;
    bitmap->bits = image->bits;
    bitmap->is_bitmap = image->type == LIBRAW_IMAGE_BITMAP;
    bitmap->data = image->data;
    bitmap->image = image;
    return LIBRAW_SUCCESS;
}

void pc_raw_clear_bitmap(pc_raw_bitmap *bitmap) { lib.dcraw_clear_mem((libraw_processed_image_t *)bitmap->image); }
