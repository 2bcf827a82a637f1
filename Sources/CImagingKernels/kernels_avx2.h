#pragma once
#include <stddef.h>
#include <stdint.h>

// The range expansion of one sample (kernels.c's formula; the vector forms are the same
// arithmetic lane for lane): luma 149/128 of (y − 16) saturated at 0, chroma 146/128 of
// (c − 128) about 128, both clamped to a byte.
static inline uint8_t pc_expand_luma_sample(int y) {
    int v = ((y > 16 ? y - 16 : 0) * 149 + 64) >> 7;
    return (uint8_t)(v > 255 ? 255 : v);
}

static inline uint8_t pc_expand_chroma_sample(int c) {
    int v = (((c - 128) * 146 + 64) >> 7) + 128;
    return (uint8_t)(v < 0 ? 0 : (v > 255 ? 255 : v));
}

// The AVX2 forms of kernels.c's row kernels (x86-64 only): each does whole steps from the
// start of the row and returns how many samples it did; the caller does the rest.
size_t pc_expand_luma_range_avx2(uint8_t *row, size_t count);
size_t pc_expand_chroma_range_avx2(uint8_t *row, size_t count);
size_t pc_accumulate_rows_avx2(uint16_t *sums, const uint8_t *first_row, ptrdiff_t stride, size_t count,
                               size_t rows, int first);
void pc_packed_to_i420_expanded_avx2(const uint8_t *src, ptrdiff_t src_stride, uint8_t *y, ptrdiff_t y_stride,
                                     uint8_t *u, uint8_t *v, ptrdiff_t chroma_stride, int width, int height, int uyvy);
