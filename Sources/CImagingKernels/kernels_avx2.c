#include "CImagingKernels.h"
#include "kernels_avx2.h"

// The AVX2 forms of three per-row kernels in kernels.c, 32 samples per step: the same fixed
// point arithmetic lane for lane, so the same bytes. Compiled for AVX2 here only and called
// where the processor has it (the rest of the target stays baseline x86-64).
#if defined(__x86_64__)
#include <immintrin.h>

#define PC_AVX2 __attribute__((target("avx2")))

PC_AVX2 size_t pc_expand_luma_range_avx2(uint8_t *row, size_t count) {
    const __m256i zero = _mm256_setzero_si256(), offset = _mm256_set1_epi16(16);
    const __m256i gain = _mm256_set1_epi16(149), round = _mm256_set1_epi16(64);
    size_t i = 0;
    for (; i + 32 <= count; i += 32) {
        __m256i bytes = _mm256_loadu_si256((const __m256i *)(row + i));
        // Unpacking and packing both work within each 128-bit lane, so the order comes back.
        __m256i lo = _mm256_subs_epu16(_mm256_unpacklo_epi8(bytes, zero), offset);
        __m256i hi = _mm256_subs_epu16(_mm256_unpackhi_epi8(bytes, zero), offset);
        lo = _mm256_srli_epi16(_mm256_add_epi16(_mm256_mullo_epi16(lo, gain), round), 7);
        hi = _mm256_srli_epi16(_mm256_add_epi16(_mm256_mullo_epi16(hi, gain), round), 7);
        _mm256_storeu_si256((__m256i *)(row + i), _mm256_packus_epi16(lo, hi));
    }
    return i;
}

PC_AVX2 size_t pc_expand_chroma_range_avx2(uint8_t *row, size_t count) {
    const __m256i zero = _mm256_setzero_si256(), centre = _mm256_set1_epi16(128);
    const __m256i gain = _mm256_set1_epi16(146), round = _mm256_set1_epi16(64);
    size_t i = 0;
    for (; i + 32 <= count; i += 32) {
        __m256i bytes = _mm256_loadu_si256((const __m256i *)(row + i));
        __m256i lo = _mm256_sub_epi16(_mm256_unpacklo_epi8(bytes, zero), centre);
        __m256i hi = _mm256_sub_epi16(_mm256_unpackhi_epi8(bytes, zero), centre);
        lo = _mm256_add_epi16(_mm256_srai_epi16(_mm256_add_epi16(_mm256_mullo_epi16(lo, gain), round), 7), centre);
        hi = _mm256_add_epi16(_mm256_srai_epi16(_mm256_add_epi16(_mm256_mullo_epi16(hi, gain), round), 7), centre);
        _mm256_storeu_si256((__m256i *)(row + i), _mm256_packus_epi16(lo, hi));
    }
    return i;
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
