#pragma once
#include <stddef.h>
#include <stdint.h>

enum {
    PC_JPEG_CMYK_OK = 0,
    /// A libjpeg error (a damaged file, or memory); the message says which.
    PC_JPEG_CMYK_FAILED = 1,
    /// Valid, but not a four-component CMYK or YCCK JPEG of 8-bit samples.
    PC_JPEG_CMYK_UNSUPPORTED = 2,
};

/// Decodes a CMYK or YCCK JPEG (`count` bytes at `jpeg`) to its CMYK samples as stored (Adobe's
/// inverted ones stay inverted), turns them by EXIF orientation `orientation` (1...8) and encodes
/// them again at `quality` (1...100) in the original's colour transform (CMYK stays CMYK, YCCK
/// stays YCCK) with its components' sampling factors (swapped by a turn that swaps the axes).
/// The new JPEG has no APPn markers, so the caller's (the original's APP14 among them) describe
/// it. `*output` (`*output_size` bytes, freed with `free`) and `*width`/`*height`, the turned
/// size, are set on success; `*premature_end` says whether the data stopped before the picture
/// did (libjpeg then fills the rest). `message` (at least 200 bytes) receives the reason of a
/// failure.
int pc_jpeg_cmyk_turn(const uint8_t *jpeg, size_t count, int orientation, int quality, uint8_t **output,
                      size_t *output_size, int *width, int *height, int *premature_end, char *message);
