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

/// Reads the next row into `rgb` (width × 3 bytes); -1 with a message on damage.
int pc_png_rows_read(pc_png_rows *rows, uint8_t *rgb, char *message, size_t message_size);

/// Reads what follows the last row (checking the chunks to the end); -1 with a message on damage.
int pc_png_rows_finish(pc_png_rows *rows, char *message, size_t message_size);

/// Frees the reader.
void pc_png_rows_close(pc_png_rows *rows);
