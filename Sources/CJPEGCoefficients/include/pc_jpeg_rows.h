#pragma once
#include <stddef.h>
#include <stdint.h>

/// A JPEG decoded row by row to 8-bit RGB with the settings of TurboJPEG's tjDecompress2 to
/// TJPF_RGB with TJFLAG_ACCURATEDCT (islow DCT, smooth upsampling), so the rows are the bytes
/// a whole decode gives. Opaque.
typedef struct pc_jpeg_rows pc_jpeg_rows;

enum {
    PC_JPEG_ROWS_READY = 0,
    /// A libjpeg error or warning (a damaged or truncated file); the message says which.
    PC_JPEG_ROWS_FAILED = -1,
    /// Valid, but not a picture decoded to RGB this way (CMYK, YCCK): read it whole instead.
    PC_JPEG_ROWS_NOT_STREAMABLE = 1,
};

/// Reads the header of `count` bytes of JPEG at `jpeg` (which must stay valid until
/// pc_jpeg_rows_close) and starts the decode; `status` says whether rows follow, `message` (at
/// least 200 bytes) why not. Returns NULL unless they do.
pc_jpeg_rows *pc_jpeg_rows_open(const uint8_t *jpeg, size_t count, uint32_t *width, uint32_t *height, int *status,
                                char *message);

/// Decodes the next row into `rgb` (width × 3 bytes); -1 with a message on damage.
int pc_jpeg_rows_read(pc_jpeg_rows *rows, uint8_t *rgb, char *message);

/// Frees the decoder.
void pc_jpeg_rows_close(pc_jpeg_rows *rows);
