#include "CImagingKernels.h"
#include "kernels_avx2.h"

// 16-bit fixed point: luma gain 255/219 ≈ 149/128 on (y − 16) saturated at 0; chroma gain
// 255/224 ≈ 146/128 on (c − 128). AVX2, where the processor has it, does 32 samples per step
// (kernels_avx2.c), SSE2 (every x86-64) 16; compilers widen the portable loop to 32-bit lanes,
// which is several times slower.
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

static inline uint8_t clamp_u8(int v) { return (uint8_t)(v < 0 ? 0 : (v > 255 ? 255 : v)); }

#if defined(__SSE2__)
// The expansions on 16-bit lanes holding bytes: luma at most 239 × 149 + 64 = 35675, unsigned
// and shifted logically; chroma ±128 × 146 fits a signed lane. Packing to bytes clamps both.
static inline __m128i expand_luma16(__m128i y) {
    y = _mm_subs_epu16(y, _mm_set1_epi16(16));
    return _mm_srli_epi16(_mm_add_epi16(_mm_mullo_epi16(y, _mm_set1_epi16(149)), _mm_set1_epi16(64)), 7);
}

static inline __m128i expand_chroma16(__m128i c) {
    const __m128i centre = _mm_set1_epi16(128);
    c = _mm_srai_epi16(_mm_add_epi16(_mm_mullo_epi16(_mm_sub_epi16(c, centre), _mm_set1_epi16(146)), _mm_set1_epi16(64)), 7);
    return _mm_add_epi16(c, centre);
}
#define PC_SSE2_LANES(kernel) kernel
typedef __m128i (*sse2_lanes)(__m128i);
#else
#define PC_SSE2_LANES(kernel) NULL
typedef const void *sse2_lanes;
#endif

#if defined(__x86_64__)
#define PC_AVX2_RANGE(kernel) kernel
#else
#define PC_AVX2_RANGE(kernel) NULL
#endif

// One run of samples through one expansion: AVX2's whole steps where `avx2` (pc_kernels_use_avx2(),
// asked once by the caller: a block of short rows asks once), then SSE2's, then one at a time.
// The kernels are constants at each call, so each run is inlined into a loop of its own.
static inline __attribute__((always_inline)) void expand_run(uint8_t *row, size_t count, int avx2,
                                                             size_t (*avx2_range)(uint8_t *, size_t),
                                                             sse2_lanes lanes, uint8_t (*sample)(int)) {
    size_t i = 0;
    if (avx2 && avx2_range) i = avx2_range(row, count);
#if defined(__SSE2__)
    const __m128i zero = _mm_setzero_si128();
    for (; i + 16 <= count; i += 16) {
        __m128i bytes = _mm_loadu_si128((const __m128i *)(row + i));
        __m128i lo = lanes(_mm_unpacklo_epi8(bytes, zero)), hi = lanes(_mm_unpackhi_epi8(bytes, zero));
        _mm_storeu_si128((__m128i *)(row + i), _mm_packus_epi16(lo, hi));
    }
#else
    (void)lanes;
#endif
    for (; i < count; i++) row[i] = sample(row[i]);
}

static inline void expand_luma_run(uint8_t *row, size_t count, int avx2) {
    expand_run(row, count, avx2, PC_AVX2_RANGE(pc_expand_luma_range_avx2), PC_SSE2_LANES(expand_luma16),
               pc_expand_luma_sample);
}

static inline void expand_chroma_run(uint8_t *row, size_t count, int avx2) {
    expand_run(row, count, avx2, PC_AVX2_RANGE(pc_expand_chroma_range_avx2), PC_SSE2_LANES(expand_chroma16),
               pc_expand_chroma_sample);
}

void pc_expand_luma_range(uint8_t *row, size_t count) { expand_luma_run(row, count, pc_kernels_use_avx2()); }

void pc_expand_chroma_range(uint8_t *row, size_t count) { expand_chroma_run(row, count, pc_kernels_use_avx2()); }

// A block of rows at once: one call per plane of a conversion's block instead of one per row
// (a quarter-turned band converts blocks of only 64 by 32 pixels). Rows without padding
// between them are one run. `run` is a constant at each call, so it is inlined.
static inline __attribute__((always_inline)) void expand_rows(uint8_t *first, ptrdiff_t stride, size_t width, size_t rows,
                                                              void (*run)(uint8_t *, size_t, int)) {
    const int avx2 = pc_kernels_use_avx2();
    if ((size_t)stride == width) {
        run(first, width * rows, avx2);
        return;
    }
    for (size_t row = 0; row < rows; row++) run(first + (ptrdiff_t)row * stride, width, avx2);
}

void pc_expand_luma_rows(uint8_t *first, ptrdiff_t stride, size_t width, size_t rows) {
    expand_rows(first, stride, width, rows, expand_luma_run);
}

void pc_expand_chroma_rows(uint8_t *first, ptrdiff_t stride, size_t width, size_t rows) {
    expand_rows(first, stride, width, rows, expand_chroma_run);
}

int pc_packed_to_i420_expanded(const uint8_t *src, ptrdiff_t src_stride, uint8_t *y, ptrdiff_t y_stride, uint8_t *u,
                               uint8_t *v, ptrdiff_t chroma_stride, int width, int height, int uyvy) {
#if defined(__x86_64__)
    if (width % 2 == 0 && width > 0 && height > 0 && pc_kernels_use_avx2()) {
        pc_packed_to_i420_expanded_avx2(src, src_stride, y, y_stride, u, v, chroma_stride, width, height, uyvy);
        return 1;
    }
#else
    (void)src, (void)src_stride, (void)y, (void)y_stride, (void)u, (void)v, (void)chroma_stride, (void)width, (void)height,
        (void)uyvy;
#endif
    return 0;
}

double pc_mean_absolute_difference(const uint8_t *a, const uint8_t *b, size_t count) {
    if (count == 0) return 0;
    uint64_t total = 0;
    for (size_t i = 0; i < count; i++) {
        int d = (int)a[i] - (int)b[i];
        total += (uint64_t)(d < 0 ? -d : d);
    }
    return (double)total / (double)count;
}

void pc_difference_statistics(const uint8_t *a, const uint8_t *b, size_t count,
                              uint64_t *absolute_sum, uint64_t *squared_sum, uint8_t *maximum) {
    uint64_t total = 0, squares = 0;
    int largest = 0;
    for (size_t i = 0; i < count; i++) {
        int d = (int)a[i] - (int)b[i];
        if (d < 0) d = -d;
        total += (uint64_t)d;
        squares += (uint64_t)(d * d);
        if (d > largest) largest = d;
    }
    *absolute_sum = total;
    *squared_sum = squares;
    *maximum = (uint8_t)largest;
}

void pc_difference_image(const uint8_t *a, const uint8_t *b, size_t pixels, uint8_t *out) {
    for (size_t i = 0; i < pixels; i++) {
        const uint8_t *p = a + 3 * i, *q = b + 3 * i;
        int d = 0;
        for (int c = 0; c < 3; c++) {
            int e = (int)p[c] - (int)q[c];
            if (e < 0) e = -e;
            if (e > d) d = e;
        }
        // A faint grey copy of `a` where the pixels agree; red, brighter the larger the difference.
        uint8_t grey = (uint8_t)((p[0] * 77 + p[1] * 150 + p[2] * 29) >> 10);
        if (d == 0) {
            out[3 * i] = out[3 * i + 1] = out[3 * i + 2] = grey;
        } else {
            int red = 64 + d * 4;
            out[3 * i] = (uint8_t)(red > 255 ? 255 : red);
            out[3 * i + 1] = grey / 2;
            out[3 * i + 2] = grey / 2;
        }
    }
}

static inline int bayer_sample(const uint8_t *row, int column, int bytes_per_sample, int shift) {
    if (bytes_per_sample == 1) return row[column];
    const uint8_t *p = row + 2 * column;
    return (p[0] | (p[1] << 8)) >> shift;
}

static inline int reflect(int i, int limit) {
    if (i < 0) return -i;
    if (i >= limit) return 2 * limit - 2 - i;
    return i;
}

void pc_demosaic_row(const uint8_t *frame, size_t stride, int width, int height, int bytes_per_sample,
                     int bits, const uint8_t pattern[4], int row, int x, int count, uint8_t *rgb) {
    const int shift = bytes_per_sample == 1 ? 0 : bits - 8;
    const uint8_t *rows[3] = {
        frame + (size_t)reflect(row - 1, height) * stride,
        frame + (size_t)row * stride,
        frame + (size_t)reflect(row + 1, height) * stride,
    };
    for (int i = 0; i < count; i++) {
        const int c = x + i;
        const int left = reflect(c - 1, width), right = reflect(c + 1, width);
        int window[3][3];
        for (int r = 0; r < 3; r++) {
            window[r][0] = bayer_sample(rows[r], left, bytes_per_sample, shift);
            window[r][1] = bayer_sample(rows[r], c, bytes_per_sample, shift);
            window[r][2] = bayer_sample(rows[r], right, bytes_per_sample, shift);
        }
        const int here = pattern[(row & 1) * 2 + (c & 1)];
        const int beside = pattern[(row & 1) * 2 + ((c + 1) & 1)];  // colour left and right
        const int cross = (window[0][1] + window[2][1] + window[1][0] + window[1][2] + 2) >> 2;
        const int diagonal = (window[0][0] + window[0][2] + window[2][0] + window[2][2] + 2) >> 2;
        const int horizontal = (window[1][0] + window[1][2] + 1) >> 1;
        const int vertical = (window[0][1] + window[2][1] + 1) >> 1;
        int value[3];
        value[here] = window[1][1];
        if (here == 1) {
            // Green site: the colour beside it comes from left/right, the third from above/below.
            value[beside] = horizontal;
            value[2 - beside] = vertical;
        } else {
            value[1] = cross;
            value[2 - here] = diagonal;
        }
        uint8_t *out = rgb + 3 * i;
        out[0] = clamp_u8(value[0]);
        out[1] = clamp_u8(value[1]);
        out[2] = clamp_u8(value[2]);
    }
}

void pc_accumulate_rows(uint16_t *sums, const uint8_t *first_row, ptrdiff_t stride, size_t count, size_t rows, int first) {
    size_t i = 0;
#if defined(__x86_64__)
    if (pc_kernels_use_avx2()) i = pc_accumulate_rows_avx2(sums, first_row, stride, count, rows, first);
#endif
#if defined(__SSE2__)
    // Each 16 columns' sums stay in registers while every row is added: loaded and stored once.
    const __m128i zero = _mm_setzero_si128();
    for (; i + 16 <= count; i += 16) {
        __m128i lo = first ? zero : _mm_loadu_si128((const __m128i *)(sums + i));
        __m128i hi = first ? zero : _mm_loadu_si128((const __m128i *)(sums + i + 8));
        for (size_t row = 0; row < rows; row++) {
            __m128i bytes = _mm_loadu_si128((const __m128i *)(first_row + (ptrdiff_t)row * stride + i));
            lo = _mm_add_epi16(lo, _mm_unpacklo_epi8(bytes, zero));
            hi = _mm_add_epi16(hi, _mm_unpackhi_epi8(bytes, zero));
        }
        _mm_storeu_si128((__m128i *)(sums + i), lo);
        _mm_storeu_si128((__m128i *)(sums + i + 8), hi);
    }
#endif
    for (; i < count; i++) {
        uint16_t sum = first ? 0 : sums[i];
        for (size_t row = 0; row < rows; row++) sum = (uint16_t)(sum + first_row[(ptrdiff_t)row * stride + i]);
        sums[i] = sum;
    }
}

void pc_add_column_sums(uint16_t *sums, const uint16_t *other, size_t count) {
    for (size_t i = 0; i < count; i++) sums[i] = (uint16_t)(sums[i] + other[i]);
}

void pc_box_reduce_row(const uint16_t *sums, const int32_t *column_starts, int out_width, uint32_t rows, uint8_t *out) {
    for (int i = 0; i < out_width; i++) {
        uint32_t total = 0;
        for (int32_t x = column_starts[i]; x < column_starts[i + 1]; x++) total += sums[x];
        uint32_t count = rows * (uint32_t)(column_starts[i + 1] - column_starts[i]);
        out[i] = (uint8_t)((total + count / 2) / count);
    }
}
