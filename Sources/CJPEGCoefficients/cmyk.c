// CMYK and YCCK JPEGs turned through their samples when the coefficients cannot be turned
// exactly: TurboJPEG 2.1 decodes them to CMYK but encodes CMYK only as YCCK, with an Adobe
// marker of its own; libjpeg keeps the original's colour transform, so its APP14 stays true.
#include <stdlib.h>
#include <string.h>

#include "pc_jpeg_cmyk.h"
#include "errors.h"
#include <jerror.h>

/// The error manager, noting libjpeg's warning that the data ends before the picture does.
struct cmyk_errors {
    struct error_manager manager;
    void (*emit_message)(j_common_ptr, int);
    int premature_end;
};

static void noting_emit(j_common_ptr info, int level) {
    struct cmyk_errors *errors = (struct cmyk_errors *)info->err;
    if (level < 0 && info->err->msg_code == JWRN_JPEG_EOF) errors->premature_end = 1;
    errors->emit_message(info, level);
}

/// Where stored pixel (x, y) of a `width`×`height` picture lands in the upright picture.
static void upright_position(int orientation, int width, int height, int x, int y, int *u, int *v) {
    switch (orientation) {
    case 2: *u = width - 1 - x; *v = y; break;
    case 3: *u = width - 1 - x; *v = height - 1 - y; break;
    case 4: *u = x; *v = height - 1 - y; break;
    case 5: *u = y; *v = x; break;
    case 6: *u = height - 1 - y; *v = x; break;
    case 7: *u = height - 1 - y; *v = width - 1 - x; break;
    case 8: *u = y; *v = width - 1 - x; break;
    default: *u = x; *v = y; break;
    }
}

int pc_jpeg_cmyk_turn(const uint8_t *jpeg, size_t count, int orientation, int quality, uint8_t **output,
                      size_t *output_size, int *width, int *height, int *premature_end, char *message) {
    message[0] = 0;
    *output = NULL;
    *output_size = 0;
    *premature_end = 0;
    struct jpeg_decompress_struct source;
    struct jpeg_compress_struct target;
    struct cmyk_errors errors = {0};
    // Set before the jump can return to here, read after it: volatile.
    uint8_t *volatile turned = NULL;
    JSAMPLE *volatile row = NULL;
    unsigned char *volatile encoded = NULL;
    unsigned long encoded_size = 0;
    volatile int target_created = 0;
    set_errors(&errors.manager, message);
    errors.emit_message = errors.manager.pub.emit_message;
    errors.manager.pub.emit_message = noting_emit;
    source.err = &errors.manager.pub;
    target.err = &errors.manager.pub;
    if (setjmp(errors.manager.jump)) {
        if (target_created) jpeg_destroy_compress(&target);
        jpeg_destroy_decompress(&source);
        free(turned);
        free(row);
        free(encoded);
        return PC_JPEG_CMYK_FAILED;
    }
    jpeg_create_decompress(&source);
    jpeg_mem_src(&source, (unsigned char *)jpeg, (unsigned long)count);
    jpeg_read_header(&source, TRUE);
    J_COLOR_SPACE coding = source.jpeg_color_space;
    if (source.data_precision != 8 || source.num_components != 4 || (coding != JCS_CMYK && coding != JCS_YCCK)) {
        jpeg_destroy_decompress(&source);
        snprintf(message, JMSG_LENGTH_MAX, "not a CMYK or YCCK JPEG of 8-bit samples");
        return PC_JPEG_CMYK_UNSUPPORTED;
    }
    int sampling[4][2];
    for (int c = 0; c < 4; c++) {
        sampling[c][0] = source.comp_info[c].h_samp_factor;
        sampling[c][1] = source.comp_info[c].v_samp_factor;
    }
    source.out_color_space = JCS_CMYK;
    source.dct_method = JDCT_ISLOW;
    jpeg_start_decompress(&source);
    int stored_width = (int)source.output_width, stored_height = (int)source.output_height;
    int transposes = orientation >= 5 && orientation <= 8;
    int turned_width = transposes ? stored_height : stored_width;
    int turned_height = transposes ? stored_width : stored_height;
    turned = malloc((size_t)stored_width * (size_t)stored_height * 4);
    row = malloc((size_t)stored_width * 4);
    if (!turned || !row) ERREXIT1(&source, JERR_OUT_OF_MEMORY, 0);
    while (source.output_scanline < source.output_height) {
        int y = (int)source.output_scanline;
        JSAMPROW rows[1] = {row};
        jpeg_read_scanlines(&source, rows, 1);
        for (int x = 0; x < stored_width; x++) {
            int u, v;
            upright_position(orientation, stored_width, stored_height, x, y, &u, &v);
            memcpy(turned + ((size_t)v * (size_t)turned_width + (size_t)u) * 4, row + (size_t)x * 4, 4);
        }
    }
    jpeg_finish_decompress(&source);

    jpeg_create_compress(&target);
    target_created = 1;
    target.image_width = (JDIMENSION)turned_width;
    target.image_height = (JDIMENSION)turned_height;
    target.input_components = 4;
    target.in_color_space = JCS_CMYK;
    jpeg_set_defaults(&target);
    jpeg_set_colorspace(&target, coding);
    jpeg_set_quality(&target, quality, TRUE);
    target.dct_method = JDCT_ISLOW;
    for (int c = 0; c < 4; c++) {
        target.comp_info[c].h_samp_factor = sampling[c][transposes ? 1 : 0];
        target.comp_info[c].v_samp_factor = sampling[c][transposes ? 0 : 1];
    }
    // The caller carries the original's markers, its Adobe APP14 among them.
    target.write_JFIF_header = FALSE;
    target.write_Adobe_marker = FALSE;
    jpeg_mem_dest(&target, (unsigned char **)&encoded, &encoded_size);
    jpeg_start_compress(&target, TRUE);
    while (target.next_scanline < target.image_height) {
        JSAMPROW rows[1] = {turned + (size_t)target.next_scanline * (size_t)turned_width * 4};
        jpeg_write_scanlines(&target, rows, 1);
    }
    jpeg_finish_compress(&target);
    jpeg_destroy_compress(&target);
    jpeg_destroy_decompress(&source);
    free(turned);
    free(row);
    *output = encoded;
    *output_size = encoded_size;
    *width = turned_width;
    *height = turned_height;
    *premature_end = errors.premature_end;
    return PC_JPEG_CMYK_OK;
}
