#pragma once
#include <stddef.h>
#include <stdint.h>

/// Expands limited-range (16...235) luma to full range (0...255) in place.
void pc_expand_luma_range(uint8_t *row, size_t count);

/// Expands limited-range (16...240) chroma to full range (0...255) in place.
void pc_expand_chroma_range(uint8_t *row, size_t count);

/// Mean absolute difference between two byte buffers (0 when count is 0).
double pc_mean_absolute_difference(const uint8_t *a, const uint8_t *b, size_t count);

/// Bilinear demosaic of one row of a Bayer frame into packed R, G, B bytes.
///
/// `pattern` is the 2×2 tile read row by row, as colour indices (0 red, 1 green, 2 blue), e.g.
/// {0, 1, 1, 2} for RGGB. Samples are 8-bit (`bytes_per_sample` 1) or little-endian 16-bit
/// words (2) whose low `bits` carry the value (V4L2 layout), scaled to 8 bits. Columns `x ..< x + count` of
/// row `row` are produced; neighbours outside the frame are mirrored so the tile phase holds.
void pc_demosaic_row(const uint8_t *frame, size_t stride, int width, int height, int bytes_per_sample,
                     int bits, const uint8_t pattern[4], int row, int x, int count, uint8_t *rgb);
