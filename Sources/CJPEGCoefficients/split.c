// A baseline scan without restart markers is one serial stream of Huffman codes, the serial part
// of a lossless turn. Its codes resynchronise within a few symbols, so a second thread decodes
// speculatively from the middle and records where each of its MCUs starts; the first thread,
// decoding from the start, stops one MCU row after it reaches an MCU that starts at the same
// bit, because from there both decode the same symbols (only the second's DC predictors are off,
// by a constant per component). Anything unusual leaves the file to libjpeg, untouched.
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "pages.h"
#include "split.h"

enum { lookahead = 10, max_blocks = 10 };

/// A Huffman table ready for decoding: codes up to `lookahead` bits by one lookup, longer ones
/// by libjpeg's canonical search.
struct huffman {
    uint16_t look[1 << lookahead];  // (length << 8) | symbol; 0 for longer codes
    // For AC codes: where a code and its coefficient's bits fit in the lookahead together,
    // (coefficient << 8) | (run << 4) | their length, as stb_image does; 0 elsewhere.
    int32_t coefficient[1 << lookahead];
    int32_t maxcode[17];            // the largest code of each length, -1 for none
    int32_t valoffset[17];
    uint8_t values[256];
};

/// A coefficient from its `size` extra bits, as libjpeg's HUFF_EXTEND.
static inline int extend(int bits, int size) { return bits < (1 << (size - 1)) ? bits - (1 << size) + 1 : bits; }

/// As jpeg_make_d_derived_tbl, and refusing what it refuses.
static int derive(const JHUFF_TBL *table, int dc, struct huffman *out) {
    if (!table) return 0;
    int count = 0;
    for (int l = 1; l <= 16; l++) count += table->bits[l];
    if (count < 1 || count > 256) return 0;
    memcpy(out->values, table->huffval, sizeof out->values);
    if (dc)
        for (int i = 0; i < count; i++)
            if (table->huffval[i] > 15) return 0;
    memset(out->look, 0, sizeof out->look);
    int32_t code = 0;
    int p = 0;
    for (int l = 1; l <= 16; l++) {
        int n = table->bits[l];
        out->valoffset[l] = p - code;
        for (int i = 0; i < n; i++, p++, code++) {
            if (l <= lookahead) {
                int spare = lookahead - l;
                for (int fill = 0; fill < (1 << spare); fill++)
                    out->look[(code << spare) | fill] = (uint16_t)(l << 8 | out->values[p]);
            }
        }
        out->maxcode[l] = n ? code - 1 : -1;
        if (code >= ((int32_t)1 << l)) return 0;
        code <<= 1;
    }
    for (int prefix = 0; prefix < (1 << lookahead); prefix++) {
        unsigned entry = out->look[prefix];
        int length = (int)(entry >> 8), run = (int)(entry >> 4) & 15, size = (int)entry & 15;
        out->coefficient[prefix] = 0;
        if (dc || !entry || !size || length + size > lookahead) continue;
        int coefficient = extend((prefix >> (lookahead - length - size)) & ((1 << size) - 1), size);
        out->coefficient[prefix] = (int32_t)((uint32_t)coefficient << 8) | run << 4 | (length + size);
    }
    return 1;
}

/// The scan's bits, FF 00 unstuffed, zeros past its end. Positions count unstuffed bits from
/// the scan's start, so both threads' positions compare.
struct bits {
    const uint8_t *p, *end;
    uint64_t buffer;  // valid bits at the top
    int count;
    uint64_t loaded;  // bits put into the buffer so far
};

static inline void fill(struct bits *b) {
    if (b->end - b->p >= 8) {
        uint64_t word;
        memcpy(&word, b->p, 8);
        word = __builtin_bswap64(word);
        uint64_t inverted = ~word;  // an FF byte becomes a zero byte
        if (!((inverted - 0x0101010101010101ULL) & ~inverted & 0x8080808080808080ULL)) {
            int take = (64 - b->count) >> 3;
            uint64_t top = take == 8 ? word : word & ~(~0ULL >> (8 * take));
            b->buffer |= top >> b->count;
            b->p += take;
            b->count += 8 * take;
            b->loaded += 8 * (uint64_t)take;
            return;
        }
    }
    while (b->count <= 56) {
        uint64_t byte = 0;
        if (b->p < b->end) {
            byte = *b->p++;
            if (byte == 0xFF) b->p++;  // its stuffed 00
        }
        b->buffer |= byte << (56 - b->count);
        b->count += 8;
        b->loaded += 8;
    }
}

static inline uint64_t position(const struct bits *b) { return b->loaded - (uint64_t)b->count; }

/// The next symbol, or -1 for a code no table has.
static inline int symbol(struct bits *b, const struct huffman *table) {
    unsigned entry = table->look[b->buffer >> (64 - lookahead)];
    if (entry) {
        int length = (int)(entry >> 8);
        b->buffer <<= length;
        b->count -= length;
        return (int)(entry & 0xFF);
    }
    for (int length = lookahead + 1; length <= 16; length++) {
        int32_t code = (int32_t)(b->buffer >> (64 - length));
        if (code <= table->maxcode[length]) {
            b->buffer <<= length;
            b->count -= length;
            return table->values[(unsigned)(code + table->valoffset[length]) & 0xFF];
        }
    }
    return -1;
}

static inline int value(struct bits *b, int size) {
    int bits = (int)(b->buffer >> (64 - size));
    b->buffer <<= size;
    b->count -= size;
    return extend(bits, size);
}

// Zigzag to natural order; past 63 (damaged data) as libjpeg's jpeg_natural_order.
static const int natural[DCTSIZE2 + 16] = {
    0,  1,  8,  16, 9,  2,  3,  10, 17, 24, 32, 25, 18, 11, 4,  5,  12, 19, 26, 33, 40, 48,
    41, 34, 27, 20, 13, 6,  7,  14, 21, 28, 35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23,
    30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63, 63, 63,
    63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63,
};

/// One block, as libjpeg's decode_mcu: 0 for a bad code. The reader's state is kept in locals,
/// which the stores into the block and the DC predictor could otherwise alias.
static inline int decode_block(struct bits *reader, const struct huffman *dc, const struct huffman *ac, int *last_dc,
                               JCOEF *restrict block) {
    struct bits b = *reader;
    if (b.count < 32) fill(&b);
    int s = symbol(&b, dc);
    if (s < 0) return 0;
    int diff = s ? value(&b, s) : 0;
    int predictor = *last_dc + diff;
    *last_dc = predictor;
    block[0] = (JCOEF)predictor;
    for (int k = 1; k < DCTSIZE2; k++) {
        if (b.count < 32) fill(&b);
        int32_t fast = ac->coefficient[b.buffer >> (64 - lookahead)];
        if (fast) {
            k += (fast >> 4) & 15;
            b.buffer <<= fast & 15;
            b.count -= fast & 15;
            block[natural[k]] = (JCOEF)(fast >> 8);
            continue;
        }
        int rs = symbol(&b, ac);
        if (rs < 0) return 0;
        int r = rs >> 4;
        s = rs & 15;
        if (s) {
            k += r;
            block[natural[k]] = (JCOEF)value(&b, s);
        } else {
            if (r != 15) break;
            k += 15;
        }
    }
    *reader = b;
    return 1;
}

/// The scan's MCU: which component each block is of, and where in the MCU it lies.
struct plan {
    int blocks;
    int component[max_blocks], x[max_blocks], y[max_blocks];
    struct huffman *dc[max_blocks], *ac[max_blocks];
    // One each for the scan's table numbers, so components sharing tables share cache lines.
    struct huffman dc_tables[NUM_HUFF_TBLS], ac_tables[NUM_HUFF_TBLS];
    int derived[2][NUM_HUFF_TBLS];
    int mcus_per_row, mcu_rows;
    long mcus;
    uint64_t end_bits;  // the scan's unstuffed length
};

/// The second thread: decodes from `begin` to the scan's end, recording where each MCU began.
struct second {
    const struct plan *plan;
    struct split_decode *split;
    const uint8_t *begin, *end;
    uint64_t begin_bits;
    uint64_t *starts;
    long capacity;
    atomic_long published;  // MCUs decoded whole, whose starts the first thread may read
    atomic_int stop;
    uint64_t final_position;  // where the last published MCU ended
    long chain;               // the first MCU since the last start again: the chain to the end
    pthread_t thread;
};

static inline JCOEF *second_block(const struct split_decode *split, const struct plan *plan, int i, long m) {
    int c = plan->component[i];
    return split->second[c][plan->y[i]][m * split->h[c] + plan->x[i]];
}

static void *decode_second(void *argument) {
    struct second *work = argument;
    const struct plan *plan = work->plan;
    struct bits b = {.p = work->begin, .end = work->end, .loaded = work->begin_bits};
    int last_dc[MAX_COMPONENTS] = {0};
    long m = 0;
    int restarts = 0;
    while (m < work->capacity && !atomic_load_explicit(&work->stop, memory_order_relaxed)) {
        uint64_t start = position(&b);
        if (start >= plan->end_bits) break;
        int ok = 1;
        for (int i = 0; i < plan->blocks && ok; i++)
            ok = decode_block(&b, plan->dc[i], plan->ac[i], &last_dc[plan->component[i]], second_block(work->split, plan, i, m));
        if (ok && position(&b) > plan->end_bits) break;  // runs past the data: the end, or not in step
        // A bad code whose bits reach past the data is the final byte's padding: the end.
        if (!ok && position(&b) + 32 > plan->end_bits) break;
        if (!ok) {
            // Not in step with the codes yet: start again further on, on a clean MCU.
            for (int i = 0; i < plan->blocks; i++) memset(second_block(work->split, plan, i, m), 0, sizeof(JBLOCK));
            if (++restarts > 1000) break;
            work->chain = m;
            b.buffer = 0;
            b.count = 0;
            continue;
        }
        work->starts[m] = start;
        work->final_position = position(&b);
        atomic_store_explicit(&work->published, m + 1, memory_order_release);
        m++;
    }
    return NULL;
}

/// Unmaps the second thread's streams.
static void release_second(struct split_decode *split) {
    for (int c = 0; c < MAX_COMPONENTS; c++)
        for (int y = 0; y < SPLIT_MAX_SAMPLING; y++)
            if (split->second[c][y]) munmap(split->second[c][y], split->second_bytes);
    memset(split->second, 0, sizeof split->second);
}

static void *map(size_t bytes) {
    void *start = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (start == MAP_FAILED) return NULL;
    if (bytes >= large_array_bytes) advise_huge_pages(start, bytes);
    return start;
}

/// The plan of the scan `source` is at, or 0 when this decoder does not take it.
static int make_plan(j_decompress_ptr source, struct plan *plan, struct split_decode *split) {
    if (source->progressive_mode || source->arith_code || source->data_precision != 8) return 0;
    if (source->restart_interval != 0 || source->comps_in_scan != source->num_components) return 0;
    int components = source->num_components;
    if (components < 1 || components > MAX_COMPONENTS) return 0;
    split->components = components;
    plan->blocks = 0;
    int single = source->comps_in_scan == 1;
    for (int i = 0; i < source->comps_in_scan; i++) {
        jpeg_component_info *info = source->cur_comp_info[i];
        int c = info->component_index;
        if (c < 0 || c >= components) return 0;
        int h = single ? 1 : info->h_samp_factor, v = single ? 1 : info->v_samp_factor;
        if (h < 1 || v < 1 || h > SPLIT_MAX_SAMPLING || v > SPLIT_MAX_SAMPLING) return 0;
        split->h[c] = h;
        split->v[c] = v;
        split->columns[c] = ((int)info->width_in_blocks + h - 1) / h * h;
        if (info->dc_tbl_no < 0 || info->dc_tbl_no >= NUM_HUFF_TBLS || info->ac_tbl_no < 0 || info->ac_tbl_no >= NUM_HUFF_TBLS)
            return 0;
        struct huffman *dc = &plan->dc_tables[info->dc_tbl_no], *ac = &plan->ac_tables[info->ac_tbl_no];
        if (!plan->derived[0][info->dc_tbl_no] && !derive(source->dc_huff_tbl_ptrs[info->dc_tbl_no], 1, dc)) return 0;
        if (!plan->derived[1][info->ac_tbl_no] && !derive(source->ac_huff_tbl_ptrs[info->ac_tbl_no], 0, ac)) return 0;
        plan->derived[0][info->dc_tbl_no] = plan->derived[1][info->ac_tbl_no] = 1;
        for (int y = 0; y < v; y++) {
            for (int x = 0; x < h; x++) {
                if (plan->blocks == max_blocks) return 0;
                plan->component[plan->blocks] = c;
                plan->x[plan->blocks] = x;
                plan->y[plan->blocks] = y;
                plan->dc[plan->blocks] = dc;
                plan->ac[plan->blocks] = ac;
                plan->blocks++;
            }
        }
    }
    if (single) {
        plan->mcus_per_row = (int)source->cur_comp_info[0]->width_in_blocks;
        plan->mcu_rows = (int)source->cur_comp_info[0]->height_in_blocks;
    } else {
        int mcu_width = source->max_h_samp_factor * DCTSIZE, mcu_height = source->max_v_samp_factor * DCTSIZE;
        plan->mcus_per_row = (int)((source->image_width + mcu_width - 1) / mcu_width);
        plan->mcu_rows = (int)((source->image_height + mcu_height - 1) / mcu_height);
    }
    if (plan->mcus_per_row < 1 || plan->mcu_rows < 2) return 0;
    plan->mcus = (long)plan->mcus_per_row * plan->mcu_rows;
    split->mcus_per_row = plan->mcus_per_row;
    return 1;
}

/// The end of the scan's data in [begin, limit): the first marker, which must be EOI (after
/// fill bytes). Counts the stuffed FF 00 pairs before it.
static const uint8_t *scan_end(const uint8_t *begin, const uint8_t *limit, long *stuffed) {
    const uint8_t *q = begin;
    *stuffed = 0;
    for (;;) {
        q = memchr(q, 0xFF, (size_t)(limit - q));
        if (!q || limit - q < 2) return NULL;
        if (q[1] == 0x00) {
            (*stuffed)++;
            q += 2;
            continue;
        }
        const uint8_t *marker = q;
        while (marker < limit && *marker == 0xFF) marker++;
        return marker < limit && *marker == (JPEG_EOI & 0xFF) ? q : NULL;
    }
}

static long count_ff(const uint8_t *begin, const uint8_t *end) {
    long count = 0;
    for (const uint8_t *q = begin; q < end && (q = memchr(q, 0xFF, (size_t)(end - q))) != NULL; q += 2) count++;
    return count;
}

// Below this much entropy-coded data a second thread costs more than it saves.
static const size_t split_minimum_bytes = 128 << 10;

void split_decode(j_decompress_ptr source, const uint8_t *jpeg, size_t count, struct split_decode *split) {
    memset(split, 0, sizeof *split);
    struct plan *plan = calloc(1, sizeof *plan);
    if (!plan) return;
    struct second work = {.plan = plan, .split = split};
    int started = 0;
    if (!make_plan(source, plan, split) || !source->src || source->src->bytes_in_buffer == 0) goto done;
    const uint8_t *begin = source->src->next_input_byte;
    if (begin < jpeg || begin > jpeg + count) goto done;
    long stuffed;
    const uint8_t *end = scan_end(begin, jpeg + count, &stuffed);
    if (!end || (size_t)(end - begin) < split_minimum_bytes) goto done;
    plan->end_bits = 8 * (uint64_t)((end - begin) - stuffed);

    int components = split->components;
    work.capacity = plan->mcus + 1024;
    for (int c = 0; c < components; c++) {
        split->first_bytes[c] = (size_t)plan->mcu_rows * (size_t)split->v[c] * (size_t)split->columns[c] * sizeof(JBLOCK);
        split->first[c] = map(split->first_bytes[c]);
        if (!split->first[c]) goto done;
    }
    split->second_bytes = 0;
    for (int c = 0; c < components; c++) {
        size_t bytes = (size_t)work.capacity * (size_t)split->h[c] * sizeof(JBLOCK);
        if (bytes > split->second_bytes) split->second_bytes = bytes;
    }
    for (int c = 0; c < components; c++)
        for (int y = 0; y < split->v[c]; y++)
            if (!(split->second[c][y] = map(split->second_bytes))) goto done;
    work.starts = malloc(sizeof(uint64_t) * (size_t)work.capacity);
    if (!work.starts) goto done;

    // The second thread starts in the middle, never between an FF and its stuffed 00.
    const uint8_t *middle = begin + (end - begin) / 2;
    if (middle[-1] == 0xFF) middle++;
    work.begin = middle;
    work.end = end;
    work.begin_bits = 8 * (uint64_t)((middle - begin) - count_ff(begin, middle));
    atomic_init(&work.published, 0);
    atomic_init(&work.stop, 0);
    if (pthread_create(&work.thread, NULL, decode_second, &work) != 0) goto done;
    started = 1;

    // The first thread, from the start.
    struct bits b = {.p = begin, .end = end};
    int last_dc[MAX_COMPONENTS] = {0};
    long stop_at = plan->mcus, seen = 0, meet = -1, meet_second = -1;
    for (long g = 0;; g++) {
        if (g == stop_at) {
            if (meet < 0) break;
            // The second thread's part must run exactly to the scan's end: else this one goes on.
            pthread_join(work.thread, NULL);
            started = 0;
            long published = atomic_load_explicit(&work.published, memory_order_acquire);
            long last = plan->mcus - 1 - meet + meet_second;
            uint64_t last_end = last + 1 < published ? work.starts[last + 1] : work.final_position;
            // A start again after the meeting would be damage, which libjpeg must see and report.
            if (work.chain <= meet_second && last < published && last_end <= plan->end_bits &&
                plan->end_bits - last_end < 8) {
                split->synced = 1;
                split->shift = meet_second - meet;
                long row = stop_at / plan->mcus_per_row;
                for (int c = 0; c < components; c++) {
                    split->seam_row[c] = (int)row * split->v[c];
                    long m = stop_at - 1 + split->shift;
                    JCOEF predictor = split->second[c][split->v[c] - 1][m * split->h[c] + split->h[c] - 1][0];
                    split->dc_offset[c] = last_dc[c] - predictor;
                }
                split->used = 1;
                goto done;
            }
            meet = -1;
            stop_at = plan->mcus;
        }
        uint64_t start = position(&b);
        if (started && meet < 0 && start >= work.begin_bits) {
            long published = atomic_load_explicit(&work.published, memory_order_acquire);
            while (seen < published && work.starts[seen] < start) seen++;
            if (seen < published && work.starts[seen] == start) {
                long boundary = (g / plan->mcus_per_row + 1) * plan->mcus_per_row;
                if (boundary < plan->mcus) {
                    meet = g;
                    meet_second = seen;
                    stop_at = boundary;
                }
            }
        }
        long row = g / plan->mcus_per_row, column = g % plan->mcus_per_row;
        for (int i = 0; i < plan->blocks; i++) {
            int c = plan->component[i];
            long block_row = row * split->v[c] + plan->y[i], block_column = column * split->h[c] + plan->x[i];
            JCOEF *block = split->first[c][block_row * split->columns[c] + block_column];
            if (!decode_block(&b, plan->dc[i], plan->ac[i], &last_dc[c], block)) goto done;
        }
        if (position(&b) > plan->end_bits) goto done;
    }
    // Decoded whole on this thread: the data must end here too.
    uint64_t final = position(&b);
    if (final <= plan->end_bits && plan->end_bits - final < 8) split->used = 1;

done:
    if (started) {
        atomic_store_explicit(&work.stop, 1, memory_order_relaxed);
        pthread_join(work.thread, NULL);
    }
    free(work.starts);
    free(plan);
    if (!split->used) split_release(split);
    else if (!split->synced) release_second(split);  // decoded whole here: the speculation is not needed
}

JBLOCKROW split_row(const struct split_decode *split, int c, int row) {
    if (!split->synced || row < split->seam_row[c]) return split->first[c] + (size_t)row * (size_t)split->columns[c];
    long m = (long)(row / split->v[c]) * split->mcus_per_row + split->shift;
    return split->second[c][row % split->v[c]] + m * split->h[c];
}

void split_release(struct split_decode *split) {
    release_second(split);
    for (int c = 0; c < MAX_COMPONENTS; c++)
        if (split->first[c]) munmap(split->first[c], split->first_bytes[c]);
    memset(split, 0, sizeof *split);
}
