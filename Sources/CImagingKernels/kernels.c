#include "CImagingKernels.h"

// Fixed-point factors (Q14) for 255/219 and 255/224; written as plain loops so the compiler
// vectorises them.
enum { LUMA_GAIN = 19078, CHROMA_GAIN = 18651 };

static inline uint8_t clamp_u8(int32_t v) { return (uint8_t)(v < 0 ? 0 : (v > 255 ? 255 : v)); }

void pc_expand_luma_range(uint8_t *row, size_t count) {
    for (size_t i = 0; i < count; i++) {
        int32_t v = (((int32_t)row[i] - 16) * LUMA_GAIN + 8192) >> 14;
        row[i] = clamp_u8(v);
    }
}

void pc_expand_chroma_range(uint8_t *row, size_t count) {
    for (size_t i = 0; i < count; i++) {
        int32_t v = ((((int32_t)row[i] - 128) * CHROMA_GAIN + 8192) >> 14) + 128;
        row[i] = clamp_u8(v);
    }
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
