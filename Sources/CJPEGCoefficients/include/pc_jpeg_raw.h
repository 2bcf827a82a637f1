#pragma once
#include <stddef.h>
#include <stdint.h>

/// A 4:2:0 JPEG encoded from planes handed over a band of rows at a time (libjpeg's raw-data
/// API), so the rows can be produced just before they are encoded, while they are in cache.
/// The bytes are those `tjCompressFromYUVPlanes` writes for the same planes, subsampling 4:2:0,
/// quality and no flags (TurboJPEG's settings: JFIF, standard tables, fast DCT below quality
/// 96). For an odd side TurboJPEG also reads the luma sample past it; this encoder reads only
/// the plane's samples and repeats the last. One encoder per thread; reusable. Opaque.
typedef struct pc_jpeg_raw pc_jpeg_raw;

/// A new encoder, or NULL when out of memory.
pc_jpeg_raw *pc_jpeg_raw_create(void);

/// Starts a `width`×`height` JPEG at `quality` (1...100) into `output` (`capacity` bytes, at
/// least `tjBufSize(width, height, TJSAMP_420)`; a JPEG that does not fit fails). Returns 0,
/// or -1 with the reason in `message` (at least 200 bytes).
int pc_jpeg_raw_start(pc_jpeg_raw *raw, int width, int height, int quality, uint8_t *output, size_t capacity,
                      char *message);

/// Encodes the next `rows` luma rows (a multiple of 16, or all the rows left) from planes whose
/// first row is the next row of the picture; the chroma planes hold the matching `(rows + 1) / 2`
/// rows. Like TurboJPEG, reads the last row pair of the picture whole (height rounded up to
/// even). Returns 0, or -1 with the reason in `message`.
int pc_jpeg_raw_write(pc_jpeg_raw *raw, const uint8_t *y, ptrdiff_t luma_stride, const uint8_t *cb, const uint8_t *cr,
                      ptrdiff_t chroma_stride, int rows, char *message);

/// Ends the JPEG once every row is written: `*count` bytes of `output`. Returns 0, or -1 with the
/// reason in `message`.
int pc_jpeg_raw_finish(pc_jpeg_raw *raw, size_t *count, char *message);

/// Releases the encoder; NULL is allowed.
void pc_jpeg_raw_destroy(pc_jpeg_raw *raw);
