// Rows of a PNG through libpng's progressive-free classic API. libpng reports errors by
// longjmp, so every entry point sets its jump target here, in C.
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include "CPNG.h"
#include "source.h"

struct pc_png_rows {
    png_structp png;
    png_infop info;
    pc_png_source source;
};

void pc_png_rows_close(pc_png_rows *rows) {
    if (!rows) return;
    png_destroy_read_struct(&rows->png, &rows->info, NULL);
    free(rows->source.buffer);
    free(rows);
}

static pc_png_rows *pc_png_rows_start(pc_png_source source, uint32_t *width, uint32_t *height, int *status,
                                      char *message, size_t message_size);

pc_png_rows *pc_png_rows_open(const uint8_t *data, size_t size, uint32_t *width, uint32_t *height, int *status,
                              char *message, size_t message_size) {
    return pc_png_rows_start((pc_png_source){data, size, 0, message, message_size, -1, NULL, 0, 0}, width, height, status,
                             message, message_size);
}

pc_png_rows *pc_png_rows_open_file(int descriptor, size_t size, uint32_t *width, uint32_t *height, int *status,
                                   char *message, size_t message_size) {
    *status = PC_PNG_ROWS_FAILED;
    uint8_t *buffer = malloc(PC_PNG_FILE_BUFFER);
    if (!buffer) {
        pc_png_keep_message(message, message_size, "out of memory");
        return NULL;
    }
    return pc_png_rows_start((pc_png_source){NULL, size, 0, message, message_size, descriptor, buffer, 0, 0}, width, height,
                             status, message, message_size);
}

/// Reads the header from `source` (whose buffer, if any, the reader now owns).
static pc_png_rows *pc_png_rows_start(pc_png_source source, uint32_t *width, uint32_t *height, int *status,
                                      char *message, size_t message_size) {
    *status = PC_PNG_ROWS_FAILED;
    message[0] = 0;
    pc_png_rows *rows = calloc(1, sizeof *rows);
    if (!rows) {
        free(source.buffer);
        return NULL;
    }
    rows->source = source;
    rows->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &rows->source, pc_png_source_error, pc_png_ignore_warning);
    if (!rows->png || !(rows->info = png_create_info_struct(rows->png))) {
        strncpy(message, "libpng could not start", message_size - 1);
        pc_png_rows_close(rows);
        return NULL;
    }
    if (setjmp(png_jmpbuf(rows->png))) {
        pc_png_rows_close(rows);
        return NULL;
    }
    png_set_read_fn(rows->png, &rows->source, pc_png_source_read);
    png_read_info(rows->png, rows->info);
    const int type = png_get_color_type(rows->png, rows->info);
    const int depth = png_get_bit_depth(rows->png, rows->info);
    double gamma = 0;
    const int hasGamma = png_get_gAMA(rows->png, rows->info, &gamma);
    if (depth > 8 || (type & PNG_COLOR_MASK_ALPHA) || png_get_valid(rows->png, rows->info, PNG_INFO_tRNS)
        || png_get_interlace_type(rows->png, rows->info) != PNG_INTERLACE_NONE
        || (hasGamma && (gamma < 0.45 || gamma > 0.46))) {
        *status = PC_PNG_ROWS_NOT_STREAMABLE;
        pc_png_rows_close(rows);
        return NULL;
    }
    if (type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(rows->png);
    if (type == PNG_COLOR_TYPE_GRAY) {
        if (depth < 8) png_set_expand_gray_1_2_4_to_8(rows->png);
        png_set_gray_to_rgb(rows->png);
    }
    png_read_update_info(rows->png, rows->info);
    *width = png_get_image_width(rows->png, rows->info);
    *height = png_get_image_height(rows->png, rows->info);
    if (png_get_rowbytes(rows->png, rows->info) != (size_t)*width * 3) {
        *status = PC_PNG_ROWS_NOT_STREAMABLE;
        pc_png_rows_close(rows);
        return NULL;
    }
    *status = PC_PNG_ROWS_READY;
    return rows;
}

int pc_png_rows_read(pc_png_rows *rows, uint8_t *rgb, char *message, size_t message_size) {
    rows->source.message = message;
    rows->source.message_size = message_size;
    if (setjmp(png_jmpbuf(rows->png))) return -1;
    png_read_row(rows->png, rgb, NULL);
    return 0;
}

int pc_png_rows_finish(pc_png_rows *rows, char *message, size_t message_size) {
    rows->source.message = message;
    rows->source.message_size = message_size;
    if (setjmp(png_jmpbuf(rows->png))) return -1;
    png_read_end(rows->png, NULL);
    return 0;
}
