// A PNG's own samples, read and written whole through libpng's classic API: its bit depth,
// colour type and palette kept, which the simplified API (8-bit or linear 16-bit RGB, grey and
// alpha, with gamma conversion) would not keep. libpng reports errors by longjmp, so every
// entry point sets its jump target here, in C.
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include "CPNG.h"
#include "source.h"

struct pc_png_samples {
    png_structp png;
    png_infop info;
    pc_png_source source;
    uint8_t *pixels;
};

/// Where a write goes: a buffer that grows.
typedef struct {
    uint8_t *bytes;
    size_t count;
    size_t capacity;
    int failed;
    char *message;
    size_t message_size;
} pc_png_output;

static void on_write_error(png_structp png, png_const_charp text) {
    pc_png_output *output = png_get_error_ptr(png);
    pc_png_keep_message(output->message, output->message_size, text);
    png_longjmp(png, 1);
}

static void write_bytes(png_structp png, png_bytep bytes, size_t count) {
    pc_png_output *output = png_get_io_ptr(png);
    if (output->count + count > output->capacity) {
        size_t capacity = output->capacity * 2 > output->count + count ? output->capacity * 2 : output->count + count + 4096;
        uint8_t *grown = realloc(output->bytes, capacity);
        if (grown == NULL) png_error(png, "out of memory");
        output->bytes = grown;
        output->capacity = capacity;
    }
    memcpy(output->bytes + output->count, bytes, count);
    output->count += count;
}

static void flush_nothing(png_structp png) { (void)png; }

void pc_png_samples_free(pc_png_samples *samples) {
    if (samples == NULL) return;
    png_destroy_read_struct(&samples->png, &samples->info, NULL);
    free(samples->pixels);
    free(samples);
}

pc_png_samples *pc_png_samples_read(const uint8_t *data, size_t size, size_t maximum_area, uint32_t *width, uint32_t *height,
                                    int *bytes_per_pixel, char *message, size_t message_size) {
    message[0] = 0;
    pc_png_samples *samples = calloc(1, sizeof *samples);
    if (samples == NULL) {
        pc_png_keep_message(message, message_size, "out of memory");
        return NULL;
    }
    samples->source = (pc_png_source){data, size, 0, message, message_size, -1, NULL, 0, 0};
    samples->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &samples->source, pc_png_source_error, pc_png_ignore_warning);
    if (samples->png == NULL || (samples->info = png_create_info_struct(samples->png)) == NULL) {
        pc_png_keep_message(message, message_size, "libpng could not start");
        pc_png_samples_free(samples);
        return NULL;
    }
    png_bytep *rows = NULL;
    if (setjmp(png_jmpbuf(samples->png))) {
        free(rows);
        pc_png_samples_free(samples);
        return NULL;
    }
    png_set_read_fn(samples->png, &samples->source, pc_png_source_read);
    png_read_info(samples->png, samples->info);
    *width = png_get_image_width(samples->png, samples->info);
    *height = png_get_image_height(samples->png, samples->info);
    if (*width == 0 || *height == 0 || (size_t)*width * *height > maximum_area) png_error(samples->png, "implausible size");
    // Samples of 1, 2 or 4 bits one to a byte, values kept; 16-bit ones big-endian, as stored.
    if (png_get_bit_depth(samples->png, samples->info) < 8) png_set_packing(samples->png);
    png_set_interlace_handling(samples->png);
    png_read_update_info(samples->png, samples->info);
    size_t row_bytes = png_get_rowbytes(samples->png, samples->info);
    if (row_bytes % *width != 0) png_error(samples->png, "rows of partial pixels");
    *bytes_per_pixel = (int)(row_bytes / *width);
    samples->pixels = malloc(row_bytes * *height);
    rows = malloc(sizeof *rows * *height);
    if (samples->pixels == NULL || rows == NULL) png_error(samples->png, "out of memory");
    for (uint32_t row = 0; row < *height; row++) rows[row] = samples->pixels + row * row_bytes;
    png_read_image(samples->png, rows);
    png_read_end(samples->png, NULL);
    free(rows);
    // The data and the message buffer are the caller's and end with this call.
    samples->source.data = NULL;
    samples->source.size = 0;
    samples->source.message = NULL;
    samples->source.message_size = 0;
    return samples;
}

const uint8_t *pc_png_samples_pixels(const pc_png_samples *samples) { return samples->pixels; }

/// The chunks of `from` that describe samples, not their layout, copied to `to`; pHYs with its
/// axes swapped when `swaps_axes`.
static void copy_description(png_structp source, png_infop from, png_structp target, png_infop to, int swaps_axes) {
    png_colorp palette;
    int palette_count;
    if (png_get_PLTE(source, from, &palette, &palette_count)) png_set_PLTE(target, to, palette, palette_count);
    png_bytep alphas;
    int alpha_count;
    png_color_16p transparent;
    if (png_get_tRNS(source, from, &alphas, &alpha_count, &transparent)) png_set_tRNS(target, to, alphas, alpha_count, transparent);
    png_color_8p significant;
    if (png_get_sBIT(source, from, &significant)) png_set_sBIT(target, to, significant);
    png_color_16p background;
    if (png_get_bKGD(source, from, &background)) png_set_bKGD(target, to, background);
    int intent;
    png_charp name;
    int compression;
    png_bytep profile;
    png_uint_32 profile_length;
    png_fixed_point gamma;
    if (png_get_sRGB(source, from, &intent)) {
        png_set_sRGB(target, to, intent);
    } else if (png_get_iCCP(source, from, &name, &compression, &profile, &profile_length)) {
        png_set_iCCP(target, to, name, compression, profile, profile_length);
    }
    if (png_get_gAMA_fixed(source, from, &gamma)) png_set_gAMA_fixed(target, to, gamma);
    png_fixed_point white_x, white_y, red_x, red_y, green_x, green_y, blue_x, blue_y;
    if (png_get_cHRM_fixed(source, from, &white_x, &white_y, &red_x, &red_y, &green_x, &green_y, &blue_x, &blue_y)) {
        png_set_cHRM_fixed(target, to, white_x, white_y, red_x, red_y, green_x, green_y, blue_x, blue_y);
    }
    png_uint_32 x_density, y_density;
    int unit;
    if (png_get_pHYs(source, from, &x_density, &y_density, &unit)) {
        png_set_pHYs(target, to, swaps_axes ? y_density : x_density, swaps_axes ? x_density : y_density, unit);
    }
    png_textp texts;
    int text_count = 0;
    if (png_get_text(source, from, &texts, &text_count) > 0) png_set_text(target, to, texts, text_count);
}

int pc_png_samples_write(const pc_png_samples *samples, const uint8_t *pixels, uint32_t width, uint32_t height,
                         uint8_t **out, size_t *out_size, char *message, size_t message_size) {
    *out = NULL;
    *out_size = 0;
    message[0] = 0;
    pc_png_output output = {NULL, 0, 0, 0, message, message_size};
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &output, on_write_error, pc_png_ignore_warning);
    png_infop info = png != NULL ? png_create_info_struct(png) : NULL;
    if (info == NULL) {
        pc_png_keep_message(message, message_size, "libpng could not start");
        png_destroy_write_struct(&png, NULL);
        return -1;
    }
    png_bytep *rows = NULL;
    if (setjmp(png_jmpbuf(png))) {
        free(rows);
        free(output.bytes);
        png_destroy_write_struct(&png, &info);
        return -1;
    }
    png_set_write_fn(png, &output, write_bytes, flush_nothing);
    const uint32_t old_width = png_get_image_width(samples->png, samples->info);
    const int depth = png_get_bit_depth(samples->png, samples->info);
    png_set_IHDR(png, info, width, height, depth, png_get_color_type(samples->png, samples->info), PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    copy_description(samples->png, samples->info, png, info, width != old_width);
    png_write_info(png, info);
    if (depth < 8) png_set_packing(png);
    size_t row_bytes = png_get_rowbytes(samples->png, samples->info) / old_width * width;
    rows = malloc(sizeof *rows * height);
    if (rows == NULL) png_error(png, "out of memory");
    for (uint32_t row = 0; row < height; row++) rows[row] = (png_bytep)pixels + row * row_bytes;
    png_write_image(png, rows);
    png_write_end(png, NULL);
    free(rows);
    png_destroy_write_struct(&png, &info);
    *out = output.bytes;
    *out_size = output.count;
    return 0;
}
