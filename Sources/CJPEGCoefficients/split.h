// The entropy decode of a baseline scan on two threads: one from the start, one speculatively
// from the middle, joined where their MCU boundaries meet (JPEG's Huffman codes resynchronise).
#pragma once
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>  // jpeglib.h needs FILE
#include <jpeglib.h>

#define SPLIT_MAX_SAMPLING 4

/// The coefficients of a scan decoded in two parts: block rows before `seam_row` in the first
/// thread's arrays, the rest in the second thread's streams, whose DC values are off by
/// `dc_offset` (its predictors started from nothing).
struct split_decode {
    int used;                                   // 1 when the coefficients are here, not libjpeg's
    int synced;                                 // 1 when the second thread's part is used
    int components;
    int columns[MAX_COMPONENTS];                // blocks per row, padded to the sampling
    int h[MAX_COMPONENTS], v[MAX_COMPONENTS];
    int mcus_per_row;
    JBLOCK *first[MAX_COMPONENTS];              // the first thread's arrays, whole rows
    size_t first_bytes[MAX_COMPONENTS];
    JBLOCK *second[MAX_COMPONENTS][SPLIT_MAX_SAMPLING];  // per component and block row of an MCU
    size_t second_bytes;
    long shift;                                 // second-thread MCU index minus picture MCU index
    int seam_row[MAX_COMPONENTS];
    int dc_offset[MAX_COMPONENTS];
};

/// Decodes the scan that `source` (after jpeg_read_header, its source manager over `jpeg`, `count`
/// bytes) is about to read, on this thread and one more. Leaves `split->used` 0, having touched
/// nothing of libjpeg's state, whenever the file is not a plain single-scan baseline JPEG or
/// anything in its data is unusual: libjpeg then reads it as before, with its warnings.
void split_decode(j_decompress_ptr source, const uint8_t *jpeg, size_t count, struct split_decode *split);

/// Block row `row` of component `c`.
JBLOCKROW split_row(const struct split_decode *split, int c, int row);

void split_release(struct split_decode *split);
