// Lossless JPEG turns in the DCT domain with libjpeg's coefficient API, in strips that are
// turned and encoded on parallel threads. jpegtran (transupp.c) does the same turn in one
// thread and reaches source blocks column by column through the virtual-array accessor; here
// each strip reads the source through a table of block-row pointers built once, so the turn is
// a plain gather, and the strips' entropy coding runs side by side.
#include <pthread.h>
#include <limits.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <sys/mman.h>
#include <jpeglib.h>

#include "CJPEGCoefficients.h"
#include "errors.h"
#include "pages.h"
#include "split.h"

struct strip {
    int first_row;  // in the turned picture, a multiple of the iMCU height
    int height;
    int first_block_row[MAX_COMPONENTS];
    int block_rows[MAX_COMPONENTS];  // padded to the component's vertical sampling
    unsigned char *output;
    unsigned long output_size;
};

struct pc_jpeg_turn {
    struct jpeg_decompress_struct source;
    struct error_manager source_errors;
    int source_created;
    int orientation;
    int transposes;
    int width, height;            // turned
    int block_columns[MAX_COMPONENTS];  // turned, padded to the horizontal sampling
    int source_block_columns[MAX_COMPONENTS];
    int source_block_rows[MAX_COMPONENTS];
    JBLOCKROW *source_rows[MAX_COMPONENTS];
    int strip_count;
    unsigned restart_interval;
    struct strip *strips;
    int index[DCTSIZE2];
    JCOEF sign[DCTSIZE2];         // 1, or -1 where the coefficient's sign flips
    // libjpeg's own array methods, wrapped to see every coefficient array it allocates.
    jvirt_barray_ptr (*request_blocks)(j_common_ptr, int, boolean, JDIMENSION, JDIMENSION, JDIMENSION);
    void (*realize_arrays)(j_common_ptr);
    jvirt_barray_ptr arrays[2 * MAX_COMPONENTS + 8];
    size_t array_bytes[2 * MAX_COMPONENTS + 8];
    int array_count;
    // The coefficients when the split decode read them instead of libjpeg.
    struct split_decode split;
    // The source's large arrays, backed on another thread while this one decodes into them.
    struct populating {
        pthread_t thread;
        int running;
        int count;
        void *start[MAX_COMPONENTS];
        size_t length[MAX_COMPONENTS];
    } populating;
};

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23  // Linux 5.14; older kernels refuse it and the decode faults as before
#endif

// Backs the source's arrays ahead of the decode, which fills them from the top in one thread
// while the other processors wait: the pages' zeroing and faults move off the serial part.
// Each array a slice at a time, all of them side by side as the decode's MCU rows fill them,
// so the decode rarely overtakes; where it does, either side's touch backs the page.
static void *populate(void *argument) {
    struct populating *work = argument;
    const uintptr_t page = 4096;
    const int slices = 64;
    for (int slice = 0; slice < slices; slice++) {
        for (int a = 0; a < work->count; a++) {
            uintptr_t start = (uintptr_t)work->start[a];
            uintptr_t begin = (start + work->length[a] * (size_t)slice / slices) & ~(page - 1);
            uintptr_t end = start + work->length[a] * (size_t)(slice + 1) / slices;
            if (end > begin && madvise((void *)begin, end - begin, MADV_POPULATE_WRITE) != 0) return NULL;
        }
    }
    return NULL;
}

/// Waits for the thread that backs the source's arrays, if one runs: before they are freed.
static void finish_populating(struct pc_jpeg_turn *turn) {
    if (!turn->populating.running) return;
    pthread_join(turn->populating.thread, NULL);
    turn->populating.running = 0;
}

static jvirt_barray_ptr recording_request(j_common_ptr info, int pool, boolean pre_zero, JDIMENSION blocks_per_row,
                                          JDIMENSION rows, JDIMENSION max_access) {
    struct pc_jpeg_turn *turn = info->client_data;
    jvirt_barray_ptr array = turn->request_blocks(info, pool, pre_zero, blocks_per_row, rows, max_access);
    if (turn->array_count < (int)(sizeof turn->arrays / sizeof turn->arrays[0])) {
        turn->arrays[turn->array_count] = array;
        turn->array_bytes[turn->array_count] = (size_t)blocks_per_row * rows * sizeof(JBLOCK);
        turn->array_count++;
    }
    return array;
}

// A turned strip's coefficient arrays, past which the picture gets more strips than threads:
// the strips' arrays live only while each is encoded, and a small one freed is reused from
// malloc's heap by the thread's next strip, already backed, so a turn holds the source's
// coefficients and about this much per thread, and a 12 MP turn faults in a few megabytes of
// strip arrays instead of the whole turned picture.
static const long strip_bytes_limit = 1L << 20;

// Realized arrays are allocated but not yet touched: the moment to advise, and to start backing
// them. Each lies in one allocation (libjpeg splits only above 1 GB), which a writable access
// of its first row gives.
static void advising_realize(j_common_ptr info) {
    struct pc_jpeg_turn *turn = info->client_data;
    turn->realize_arrays(info);
    struct populating *work = &turn->populating;
    for (int a = 0; a < turn->array_count && work->count < MAX_COMPONENTS; a++) {
        if (turn->array_bytes[a] < large_array_bytes) continue;
        JBLOCKARRAY first = (*info->mem->access_virt_barray)(info, turn->arrays[a], 0, 1, TRUE);
        advise_huge_pages(first[0], turn->array_bytes[a]);
        work->start[work->count] = first[0];
        work->length[work->count] = turn->array_bytes[a];
        work->count++;
    }
    if (work->count > 0 && !work->running) work->running = pthread_create(&work->thread, NULL, populate, work) == 0;
}

static int round_up(int value, int multiple) { return (value + multiple - 1) / multiple * multiple; }
static int divide_up(long value, long divisor) { return (int)((value + divisor - 1) / divisor); }

/// Where coefficient k of a turned block comes from, and whether its sign flips: a mirror
/// negates the odd frequencies along its axis, a transpose swaps the axes.
static void make_coefficient_map(struct pc_jpeg_turn *turn) {
    for (int a = 0; a < DCTSIZE; a++) {
        for (int b = 0; b < DCTSIZE; b++) {
            int k = a * DCTSIZE + b, odd_row = a & 1, odd_column = b & 1;
            turn->index[k] = turn->transposes ? b * DCTSIZE + a : k;
            int negate;
            switch (turn->orientation) {
            case 2: negate = odd_column; break;              // mirror left-right
            case 3: negate = odd_row ^ odd_column; break;    // 180°
            case 4: negate = odd_row; break;                 // mirror top-bottom
            case 5: negate = 0; break;                       // transpose
            case 6: negate = odd_column; break;              // 90° clockwise
            case 7: negate = odd_row ^ odd_column; break;    // transverse
            case 8: negate = odd_row; break;                 // 90° counter-clockwise
            default: negate = 0; break;                      // 1: as stored
            }
            turn->sign[k] = negate ? -1 : 1;
        }
    }
}

/// The source block that turned block (row, column) of a component comes from.
static void source_block(const struct pc_jpeg_turn *turn, int component, int row, int column,
                         int *source_row, int *source_column) {
    int rows = turn->source_block_rows[component], columns = turn->source_block_columns[component];
    switch (turn->orientation) {
    case 2: *source_row = row; *source_column = columns - 1 - column; break;
    case 3: *source_row = rows - 1 - row; *source_column = columns - 1 - column; break;
    case 4: *source_row = rows - 1 - row; *source_column = column; break;
    case 5: *source_row = column; *source_column = row; break;
    case 6: *source_row = rows - 1 - column; *source_column = row; break;
    case 7: *source_row = rows - 1 - column; *source_column = columns - 1 - row; break;
    case 8: *source_row = column; *source_column = columns - 1 - row; break;
    default: *source_row = row; *source_column = column; break;
    }
}

/// Ends an open that cannot go on: `reason` into `message`, everything so far released.
static int give_up(struct pc_jpeg_turn *turn, char *message, int code, const char *reason) {
    snprintf(message, JMSG_LENGTH_MAX, "%s", reason);
    pc_jpeg_turn_close(turn);
    return code;
}

static int unsupported(struct pc_jpeg_turn *turn, char *message, const char *reason) {
    return give_up(turn, message, PC_JPEG_TURN_UNSUPPORTED, reason);
}

int pc_jpeg_turn_open(const uint8_t *jpeg, size_t count, int orientation, int strips, int decoders,
                      pc_jpeg_turn **result, char *message) {
    *result = NULL;
    message[0] = 0;
    if (orientation < 1 || orientation > 8) return unsupported(NULL, message, "orientation is not an EXIF orientation (1...8)");
    struct pc_jpeg_turn *turn = calloc(1, sizeof *turn);
    if (!turn) return give_up(NULL, message, PC_JPEG_TURN_FAILED, "out of memory");
    turn->orientation = orientation;
    turn->transposes = orientation >= 5;
    set_errors(&turn->source_errors, message);
    turn->source.err = &turn->source_errors.pub;
    if (setjmp(turn->source_errors.jump)) {
        pc_jpeg_turn_close(turn);
        return PC_JPEG_TURN_FAILED;
    }
    jpeg_create_decompress(&turn->source);
    turn->source_created = 1;
    turn->source.client_data = turn;
    turn->request_blocks = turn->source.mem->request_virt_barray;
    turn->realize_arrays = turn->source.mem->realize_virt_arrays;
    turn->source.mem->request_virt_barray = recording_request;
    turn->source.mem->realize_virt_arrays = advising_realize;
    jpeg_mem_src(&turn->source, (unsigned char *)jpeg, (unsigned long)count);
    jpeg_read_header(&turn->source, TRUE);

    struct jpeg_decompress_struct *source = &turn->source;
    if (source->data_precision != 8) return unsupported(turn, message, "not an 8-bit JPEG");
    int components = source->num_components;
    if (components < 1 || components > MAX_COMPONENTS) return unsupported(turn, message, "unusual component count");
    int max_h = source->max_h_samp_factor, max_v = source->max_v_samp_factor;
    if (components == 1 && (max_h != 1 || max_v != 1)) return unsupported(turn, message, "single component with sampling factors");
    // The edges that move must be whole iMCUs, or the turn would not be exact.
    int mcu_width = max_h * DCTSIZE, mcu_height = max_v * DCTSIZE;
    int needs_width = orientation == 2 || orientation == 3 || orientation == 7 || orientation == 8;
    int needs_height = orientation == 3 || orientation == 4 || orientation == 6 || orientation == 7;
    if ((needs_width && source->image_width % mcu_width) || (needs_height && source->image_height % mcu_height))
        return unsupported(turn, message, "the turn would move a partial iMCU");

    turn->width = turn->transposes ? (int)source->image_height : (int)source->image_width;
    turn->height = turn->transposes ? (int)source->image_width : (int)source->image_height;
    int turned_max_h = turn->transposes ? max_v : max_h, turned_max_v = turn->transposes ? max_h : max_v;
    long turned_bytes = 0;  // the turned picture's coefficient arrays, which size the strips
    for (int c = 0; c < components; c++) {
        jpeg_component_info *component = &source->comp_info[c];
        turn->source_block_columns[c] = round_up((int)component->width_in_blocks, component->h_samp_factor);
        turn->source_block_rows[c] = round_up((int)component->height_in_blocks, component->v_samp_factor);
        int h = turn->transposes ? component->v_samp_factor : component->h_samp_factor;
        int v = turn->transposes ? component->h_samp_factor : component->v_samp_factor;
        turn->block_columns[c] = round_up(divide_up((long)turn->width * h, turned_max_h * DCTSIZE), h);
        int block_rows = round_up(divide_up((long)turn->height * v, turned_max_v * DCTSIZE), v);
        // Every turned block must have a source block: true for an exact turn.
        int expected_columns = turn->transposes ? turn->source_block_rows[c] : turn->source_block_columns[c];
        int expected_rows = turn->transposes ? turn->source_block_columns[c] : turn->source_block_rows[c];
        if (turn->block_columns[c] != expected_columns || block_rows != expected_rows)
            return unsupported(turn, message, "block grid does not match");
        turned_bytes += (long)block_rows * turn->block_columns[c] * (long)sizeof(JBLOCK);
    }

    // Strips of whole iMCU rows; each strip's MCU count is the restart interval that joins them.
    int turned_mcu_height = components == 1 ? DCTSIZE : turned_max_v * DCTSIZE;
    int turned_mcu_width = components == 1 ? DCTSIZE : turned_max_h * DCTSIZE;
    int mcu_rows = divide_up(turn->height, turned_mcu_height);
    int mcus_per_row = divide_up(turn->width, turned_mcu_width);
    int threads = strips < 1 ? 1 : strips;
    int wanted = divide_up(turned_bytes, strip_bytes_limit);
    wanted = wanted <= threads ? threads : round_up(wanted, threads);
    if (wanted > mcu_rows) wanted = mcu_rows;
    int rows_per_strip = divide_up(mcu_rows, wanted);
    if ((long)rows_per_strip * mcus_per_row > 65535) rows_per_strip = 65535 / mcus_per_row;
    if (rows_per_strip < 1) rows_per_strip = mcu_rows;  // one MCU row is over 65535 MCUs: one strip
    turn->strip_count = divide_up(mcu_rows, rows_per_strip);
    turn->restart_interval = turn->strip_count > 1 ? (unsigned)(rows_per_strip * mcus_per_row) : 0;
    turn->strips = calloc((size_t)turn->strip_count, sizeof *turn->strips);
    if (!turn->strips) return give_up(turn, message, PC_JPEG_TURN_FAILED, "out of memory");
    for (int s = 0; s < turn->strip_count; s++) {
        struct strip *strip = &turn->strips[s];
        strip->first_row = s * rows_per_strip * turned_mcu_height;
        int end = strip->first_row + rows_per_strip * turned_mcu_height;
        strip->height = (end < turn->height ? end : turn->height) - strip->first_row;
        for (int c = 0; c < components; c++) {
            jpeg_component_info *component = &source->comp_info[c];
            int v = turn->transposes ? component->h_samp_factor : component->v_samp_factor;
            strip->first_block_row[c] = strip->first_row / turned_mcu_height * v;
            strip->block_rows[c] = round_up(divide_up((long)strip->height * v, turned_max_v * DCTSIZE), v);
        }
    }

    if (decoders >= 2) split_decode(source, jpeg, count, &turn->split);
    jvirt_barray_ptr *source_arrays = turn->split.used ? NULL : jpeg_read_coefficients(source);
    finish_populating(turn);
    for (int c = 0; c < components; c++) {
        int v = source->comp_info[c].v_samp_factor;
        turn->source_rows[c] = malloc(sizeof(JBLOCKROW) * (size_t)turn->source_block_rows[c]);
        if (!turn->source_rows[c]) return give_up(turn, message, PC_JPEG_TURN_FAILED, "out of memory");
        if (turn->split.used) {
            for (int row = 0; row < turn->source_block_rows[c]; row++) turn->source_rows[c][row] = split_row(&turn->split, c, row);
            continue;
        }
        for (int row = 0; row < turn->source_block_rows[c]; row += v) {
            JBLOCKARRAY rows = (*source->mem->access_virt_barray)((j_common_ptr)source, source_arrays[c],
                                                                  (JDIMENSION)row, (JDIMENSION)v, FALSE);
            for (int k = 0; k < v; k++) turn->source_rows[c][row + k] = rows[k];
        }
    }
    make_coefficient_map(turn);
    // `message` is the caller's and ends with this call: nothing may write to it later.
    turn->source_errors.message = NULL;
    *result = turn;
    return PC_JPEG_TURN_OK;
}

int pc_jpeg_turn_strip_count(const pc_jpeg_turn *turn) { return turn->strip_count; }

int pc_jpeg_turn_entropy_decode(const pc_jpeg_turn *turn) {
    if (!turn->split.used) return PC_JPEG_TURN_DECODED_BY_LIBJPEG;
    return turn->split.synced ? PC_JPEG_TURN_DECODED_IN_TWO : PC_JPEG_TURN_DECODED_IN_ONE;
}

long pc_jpeg_turn_warnings(const pc_jpeg_turn *turn) { return turn->source.err->num_warnings; }

void pc_jpeg_turn_geometry(const pc_jpeg_turn *turn, int *width, int *height, unsigned *restart_interval) {
    *width = turn->width;
    *height = turn->height;
    *restart_interval = turn->restart_interval;
}

// One block: coefficient k of the turned block is from[index[k]] times sign[k]. With SSE2 a
// transpose is three stages of unpacks over the block's eight rows and the signs one multiply
// per row, a fraction of the indexed copy's instructions in the turn's innermost loop.
static inline void turn_block(const struct pc_jpeg_turn *turn, const JCOEF *restrict from, JCOEF *restrict to) {
#if defined(__SSE2__)
    __m128i r[DCTSIZE];
    for (int a = 0; a < DCTSIZE; a++) r[a] = _mm_loadu_si128((const __m128i *)(from + a * DCTSIZE));
    if (turn->transposes) {
        __m128i t0 = _mm_unpacklo_epi16(r[0], r[1]), t1 = _mm_unpackhi_epi16(r[0], r[1]);
        __m128i t2 = _mm_unpacklo_epi16(r[2], r[3]), t3 = _mm_unpackhi_epi16(r[2], r[3]);
        __m128i t4 = _mm_unpacklo_epi16(r[4], r[5]), t5 = _mm_unpackhi_epi16(r[4], r[5]);
        __m128i t6 = _mm_unpacklo_epi16(r[6], r[7]), t7 = _mm_unpackhi_epi16(r[6], r[7]);
        __m128i u0 = _mm_unpacklo_epi32(t0, t2), u1 = _mm_unpackhi_epi32(t0, t2);
        __m128i u2 = _mm_unpacklo_epi32(t1, t3), u3 = _mm_unpackhi_epi32(t1, t3);
        __m128i u4 = _mm_unpacklo_epi32(t4, t6), u5 = _mm_unpackhi_epi32(t4, t6);
        __m128i u6 = _mm_unpacklo_epi32(t5, t7), u7 = _mm_unpackhi_epi32(t5, t7);
        r[0] = _mm_unpacklo_epi64(u0, u4); r[1] = _mm_unpackhi_epi64(u0, u4);
        r[2] = _mm_unpacklo_epi64(u1, u5); r[3] = _mm_unpackhi_epi64(u1, u5);
        r[4] = _mm_unpacklo_epi64(u2, u6); r[5] = _mm_unpackhi_epi64(u2, u6);
        r[6] = _mm_unpacklo_epi64(u3, u7); r[7] = _mm_unpackhi_epi64(u3, u7);
    }
    for (int a = 0; a < DCTSIZE; a++) {
        __m128i sign = _mm_loadu_si128((const __m128i *)(turn->sign + a * DCTSIZE));
        _mm_storeu_si128((__m128i *)(to + a * DCTSIZE), _mm_mullo_epi16(r[a], sign));
    }
#else
    for (int k = 0; k < DCTSIZE2; k++) to[k] = (JCOEF)(from[turn->index[k]] * turn->sign[k]);
#endif
}

/// Fills the strip's blocks (`rows`, one array of block rows per component) from the source
/// blocks, block by block.
static void turn_blocks(const pc_jpeg_turn *turn, const struct strip *strip, JBLOCKARRAY *rows) {
    for (int c = 0; c < turn->source.num_components; c++) {
        // Blocks from the split decode's second part carry DC values off by a constant.
        int seam = turn->split.synced ? turn->split.seam_row[c] : INT_MAX, offset = turn->split.dc_offset[c];
        for (int row = 0; row < strip->block_rows[c]; row++) {
            JBLOCKROW target = rows[c][row];
            int turned_row = strip->first_block_row[c] + row;
            for (int column = 0; column < turn->block_columns[c]; column++) {
                int source_row, source_column;
                source_block(turn, c, turned_row, column, &source_row, &source_column);
                turn_block(turn, turn->source_rows[c][source_row][source_column], target[column]);
                if (source_row >= seam) target[column][0] = (JCOEF)(target[column][0] + offset);
            }
        }
    }
}

int pc_jpeg_turn_strip(pc_jpeg_turn *turn, int index, const uint8_t **bytes, size_t *count, char *message) {
    message[0] = 0;
    if (index < 0 || index >= turn->strip_count) {
        snprintf(message, JMSG_LENGTH_MAX, "no strip %d", index);
        return PC_JPEG_TURN_FAILED;
    }
    struct strip *strip = &turn->strips[index];

    struct jpeg_compress_struct target;
    struct error_manager errors;
    set_errors(&errors, message);
    target.err = &errors.pub;
    // Locals the jump must see are volatile or not changed after setjmp.
    if (setjmp(errors.jump)) {
        jpeg_destroy_compress(&target);
        return PC_JPEG_TURN_FAILED;
    }
    jpeg_create_compress(&target);
    jpeg_copy_critical_parameters(&turn->source, &target);
    target.image_width = (JDIMENSION)turn->width;
    target.image_height = (JDIMENSION)strip->height;
    // Markers are the caller's (the original's, in order); only tables and the frame here.
    target.write_JFIF_header = FALSE;
    target.write_Adobe_marker = FALSE;
    if (turn->transposes) {
        for (int c = 0; c < target.num_components; c++) {
            jpeg_component_info *component = &target.comp_info[c];
            int h = component->h_samp_factor;
            component->h_samp_factor = component->v_samp_factor;
            component->v_samp_factor = h;
        }
        for (int t = 0; t < NUM_QUANT_TBLS; t++) {
            JQUANT_TBL *table = target.quant_tbl_ptrs[t];
            if (!table) continue;
            for (int a = 0; a < DCTSIZE; a++) {
                for (int b = a + 1; b < DCTSIZE; b++) {
                    UINT16 swap = table->quantval[a * DCTSIZE + b];
                    table->quantval[a * DCTSIZE + b] = table->quantval[b * DCTSIZE + a];
                    table->quantval[b * DCTSIZE + a] = swap;
                }
            }
        }
    }
    free(strip->output);
    strip->output = NULL;
    strip->output_size = 0;
    jpeg_mem_dest(&target, &strip->output, &strip->output_size);
    // The strip's arrays belong to its compressor, so they are freed with it; writing the
    // coefficients realizes them, and the entropy coding reads them only when finishing.
    jvirt_barray_ptr arrays[MAX_COMPONENTS];
    JBLOCKARRAY rows[MAX_COMPONENTS];
    int components = target.num_components;
    for (int c = 0; c < components; c++)
        arrays[c] = (*target.mem->request_virt_barray)((j_common_ptr)&target, JPOOL_IMAGE, FALSE,
                                                      (JDIMENSION)turn->block_columns[c],
                                                      (JDIMENSION)strip->block_rows[c],
                                                      (JDIMENSION)strip->block_rows[c]);
    jpeg_write_coefficients(&target, arrays);
    for (int c = 0; c < components; c++) {
        // One writable access of every row marks them defined for the encoder's reads.
        rows[c] = (*target.mem->access_virt_barray)((j_common_ptr)&target, arrays[c], 0,
                                                    (JDIMENSION)strip->block_rows[c], TRUE);
        size_t bytes = (size_t)strip->block_rows[c] * (size_t)turn->block_columns[c] * sizeof(JBLOCK);
        if (bytes >= large_array_bytes) advise_huge_pages(rows[c][0], bytes);
    }
    turn_blocks(turn, strip, rows);
    jpeg_finish_compress(&target);
    jpeg_destroy_compress(&target);
    *bytes = strip->output;
    *count = strip->output_size;
    return PC_JPEG_TURN_OK;
}

void pc_jpeg_turn_close(pc_jpeg_turn *turn) {
    if (!turn) return;
    if (turn->strips) {
        for (int s = 0; s < turn->strip_count; s++) free(turn->strips[s].output);
        free(turn->strips);
    }
    for (int c = 0; c < MAX_COMPONENTS; c++) free(turn->source_rows[c]);
    finish_populating(turn);
    split_release(&turn->split);
    if (turn->source_created) jpeg_destroy_decompress(&turn->source);
    free(turn);
}
