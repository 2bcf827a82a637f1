#include "CImagingKernels.h"
#include "kernels_avx2.h"

// The AVX2 forms of three per-row kernels in kernels.c, 32 samples per step: the same fixed
// point arithmetic lane for lane, so the same bytes. Compiled for AVX2 here only and called
// where the processor has it (the rest of the target stays baseline x86-64).
#if defined(__x86_64__)
#include <immintrin.h>

#define PC_AVX2 __attribute__((target("avx2")))

// The expansions on 16-bit lanes holding bytes: luma at most 239 × 149 + 64 = 35675, unsigned
// and shifted logically; chroma ±128 × 146 fits a signed lane. Packing to bytes clamps both.
static inline PC_AVX2 __m256i expand_luma16(__m256i y) {
    y = _mm256_subs_epu16(y, _mm256_set1_epi16(16));
    return _mm256_srli_epi16(_mm256_add_epi16(_mm256_mullo_epi16(y, _mm256_set1_epi16(149)), _mm256_set1_epi16(64)), 7);
}

static inline PC_AVX2 __m256i expand_chroma16(__m256i c) {
    const __m256i centre = _mm256_set1_epi16(128);
    c = _mm256_sub_epi16(c, centre);
    c = _mm256_srai_epi16(_mm256_add_epi16(_mm256_mullo_epi16(c, _mm256_set1_epi16(146)), _mm256_set1_epi16(64)), 7);
    return _mm256_add_epi16(c, centre);
}

// Whole steps of 32 samples through one expansion; `lanes` is a constant at each call.
static inline PC_AVX2 __attribute__((always_inline)) size_t expand_range(uint8_t *row, size_t count,
                                                                         __m256i (*lanes)(__m256i)) {
    const __m256i zero = _mm256_setzero_si256();
    size_t i = 0;
    for (; i + 32 <= count; i += 32) {
        __m256i bytes = _mm256_loadu_si256((const __m256i *)(row + i));
        // Unpacking and packing both work within each 128-bit lane, so the order comes back.
        __m256i lo = lanes(_mm256_unpacklo_epi8(bytes, zero)), hi = lanes(_mm256_unpackhi_epi8(bytes, zero));
        _mm256_storeu_si256((__m256i *)(row + i), _mm256_packus_epi16(lo, hi));
    }
    return i;
}

PC_AVX2 size_t pc_expand_luma_range_avx2(uint8_t *row, size_t count) { return expand_range(row, count, expand_luma16); }

PC_AVX2 size_t pc_expand_chroma_range_avx2(uint8_t *row, size_t count) {
    return expand_range(row, count, expand_chroma16);
}

PC_AVX2 size_t pc_accumulate_rows_avx2(uint16_t *sums, const uint8_t *first_row, ptrdiff_t stride, size_t count,
                                       size_t rows, int first) {
    size_t i = 0;
    for (; i + 32 <= count; i += 32) {
        __m256i lo = first ? _mm256_setzero_si256() : _mm256_loadu_si256((const __m256i *)(sums + i));
        __m256i hi = first ? _mm256_setzero_si256() : _mm256_loadu_si256((const __m256i *)(sums + i + 16));
        for (size_t row = 0; row < rows; row++) {
            // Widened in order (not unpacked per lane), as the sums are stored in order.
            const uint8_t *samples = first_row + (ptrdiff_t)row * stride + i;
            lo = _mm256_add_epi16(lo, _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)samples)));
            hi = _mm256_add_epi16(hi, _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(samples + 16))));
        }
        _mm256_storeu_si256((__m256i *)(sums + i), lo);
        _mm256_storeu_si256((__m256i *)(sums + i + 16), hi);
    }
    return i;
}

// YUYV or UYVY rows to I420 planes and from limited to full range in one pass: libyuv's
// YUY2ToI420 or UYVYToI420 (chroma the rounded-up mean of each pair of rows, `pavgb`; a last
// odd row paired with itself) followed by kernels.c's expansions, lane for lane the same
// arithmetic. 32 pixels a step, in 16-bit lanes from the start: each 16-bit word holds a luma
// and a chroma sample, luma in the low byte for YUYV, the high byte for UYVY.
// Two vectors of 16-bit lanes packed to bytes (saturated) in order: packus works per 128-bit lane.
static inline PC_AVX2 __m256i pack_in_order(__m256i a, __m256i b) {
    return _mm256_permute4x64_epi64(_mm256_packus_epi16(a, b), 0xD8);
}

// The byte of each 16-bit word holding luma (`high` 0: the low byte) or chroma, as 16-bit lanes.
static inline PC_AVX2 __m256i byte_of_words(__m256i words, const int high) {
    return high ? _mm256_srli_epi16(words, 8) : _mm256_and_si256(words, _mm256_set1_epi16(0x00FF));
}

static inline PC_AVX2 __attribute__((always_inline)) void packed_to_i420_expanded(
    const uint8_t *src, ptrdiff_t src_stride, uint8_t *y, ptrdiff_t y_stride, uint8_t *u, uint8_t *v,
    ptrdiff_t chroma_stride, int width, int height, const int uyvy) {
    // Byte offsets in a 4-byte pixel pair: luma, luma, Cb, Cr.
    const int y0 = uyvy ? 1 : 0, y1 = uyvy ? 3 : 2, cb0 = uyvy ? 0 : 1, cr0 = uyvy ? 2 : 3;
    for (int row = 0; row < height; row += 2) {
        const uint8_t *first = src + (ptrdiff_t)row * src_stride;
        // A last odd row is its own pair, as libyuv does it (stride 0).
        const uint8_t *second = row + 1 < height ? first + src_stride : first;
        uint8_t *luma0 = y + (ptrdiff_t)row * y_stride, *luma1 = row + 1 < height ? luma0 + y_stride : NULL;
        uint8_t *cb = u + (ptrdiff_t)(row / 2) * chroma_stride, *cr = v + (ptrdiff_t)(row / 2) * chroma_stride;
        int x = 0;
        for (; x + 32 <= width; x += 32) {
            const __m256i a0 = _mm256_loadu_si256((const __m256i *)(first + 2 * x));
            const __m256i b0 = _mm256_loadu_si256((const __m256i *)(first + 2 * x + 32));
            const __m256i a1 = _mm256_loadu_si256((const __m256i *)(second + 2 * x));
            const __m256i b1 = _mm256_loadu_si256((const __m256i *)(second + 2 * x + 32));
            _mm256_storeu_si256((__m256i *)(luma0 + x), pack_in_order(expand_luma16(byte_of_words(a0, uyvy)),
                                                                     expand_luma16(byte_of_words(b0, uyvy))));
            if (luma1)
                _mm256_storeu_si256((__m256i *)(luma1 + x), pack_in_order(expand_luma16(byte_of_words(a1, uyvy)),
                                                                         expand_luma16(byte_of_words(b1, uyvy))));
            // Cb, Cr alternate in the other bytes: averaged and expanded as 16-bit lanes, then
            // packed (Cb0 Cr0 Cb1 Cr1 …) and split.
            const __m256i ca = expand_chroma16(_mm256_avg_epu16(byte_of_words(a0, !uyvy), byte_of_words(a1, !uyvy)));
            const __m256i cbv = expand_chroma16(_mm256_avg_epu16(byte_of_words(b0, !uyvy), byte_of_words(b1, !uyvy)));
            const __m256i pairs = pack_in_order(ca, cbv);
            const __m256i split = pack_in_order(byte_of_words(pairs, 0), byte_of_words(pairs, 1));
            _mm_storeu_si128((__m128i *)(cb + x / 2), _mm256_castsi256_si128(split));
            _mm_storeu_si128((__m128i *)(cr + x / 2), _mm256_extracti128_si256(split, 1));
        }
        for (; x + 2 <= width; x += 2) {
            const uint8_t *p = first + 2 * x, *q = second + 2 * x;
            luma0[x] = pc_expand_luma_sample(p[y0]);
            luma0[x + 1] = pc_expand_luma_sample(p[y1]);
            if (luma1) {
                luma1[x] = pc_expand_luma_sample(q[y0]);
                luma1[x + 1] = pc_expand_luma_sample(q[y1]);
            }
            cb[x / 2] = pc_expand_chroma_sample((p[cb0] + q[cb0] + 1) >> 1);
            cr[x / 2] = pc_expand_chroma_sample((p[cr0] + q[cr0] + 1) >> 1);
        }
    }
}

PC_AVX2 void pc_packed_to_i420_expanded_avx2(const uint8_t *src, ptrdiff_t src_stride, uint8_t *y, ptrdiff_t y_stride,
                                             uint8_t *u, uint8_t *v, ptrdiff_t chroma_stride, int width, int height,
                                             int uyvy) {
    if (uyvy) packed_to_i420_expanded(src, src_stride, y, y_stride, u, v, chroma_stride, width, height, 1);
    else packed_to_i420_expanded(src, src_stride, y, y_stride, u, v, chroma_stride, width, height, 0);
}

static int chosen_form;  // a pc_kernel_form

int pc_kernels_set_form(pc_kernel_form form) {
    if (form == PC_KERNELS_AVX2 && !__builtin_cpu_supports("avx2")) return 0;
    __atomic_store_n(&chosen_form, (int)form, __ATOMIC_RELAXED);
    return 1;
}

int pc_kernels_use_avx2(void) {
    switch ((pc_kernel_form)__atomic_load_n(&chosen_form, __ATOMIC_RELAXED)) {
    case PC_KERNELS_BASELINE: return 0;
    case PC_KERNELS_AVX2: return 1;
    default:
#if defined(__OPTIMIZE__)
        return __builtin_cpu_supports("avx2");
#else
        // Unoptimised, every 256-bit value goes through the stack: the AVX2 form is then about
        // five times slower than the SSE2 one (a debug build's live session dropped frames).
        return 0;
#endif
    }
}
#else
int pc_kernels_set_form(pc_kernel_form form) { return form != PC_KERNELS_AVX2; }
int pc_kernels_use_avx2(void) { return 0; }
#endif
