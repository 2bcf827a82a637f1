// Fusing hand-held frames of one scene (FrameMerger): a luma pyramid, the sum of absolute
// differences at one translation, a noise histogram, and the tile-weighted merge of a band.
// Plain loops over contiguous rows, which the optimiser vectorises.
#include <stdlib.h>

#include "CImagingKernels.h"

void pc_downsample_half(const uint8_t *src, ptrdiff_t src_stride, int width, int height, uint8_t *dst,
                        ptrdiff_t dst_stride) {
    const int out_width = width / 2, out_height = height / 2;
    for (int y = 0; y < out_height; y++) {
        const uint8_t *a = src + 2 * y * src_stride, *b = a + src_stride;
        uint8_t *out = dst + y * dst_stride;
        for (int x = 0; x < out_width; x++) {
            out[x] = (uint8_t)((a[2 * x] + a[2 * x + 1] + b[2 * x] + b[2 * x + 1] + 2) >> 2);
        }
    }
}

uint64_t pc_sum_absolute_differences(const uint8_t *reference, ptrdiff_t reference_stride, const uint8_t *other,
                                     ptrdiff_t other_stride, int x0, int y0, int x1, int y1, int dx, int dy,
                                     int row_step) {
    uint64_t total = 0;
    for (int y = y0; y < y1; y += row_step) {
        const uint8_t *a = reference + y * reference_stride, *b = other + (y + dy) * other_stride + dx;
        uint32_t row = 0;
        for (int x = x0; x < x1; x++) row += (uint32_t)abs(a[x] - b[x]);
        total += row;
    }
    return total;
}

void pc_highpass_histogram(const uint8_t *plane, ptrdiff_t stride, int width, int height, int step,
                           uint32_t histogram[1024]) {
    for (int y = 1; y + 1 < height; y += step) {
        const uint8_t *up = plane + (y - 1) * stride, *row = up + stride, *down = row + stride;
        for (int x = 1; x + 1 < width; x += step) {
            // Immerkær's mask: flat and linear ramps give 0, noise of σ gives 6σ.
            const int response = 4 * row[x] - 2 * (row[x - 1] + row[x + 1] + up[x] + down[x]) + up[x - 1] +
                                 up[x + 1] + down[x - 1] + down[x + 1];
            const int magnitude = abs(response);
            histogram[magnitude > 1023 ? 1023 : magnitude]++;
        }
    }
}

/// The weight (0...256) of `other` in the tile of rows y0..<y1, columns x0..<x1 of luma, or 0
/// when the translated tile leaves the picture.
static uint16_t tile_weight(const uint8_t *reference, ptrdiff_t reference_stride, const uint8_t *other,
                            ptrdiff_t other_stride, int width, int height, int x0, int y0, int x1, int y1, int dx,
                            int dy, float noise_variance, float rejection) {
    if (x0 + dx < 0 || y0 + dy < 0 || x1 + dx > width || y1 + dy > height) return 0;
    uint32_t squares = 0;
    for (int y = y0; y < y1; y++) {
        const uint8_t *a = reference + y * reference_stride, *b = other + (y + dy) * other_stride + dx;
        for (int x = x0; x < x1; x++) {
            const int d = a[x] - b[x];
            squares += (uint32_t)(d * d);
        }
    }
    // Two frames of the same still scene differ by noise of variance 2σ²: only the excess counts.
    const float mean_square = (float)squares / (float)((x1 - x0) * (y1 - y0));
    const float excess = mean_square - 2 * noise_variance;
    const float weight = excess <= 0 ? 1 : 1 - excess / (rejection * noise_variance);
    return weight <= 0 ? 0 : (uint16_t)(weight * 256 + 0.5f);
}

/// Merges the tiles of one plane in rows y0..<y1: each sample the weighted mean of the
/// reference's (weight 256) and the neighbours' samples at their translations, given in half
/// samples of this plane (odd: the mean of the two samples either side).
static void merge_plane_rows(const pc_merge_plane *plane, int count, const uint16_t *weights, int tiles_x, int tile,
                             int first_tile_row, int tile_rows, uint32_t *sums) {
    const int y_start = first_tile_row * tile, y_end = (first_tile_row + tile_rows) * tile;
    for (int y = y_start; y < y_end && y < plane->height; y++) {
        const int tile_row = y / tile;
        const uint8_t *reference = plane->reference + y * plane->reference_stride;
        uint8_t *out = plane->out + y * plane->out_stride;
        for (int x = 0; x < plane->width; x++) sums[x] = 256u * reference[x];
        for (int n = 0; n < count; n++) {
            const uint16_t *row_weights = weights + ((size_t)n * plane->tiles_y + tile_row) * tiles_x;
            const int hx = plane->half_dx[n], hy = plane->half_dy[n];
            const int ox = hx >> 1, oy = hy >> 1, odd_x = hx & 1, odd_y = hy & 1;
            for (int t = 0; t < tiles_x; t++) {
                const uint32_t w = row_weights[t];
                if (w == 0) continue;
                const int x0 = t * tile, x1 = x0 + tile < plane->width ? x0 + tile : plane->width;
                const uint8_t *a = plane->neighbours[n] + (y + oy) * plane->neighbour_strides[n] + ox;
                const uint8_t *b = a + (odd_y ? plane->neighbour_strides[n] : 0);
                if (!odd_x && !odd_y) {
                    for (int x = x0; x < x1; x++) sums[x] += w * a[x];
                } else {
                    for (int x = x0; x < x1; x++) {
                        sums[x] += w * ((a[x] + a[x + odd_x] + b[x] + b[x + odd_x] + 2u) >> 2);
                    }
                }
            }
        }
        for (int t = 0; t < tiles_x; t++) {
            uint32_t total = 256;
            for (int n = 0; n < count; n++) total += weights[((size_t)n * plane->tiles_y + tile_row) * tiles_x + t];
            const int x0 = t * tile, x1 = x0 + tile < plane->width ? x0 + tile : plane->width;
            const float scale = 1.0f / (float)total;
            for (int x = x0; x < x1; x++) out[x] = (uint8_t)((float)sums[x] * scale + 0.5f);
        }
    }
}

void pc_merge_tile_weights(const pc_merge_plane planes[3], int count, float noise_variance, float rejection,
                           int first_tile_row, int tile_rows, uint16_t *weights) {
    const pc_merge_plane *luma = &planes[0];
    const int tiles_x = (luma->width + 7) / 8;
    for (int n = 0; n < count; n++) {
        for (int ty = first_tile_row; ty < first_tile_row + tile_rows && ty < luma->tiles_y; ty++) {
            for (int tx = 0; tx < tiles_x; tx++) {
                const int x0 = tx * 8, y0 = ty * 8;
                const int x1 = x0 + 8 < luma->width ? x0 + 8 : luma->width;
                const int y1 = y0 + 8 < luma->height ? y0 + 8 : luma->height;
                weights[((size_t)n * luma->tiles_y + ty) * tiles_x + tx] =
                    tile_weight(luma->reference, luma->reference_stride, luma->neighbours[n],
                                luma->neighbour_strides[n], luma->width, luma->height, x0, y0, x1, y1,
                                luma->half_dx[n] / 2, luma->half_dy[n] / 2, noise_variance, rejection);
            }
        }
    }
}

void pc_merge_tile_rows(const pc_merge_plane planes[3], int count, int first_tile_row, int tile_rows,
                        const uint16_t *weights, uint32_t *sums) {
    const int tiles_x = (planes[0].width + 7) / 8;
    merge_plane_rows(&planes[0], count, weights, tiles_x, 8, first_tile_row, tile_rows, sums);
    merge_plane_rows(&planes[1], count, weights, tiles_x, 4, first_tile_row, tile_rows, sums);
    merge_plane_rows(&planes[2], count, weights, tiles_x, 4, first_tile_row, tile_rows, sums);
}
