// A JPEG decoded a row at a time (for pictures too large to hold twice), as TurboJPEG's
// tjDecompress2 decodes it whole: the same library, the same DCT and upsampling, and warnings
// (a truncated file) treated as errors, as the whole decode does.
#include <stdlib.h>
#include <string.h>

#include "pc_jpeg_rows.h"
#include "errors.h"

struct pc_jpeg_rows {
    struct jpeg_decompress_struct info;
    struct error_manager errors;
};

// Warnings end the decode: a whole decode through TurboJPEG fails on them too.
static void on_message(j_common_ptr info, int level) {
    if (level < 0) on_error(info);
}

#define ENTER(rows, text)                     \
    (text)[0] = 0;                            \
    (rows)->errors.message = (text);          \
    if (setjmp((rows)->errors.jump)) {        \
        return -1;                            \
    }

void pc_jpeg_rows_close(pc_jpeg_rows *rows) {
    if (!rows) return;
    jpeg_destroy_decompress(&rows->info);
    free(rows);
}

pc_jpeg_rows *pc_jpeg_rows_open(const uint8_t *jpeg, size_t count, uint32_t *width, uint32_t *height, int *status,
                                char *message) {
    *status = PC_JPEG_ROWS_FAILED;
    message[0] = 0;
    pc_jpeg_rows *rows = calloc(1, sizeof *rows);
    if (!rows) return NULL;
    set_errors(&rows->errors, message);
    rows->errors.pub.emit_message = on_message;
    rows->info.err = &rows->errors.pub;
    if (setjmp(rows->errors.jump)) {
        pc_jpeg_rows_close(rows);
        return NULL;
    }
    jpeg_create_decompress(&rows->info);
    jpeg_mem_src(&rows->info, jpeg, (unsigned long)count);
    jpeg_read_header(&rows->info, TRUE);
    if (rows->info.jpeg_color_space != JCS_YCbCr && rows->info.jpeg_color_space != JCS_GRAYSCALE
        && rows->info.jpeg_color_space != JCS_RGB) {
        *status = PC_JPEG_ROWS_NOT_STREAMABLE;
        pc_jpeg_rows_close(rows);
        return NULL;
    }
    rows->info.out_color_space = JCS_RGB;
    rows->info.dct_method = JDCT_ISLOW;
    rows->info.do_fancy_upsampling = TRUE;
    jpeg_start_decompress(&rows->info);
    *width = rows->info.output_width;
    *height = rows->info.output_height;
    *status = PC_JPEG_ROWS_READY;
    return rows;
}

int pc_jpeg_rows_read(pc_jpeg_rows *rows, uint8_t *rgb, char *message) {
    ENTER(rows, message);
    JSAMPROW row = rgb;
    if (jpeg_read_scanlines(&rows->info, &row, 1) != 1) {
        strncpy(message, "no more rows", 199);
        return -1;
    }
    return 0;
}
