#include "CImagingKernels.h"
#include <string.h>

// Quarter turns in 16×16 byte tiles with clang's portable vectors: SSE2 on x86-64, NEON on
// arm64, one source. libyuv 1857's 8-row transpose writes 8 bytes per output row per pass, and
// its cost is the memory traffic of those scattered writes, not the shuffles; here every output
// row of a band of 64 source rows receives 64 contiguous bytes at once, and when those are one
// aligned cache line they are streamed past the cache (no read of a line about to be
// overwritten, no eviction of the rows the caller is still converting).
typedef uint8_t pc_v16 __attribute__((vector_size(16)));

static inline pc_v16 load16(const uint8_t *p) {
    pc_v16 v;
    memcpy(&v, p, sizeof v);
    return v;
}

static inline void store16(uint8_t *p, pc_v16 v) { memcpy(p, &v, sizeof v); }

// One round: row 2k takes the low halves of rows k and k + 8 interleaved, row 2k + 1 the high
// halves. Each round rotates the 8-bit (row, column) index of a byte left by one bit, so four
// rounds swap row and column. Fully unrolled, so the 16 rows live in registers.
#define PC_INTERLEAVE_ROUND(in, out)                                                                        \
    _Pragma("clang loop unroll(full)") for (int k = 0; k < 8; k++) {                                         \
        out[2 * k] = __builtin_shufflevector(in[k], in[k + 8], 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, \
                                             23);                                                            \
        out[2 * k + 1] = __builtin_shufflevector(in[k], in[k + 8], 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, \
                                                 14, 30, 15, 31);                                            \
    }

// The 16×16 tile at `src` turned into `dst`, the top-left of its place in the output.
// Clockwise: source rows bottom-up, then transpose. 270°: transpose, then output rows bottom-up.
// `clockwise` is a constant at every call, so each direction gets its own straight-line code.
static inline __attribute__((always_inline)) void rotate_tile(const uint8_t *src, ptrdiff_t src_stride, uint8_t *dst,
                                                              ptrdiff_t dst_stride, const int clockwise) {
    pc_v16 a[16], b[16];
    _Pragma("clang loop unroll(full)") for (int k = 0; k < 16; k++) a[k] = load16(src + (clockwise ? 15 - k : k) * src_stride);
    PC_INTERLEAVE_ROUND(a, b)
    PC_INTERLEAVE_ROUND(b, a)
    PC_INTERLEAVE_ROUND(a, b)
    PC_INTERLEAVE_ROUND(b, a)
    _Pragma("clang loop unroll(full)") for (int k = 0; k < 16; k++) store16(dst + (clockwise ? k : 15 - k) * dst_stride, a[k]);
}

// Where source pixel (x, y) of a width×height plane lands.
static inline uint8_t *target(uint8_t *dst, ptrdiff_t dst_stride, int width, int height, int x, int y, int clockwise) {
    return clockwise ? dst + (ptrdiff_t)x * dst_stride + (height - 1 - y) : dst + (ptrdiff_t)(width - 1 - x) * dst_stride + y;
}

// Tiles start every 16 pixels; the last one is moved back to end at the edge, overlapping its
// neighbour (rewriting the same bytes is cheaper than a scalar edge). Needs count >= 16.
static inline int tile_start(int index, int count) {
    int start = index * 16;
    return start + 16 > count ? count - 16 : start;
}

// Every tile of a plane of at least 16×16, in bands of 4 tile rows: each output row gets 64
// contiguous bytes per band.
static inline __attribute__((always_inline)) void rotate_tiles(const uint8_t *src, ptrdiff_t src_stride, uint8_t *dst,
                                                               ptrdiff_t dst_stride, int width, int height,
                                                               const int clockwise) {
    const int columns = (width + 15) / 16, tile_rows = (height + 15) / 16;
    for (int band = 0; band < tile_rows; band += 4) {
        const int band_end = band + 4 < tile_rows ? band + 4 : tile_rows;
        for (int column = 0; column < columns; column++) {
            const int x = tile_start(column, width);
            for (int row = band; row < band_end; row++) {
                const int y = tile_start(row, height);
                // The tile's top-left in the output is the turned image of one of its corners.
                uint8_t *corner = clockwise ? target(dst, dst_stride, width, height, x, y + 15, 1)
                                            : target(dst, dst_stride, width, height, x + 15, y, 0);
                rotate_tile(src + (ptrdiff_t)y * src_stride + x, src_stride, corner, dst_stride, clockwise);
            }
        }
    }
}

// Bands of 64 source rows whose 64 output bytes per output row are one aligned cache line:
// four tiles are turned into a 16×64 buffer in L1, then each line is written whole — with
// streaming stores, or, `streaming` 0, with ordinary ones that leave it in cache for a reader
// about to come. Needs width >= 16, height a multiple of 64, `dst` and `dst_stride` 64-byte
// aligned.
static inline __attribute__((always_inline)) void rotate_lines(const uint8_t *src, ptrdiff_t src_stride, uint8_t *dst,
                                                               ptrdiff_t dst_stride, int width, int height,
                                                               const int clockwise, const int streaming) {
    _Alignas(64) uint8_t lines[16 * 64];
    for (int band = 0; band < height; band += 64) {
        for (int column = 0; column < (width + 15) / 16; column++) {
            const int x = tile_start(column, width);
            for (int t = 0; t < 4; t++) {
                // Lower source rows land further left when turning clockwise.
                rotate_tile(src + (ptrdiff_t)(band + 16 * t) * src_stride + x, src_stride,
                            lines + (clockwise ? 48 - 16 * t : 16 * t), 64, clockwise);
            }
            uint8_t *out = clockwise ? dst + (ptrdiff_t)x * dst_stride + (height - 64 - band)
                                     : dst + (ptrdiff_t)(width - 16 - x) * dst_stride + band;
            for (int k = 0; k < 16; k++) {
                const pc_v16 *line = (const pc_v16 *)(lines + 64 * k);
                pc_v16 *target_line = (pc_v16 *)(out + k * dst_stride);
                for (int part = 0; part < 4; part++) {
                    if (streaming) __builtin_nontemporal_store(line[part], target_line + part);
                    else target_line[part] = line[part];
                }
            }
        }
    }
#if defined(__SSE__)
    // Streaming stores are weakly ordered: make them visible before the caller hands the plane on.
    if (streaming) __builtin_ia32_sfence();
#endif
}

void pc_rotate_plane(const uint8_t *src, ptrdiff_t src_stride, uint8_t *dst, ptrdiff_t dst_stride, int width,
                     int height, int quarter_turns, int streaming) {
    const int clockwise = quarter_turns == 1;
    if (quarter_turns != 1 && quarter_turns != 3) return;
    if (width < 16 || height < 16) {
        for (int y = 0; y < height; y++)
            for (int x = 0; x < width; x++)
                *target(dst, dst_stride, width, height, x, y, clockwise) = src[(ptrdiff_t)y * src_stride + x];
        return;
    }
    const int lines = height % 64 == 0 && ((uintptr_t)dst | (uintptr_t)dst_stride) % 64 == 0;
    if (lines && streaming && clockwise) rotate_lines(src, src_stride, dst, dst_stride, width, height, 1, 1);
    else if (lines && streaming) rotate_lines(src, src_stride, dst, dst_stride, width, height, 0, 1);
    else if (lines && clockwise) rotate_lines(src, src_stride, dst, dst_stride, width, height, 1, 0);
    else if (lines) rotate_lines(src, src_stride, dst, dst_stride, width, height, 0, 0);
    else if (clockwise) rotate_tiles(src, src_stride, dst, dst_stride, width, height, 1);
    else rotate_tiles(src, src_stride, dst, dst_stride, width, height, 0);
}

void pc_prefetch_rows(const uint8_t *first, ptrdiff_t stride, int rows, size_t bytes, int for_writing) {
    // Every cache line the rows touch, the first one from its aligned start.
    const uintptr_t start = (uintptr_t)first & ~(uintptr_t)63;
    const size_t span = (uintptr_t)first + bytes - start;
    for (int row = 0; row < rows; row++) {
        const uint8_t *line = (const uint8_t *)start + (ptrdiff_t)row * stride;
        if (for_writing)
            for (size_t offset = 0; offset < span; offset += 64) __builtin_prefetch(line + offset, 1, 3);
        else
            for (size_t offset = 0; offset < span; offset += 64) __builtin_prefetch(line + offset, 0, 3);
    }
}
