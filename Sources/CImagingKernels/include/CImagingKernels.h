#pragma once
#include <stddef.h>
#include <stdint.h>

/// Expands limited-range (16...235) luma to full range (0...255) in place.
void pc_expand_luma_range(uint8_t *row, size_t count);

/// Expands limited-range (16...240) chroma to full range (0...255) in place.
void pc_expand_chroma_range(uint8_t *row, size_t count);

/// Mean absolute difference between two byte buffers (0 when count is 0).
double pc_mean_absolute_difference(const uint8_t *a, const uint8_t *b, size_t count);
