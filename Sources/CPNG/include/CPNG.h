// libpng (libpng-dev): its simplified API for whole pictures, and rows one at a time for
// pictures too large to hold twice.
#pragma once
#include <png.h>
#include <stddef.h>
#include <stdint.h>

/// A PNG read row by row as 8-bit RGB.
typedef struct pc_png_rows pc_png_rows;

/// What pc_png_rows_open found.
enum {
    /// Rows follow.
    PC_PNG_ROWS_READY = 0,
    /// The file cannot be read (the message says why).
    PC_PNG_ROWS_FAILED = -1,
    /// Readable, but its rows would not be the simplified API's RGB bytes as they are (alpha,
    /// 16-bit samples, interlacing or a gamma other than sRGB's): read it whole instead.
    PC_PNG_ROWS_NOT_STREAMABLE = 1,
};

/// Opens `size` bytes of PNG at `data` (which must outlive the reader) and reads its header;
/// `status` says whether rows follow. Returns NULL unless they do.
pc_png_rows *pc_png_rows_open(const uint8_t *data, size_t size, uint32_t *width, uint32_t *height, int *status,
                              char *message, size_t message_size);

/// pc_png_rows_open for the `size` bytes of the open regular file `descriptor` (which must stay
/// open while the reader is), read by pread a few hundred KiB at a time: the file is never
/// held whole.
pc_png_rows *pc_png_rows_open_file(int descriptor, size_t size, uint32_t *width, uint32_t *height, int *status,
                                   char *message, size_t message_size);

/// Reads the next row into `rgb` (width × 3 bytes); -1 with a message on damage.
int pc_png_rows_read(pc_png_rows *rows, uint8_t *rgb, char *message, size_t message_size);

/// Reads what follows the last row (checking the chunks to the end); -1 with a message on damage.
int pc_png_rows_finish(pc_png_rows *rows, char *message, size_t message_size);

/// Frees the reader.
void pc_png_rows_close(pc_png_rows *rows);

/// A PNG read whole as its own samples (see samples.c).
typedef struct pc_png_samples pc_png_samples;

/// Reads `size` bytes of PNG at `data` (which must outlive the reader) whole, as the file
/// stores its samples: colour type and bit depth kept, samples under 8 bits one to a byte,
/// 16-bit ones big-endian, interlaced files de-interlaced; rows packed, `*bytes_per_pixel`
/// bytes a pixel. Refuses more than `maximum_area` pixels. Returns NULL with a message when the
/// file cannot be read.
pc_png_samples *pc_png_samples_read(const uint8_t *data, size_t size, size_t maximum_area, uint32_t *width, uint32_t *height,
                                    int *bytes_per_pixel, char *message, size_t message_size);

/// The samples pc_png_samples_read read, owned by `samples`.
const uint8_t *pc_png_samples_pixels(const pc_png_samples *samples);

/// Writes `pixels` (`width`×`height`, laid out as pc_png_samples_read lays out the samples of
/// `samples`) as a PNG of the same colour type and bit depth, not interlaced, with the chunks
/// of `samples` that describe its samples (palette, transparency, colour space, significant
/// bits, background, text, and pixel density, its axes swapped when the width changed) into
/// `*out` (`*out_size` bytes, freed by the caller with free). Returns 0, or -1 with a message.
int pc_png_samples_write(const pc_png_samples *samples, const uint8_t *pixels, uint32_t width, uint32_t height,
                         uint8_t **out, size_t *out_size, char *message, size_t message_size);

/// Frees the reader and its samples.
void pc_png_samples_free(pc_png_samples *samples);
