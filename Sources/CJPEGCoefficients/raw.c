// A 4:2:0 JPEG fed a band of rows at a time through libjpeg's raw-data API, with the settings
// and the edge padding of TurboJPEG's tjCompressFromYUVPlanes, so the bytes are the same (for an
// odd side, the same as TurboJPEG's with the sample past the edge a copy of the last): the
// caller can produce each band (convert it from a camera frame) just before it is encoded.
#include <stdlib.h>
#include <string.h>

#include "pc_jpeg_raw.h"
#include "errors.h"
#include <jerror.h>

struct pc_jpeg_raw {
    struct jpeg_compress_struct info;
    struct jpeg_destination_mgr destination;
    struct error_manager errors;
    uint8_t *output;
    size_t capacity;
    int row;                          // the next luma row to encode
    int sample_width[MAX_COMPONENTS];  // the samples each plane holds: luma the image's size,
    int sample_height[MAX_COMPONENTS]; // chroma half of it rounded up
    int block_width[MAX_COMPONENTS];   // what the MCUs cover: whole blocks
    int pads_columns;
    JSAMPLE *spare;                   // one iMCU row, padded out, for the edges
    size_t spare_size;
    JSAMPROW spare_rows[MAX_COMPONENTS][2 * DCTSIZE];
};

// Every entry point that calls libjpeg: a libjpeg error jumps back to here and ends the JPEG.
// A macro, because setjmp must be called in the frame the jump returns to.
#define ENTER(raw, message)                   \
    (message)[0] = 0;                         \
    (raw)->errors.message = (message);        \
    if (setjmp((raw)->errors.jump)) {         \
        jpeg_abort_compress(&(raw)->info);    \
        return -1;                            \
    }

// The caller's buffer is TurboJPEG's worst case: running out of it is an error, as with
// TJFLAG_NOREALLOC.
static void start_destination(j_compress_ptr info) { (void)info; }
static boolean overflow(j_compress_ptr info) {
    ERREXIT(info, JERR_BUFFER_SIZE);
    return FALSE;
}
static void end_destination(j_compress_ptr info) { (void)info; }

pc_jpeg_raw *pc_jpeg_raw_create(void) {
    pc_jpeg_raw *raw = calloc(1, sizeof *raw);
    if (!raw) return NULL;
    set_errors(&raw->errors, NULL);
    raw->info.err = &raw->errors.pub;
    if (setjmp(raw->errors.jump)) {
        free(raw);
        return NULL;
    }
    jpeg_create_compress(&raw->info);
    raw->destination.init_destination = start_destination;
    raw->destination.empty_output_buffer = overflow;
    raw->destination.term_destination = end_destination;
    raw->info.dest = &raw->destination;
    return raw;
}

int pc_jpeg_raw_start(pc_jpeg_raw *raw, int width, int height, int quality, uint8_t *output, size_t capacity,
                      char *message) {
    ENTER(raw, message);
    struct jpeg_compress_struct *info = &raw->info;
    if (width < 1 || height < 1 || quality < 1 || quality > 100) {
        snprintf(message, JMSG_LENGTH_MAX, "invalid size %dx%d or quality %d", width, height, quality);
        return -1;
    }
    raw->output = output;
    raw->capacity = capacity;
    raw->destination.next_output_byte = output;
    raw->destination.free_in_buffer = capacity;
    info->image_width = (JDIMENSION)width;
    info->image_height = (JDIMENSION)height;
    // setCompDefaults for TJPF_RGB, TJSAMP_420, no flags and no TJ_* environment.
    info->in_color_space = JCS_RGB;
    info->input_components = 3;
    jpeg_set_defaults(info);
    jpeg_set_quality(info, quality, TRUE);
    info->dct_method = quality >= 96 ? JDCT_ISLOW : JDCT_FASTEST;
    jpeg_set_colorspace(info, JCS_YCbCr);
    info->comp_info[0].h_samp_factor = 2;
    info->comp_info[0].v_samp_factor = 2;
    for (int c = 1; c < 3; c++) info->comp_info[c].h_samp_factor = info->comp_info[c].v_samp_factor = 1;
    info->raw_data_in = TRUE;
    jpeg_start_compress(info, TRUE);

    // The samples the planes hold, and the blocks the MCUs need. tjCompressFromYUVPlanes reads
    // the luma of an odd side one sample further (to an even size), a sample nobody wrote:
    // here that one is the edge repeated, like the rest of the blocks.
    size_t spare = 0;
    raw->pads_columns = 0;
    for (int c = 0; c < 3; c++) {
        jpeg_component_info *component = &info->comp_info[c];
        raw->sample_width[c] = c == 0 ? width : (width + 1) / 2;
        raw->sample_height[c] = c == 0 ? height : (height + 1) / 2;
        raw->block_width[c] = (int)component->width_in_blocks * DCTSIZE;
        if (raw->block_width[c] != raw->sample_width[c]) raw->pads_columns = 1;
        spare += (size_t)raw->block_width[c] * component->v_samp_factor * DCTSIZE;
    }
    if (spare > raw->spare_size) {
        free(raw->spare);
        raw->spare = malloc(spare);
        raw->spare_size = raw->spare ? spare : 0;
        if (!raw->spare) ERREXIT1(info, JERR_OUT_OF_MEMORY, 0);
    }
    JSAMPLE *next = raw->spare;
    for (int c = 0; c < 3; c++) {
        for (int r = 0; r < info->comp_info[c].v_samp_factor * DCTSIZE; r++, next += raw->block_width[c])
            raw->spare_rows[c][r] = next;
    }
    raw->row = 0;
    return 0;
}

int pc_jpeg_raw_write(pc_jpeg_raw *raw, const uint8_t *y, ptrdiff_t luma_stride, const uint8_t *cb, const uint8_t *cr,
                      ptrdiff_t chroma_stride, int rows, char *message) {
    ENTER(raw, message);
    struct jpeg_compress_struct *info = &raw->info;
    const int height = (int)info->image_height, band = info->max_v_samp_factor * DCTSIZE;
    if (rows < 1 || raw->row + rows > height || (rows % band != 0 && raw->row + rows != height)) {
        snprintf(message, JMSG_LENGTH_MAX, "%d rows from row %d of %d", rows, raw->row, height);
        return -1;
    }
    const uint8_t *planes[3] = {y, cb, cr};
    const ptrdiff_t strides[3] = {luma_stride, chroma_stride, chroma_stride};
    for (int first = 0; first < rows; first += band) {
        JSAMPROW direct[3][2 * DCTSIZE];
        JSAMPARRAY data[3];
        for (int c = 0; c < 3; c++) {
            const int sampling = info->comp_info[c].v_samp_factor, lines = sampling * DCTSIZE;
            const int start = (raw->row + first) * sampling / info->max_v_samp_factor;
            const int available = raw->sample_height[c] - start;
            const uint8_t *origin = planes[c] + (ptrdiff_t)(first * sampling / info->max_v_samp_factor) * strides[c];
            if (!raw->pads_columns && available >= lines) {
                for (int r = 0; r < lines; r++) direct[c][r] = (JSAMPROW)(origin + r * strides[c]);
                data[c] = direct[c];
                continue;
            }
            // An edge: the last sample of each row and the last row repeated, as TurboJPEG does.
            const int width = raw->sample_width[c], blocks = raw->block_width[c];
            const int copied = available < lines ? available : lines;
            for (int r = 0; r < copied; r++) {
                JSAMPROW target = raw->spare_rows[c][r];
                memcpy(target, origin + r * strides[c], (size_t)width);
                memset(target + width, target[width - 1], (size_t)(blocks - width));
            }
            for (int r = copied; r < lines; r++) memcpy(raw->spare_rows[c][r], raw->spare_rows[c][copied - 1], (size_t)blocks);
            data[c] = raw->spare_rows[c];
        }
        jpeg_write_raw_data(info, data, (JDIMENSION)band);
    }
    raw->row += rows;
    return 0;
}

int pc_jpeg_raw_finish(pc_jpeg_raw *raw, size_t *count, char *message) {
    ENTER(raw, message);
    if (raw->row != (int)raw->info.image_height) {
        snprintf(message, JMSG_LENGTH_MAX, "%d of %u rows written", raw->row, raw->info.image_height);
        jpeg_abort_compress(&raw->info);
        return -1;
    }
    jpeg_finish_compress(&raw->info);
    *count = raw->capacity - raw->destination.free_in_buffer;
    // `message` is the caller's and ends with this call (destroy reports nothing).
    raw->errors.message = NULL;
    return 0;
}

void pc_jpeg_raw_destroy(pc_jpeg_raw *raw) {
    if (!raw) return;
    jpeg_destroy_compress(&raw->info);
    free(raw->spare);
    free(raw);
}
