#include "CImagingKernels.h"
#include <stdlib.h>
#include <string.h>

static inline unsigned sample_at(const uint8_t *row, int x, int bytes_per_sample) {
    return bytes_per_sample == 1 ? row[x] : (unsigned)row[2 * x] | ((unsigned)row[2 * x + 1] << 8);
}

static inline void store_sample(uint8_t *row, int x, int bytes_per_sample, unsigned value) {
    if (bytes_per_sample == 1) {
        row[x] = (uint8_t)value;
    } else {
        row[2 * x] = (uint8_t)(value & 0xFF);
        row[2 * x + 1] = (uint8_t)(value >> 8);
    }
}

void pc_bin_bayer(const uint8_t *src, size_t src_stride, int width, int height, int bytes_per_sample,
                  int factor, uint8_t *dst, size_t dst_stride) {
    const int tiles_x = width / 2, tiles_y = height / 2;
    const int out_x = (tiles_x + factor - 1) / factor, out_y = (tiles_y + factor - 1) / factor;
    // Sums of the four sites of every output tile of one output tile row.
    uint64_t *sums = malloc(sizeof(uint64_t) * 4 * (size_t)out_x);
    if (!sums) return;
    for (int ty = 0; ty < out_y; ty++) {
        memset(sums, 0, sizeof(uint64_t) * 4 * (size_t)out_x);
        const int first_row = ty * factor, end_row = first_row + factor < tiles_y ? first_row + factor : tiles_y;
        for (int sy = first_row; sy < end_row; sy++) {
            for (int site_row = 0; site_row < 2; site_row++) {
                const uint8_t *row = src + (size_t)(2 * sy + site_row) * src_stride;
                for (int tx = 0; tx < out_x; tx++) {
                    const int first = tx * factor, end = first + factor < tiles_x ? first + factor : tiles_x;
                    uint64_t even = 0, odd = 0;
                    for (int sx = first; sx < end; sx++) {
                        even += sample_at(row, 2 * sx, bytes_per_sample);
                        odd += sample_at(row, 2 * sx + 1, bytes_per_sample);
                    }
                    sums[4 * tx + 2 * site_row] += even;
                    sums[4 * tx + 2 * site_row + 1] += odd;
                }
            }
        }
        for (int tx = 0; tx < out_x; tx++) {
            const int columns = (tx * factor + factor < tiles_x ? factor : tiles_x - tx * factor);
            const uint64_t count = (uint64_t)columns * (uint64_t)(end_row - first_row);
            for (int site = 0; site < 4; site++) {
                uint8_t *row = dst + (size_t)(2 * ty + site / 2) * dst_stride;
                store_sample(row, 2 * tx + site % 2, bytes_per_sample, (unsigned)((sums[4 * tx + site] + count / 2) / count));
            }
        }
    }
    free(sums);
}

void pc_mosaic_bayer(const uint8_t *rgb, int width, int height, const uint8_t pattern[4], const uint16_t *curves,
                     int bytes_per_sample, uint8_t *dst, size_t dst_stride) {
    for (int y = 0; y < height; y++) {
        const uint8_t *source = rgb + (size_t)y * (size_t)width * 3;
        uint8_t *row = dst + (size_t)y * dst_stride;
        const uint8_t *tile = pattern + (y & 1) * 2;
        for (int x = 0; x < width; x++) {
            const int channel = tile[x & 1];
            store_sample(row, x, bytes_per_sample, curves[channel * 256 + source[3 * x + channel]]);
        }
    }
}

void pc_unpack_csi2_row(const uint8_t *src, int width, int bits, uint8_t *dst) {
    int group_pixels = bits == 10 ? 4 : 2, group_bytes = bits == 10 ? 5 : 3, low_bits = bits - 8;
    unsigned mask = (1u << low_bits) - 1;
    for (int x = 0; x < width; x += group_pixels) {
        const uint8_t *group = src + (x / group_pixels) * group_bytes;
        unsigned low = group[group_bytes - 1];
        for (int i = 0; i < group_pixels && x + i < width; i++) {
            unsigned value = ((unsigned)group[i] << low_bits) | ((low >> (low_bits * i)) & mask);
            dst[2 * (x + i)] = (uint8_t)(value & 0xff);
            dst[2 * (x + i) + 1] = (uint8_t)(value >> 8);
        }
    }
}

void pc_pack_csi2_row(const uint8_t *src, int width, int bits, uint8_t *dst) {
    int group_pixels = bits == 10 ? 4 : 2, group_bytes = bits == 10 ? 5 : 3, low_bits = bits - 8;
    for (int x = 0; x < width; x += group_pixels) {
        uint8_t *group = dst + (x / group_pixels) * group_bytes;
        group[group_bytes - 1] = 0;
        for (int i = 0; i < group_pixels; i++) {
            /* A partial last group is padded with zero samples. */
            unsigned value = x + i < width ? (unsigned)src[2 * (x + i)] | ((unsigned)src[2 * (x + i) + 1] << 8) : 0;
            group[i] = (uint8_t)(value >> low_bits);
            group[group_bytes - 1] |= (uint8_t)((value & ((1u << low_bits) - 1)) << (low_bits * i));
        }
    }
}
