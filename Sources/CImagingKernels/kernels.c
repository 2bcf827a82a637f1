#include "CImagingKernels.h"

// 16-bit fixed point: luma gain 255/219 ≈ 149/128 on (y − 16) saturated at 0; chroma gain
// 255/224 ≈ 146/128 on (c − 128). SSE2 (every x86-64) does 16 samples per step; compilers widen
// the portable loop to 32-bit lanes, which is several times slower.
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

static inline uint8_t clamp_u8(int v) { return (uint8_t)(v < 0 ? 0 : (v > 255 ? 255 : v)); }

static inline uint8_t expand_luma(uint8_t y) {
    int v = ((y > 16 ? y - 16 : 0) * 149 + 64) >> 7;
    return (uint8_t)(v > 255 ? 255 : v);
}

static inline uint8_t expand_chroma(uint8_t c) {
    return clamp_u8(((((int)c - 128) * 146 + 64) >> 7) + 128);
}

void pc_expand_luma_range(uint8_t *row, size_t count) {
    size_t i = 0;
#if defined(__SSE2__)
    const __m128i zero = _mm_setzero_si128(), offset = _mm_set1_epi16(16);
    const __m128i gain = _mm_set1_epi16(149), round = _mm_set1_epi16(64);
    for (; i + 16 <= count; i += 16) {
        __m128i bytes = _mm_loadu_si128((const __m128i *)(row + i));
        __m128i lo = _mm_subs_epu16(_mm_unpacklo_epi8(bytes, zero), offset);
        __m128i hi = _mm_subs_epu16(_mm_unpackhi_epi8(bytes, zero), offset);
        // At most 239 × 149 + 64 = 35675: unsigned 16-bit, shifted logically.
        lo = _mm_srli_epi16(_mm_add_epi16(_mm_mullo_epi16(lo, gain), round), 7);
        hi = _mm_srli_epi16(_mm_add_epi16(_mm_mullo_epi16(hi, gain), round), 7);
        _mm_storeu_si128((__m128i *)(row + i), _mm_packus_epi16(lo, hi));
    }
#endif
    for (; i < count; i++) row[i] = expand_luma(row[i]);
}

void pc_expand_chroma_range(uint8_t *row, size_t count) {
    size_t i = 0;
#if defined(__SSE2__)
    const __m128i zero = _mm_setzero_si128(), centre = _mm_set1_epi16(128);
    const __m128i gain = _mm_set1_epi16(146), round = _mm_set1_epi16(64);
    for (; i + 16 <= count; i += 16) {
        __m128i bytes = _mm_loadu_si128((const __m128i *)(row + i));
        __m128i lo = _mm_sub_epi16(_mm_unpacklo_epi8(bytes, zero), centre);
        __m128i hi = _mm_sub_epi16(_mm_unpackhi_epi8(bytes, zero), centre);
        // ±128 × 146 fits a signed 16-bit lane; packus clamps to 0...255.
        lo = _mm_add_epi16(_mm_srai_epi16(_mm_add_epi16(_mm_mullo_epi16(lo, gain), round), 7), centre);
        hi = _mm_add_epi16(_mm_srai_epi16(_mm_add_epi16(_mm_mullo_epi16(hi, gain), round), 7), centre);
        _mm_storeu_si128((__m128i *)(row + i), _mm_packus_epi16(lo, hi));
    }
#endif
    for (; i < count; i++) row[i] = expand_chroma(row[i]);
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
