#pragma once
#include <stddef.h>
#include <stdint.h>

#include "pc_jpeg_cmyk.h"
#include "pc_jpeg_raw.h"
#include "pc_jpeg_rows.h"

/// A JPEG whose DCT coefficients have been read (libjpeg's `jpeg_read_coefficients`) and are
/// turned, strip by strip, into new JPEGs without decoding to pixels. Opaque.
typedef struct pc_jpeg_turn pc_jpeg_turn;

/// The eight orientations as EXIF numbers them; 1 leaves the coefficients as they are.
enum {
    PC_JPEG_TURN_OK = 0,
    /// A libjpeg error (a damaged file, or memory); the message says which.
    PC_JPEG_TURN_FAILED = 1,
    /// Valid, but not a file this path turns exactly (not 8-bit, or the turn would move a
    /// partial iMCU); the caller may use another way.
    PC_JPEG_TURN_UNSUPPORTED = 2,
};

/// Reads the coefficients of `jpeg` (`count` bytes, which must stay valid until
/// `pc_jpeg_turn_close`) and prepares up to `strips` output strips of whole iMCU rows for
/// the turn that EXIF orientation `orientation` (1...8; 1 re-codes the coefficients as they
/// are, as a baseline file) asks for. With `decoders` 2 a large single-scan baseline file is
/// entropy-decoded on two threads (`pc_jpeg_turn_entropy_decode` says how it was read); with 1,
/// by libjpeg alone. On success `*turn` is set and
/// `pc_jpeg_turn_strip` can be called once for every index below `pc_jpeg_turn_strip_count`,
/// from any threads (each strip touches only its own coefficients and its own compressor).
/// `message` (at least 200 bytes) receives the reason of a failure.
int pc_jpeg_turn_open(const uint8_t *jpeg, size_t count, int orientation, int strips, int decoders,
                      pc_jpeg_turn **turn, char *message);

/// How the coefficients were read.
enum {
    /// By libjpeg's jpeg_read_coefficients.
    PC_JPEG_TURN_DECODED_BY_LIBJPEG = 0,
    /// By the split decoder on one thread: the second thread never fell into step.
    PC_JPEG_TURN_DECODED_IN_ONE = 1,
    /// By the split decoder, the second half on a second thread.
    PC_JPEG_TURN_DECODED_IN_TWO = 2,
};

/// How `turn`'s coefficients were read: one of the PC_JPEG_TURN_DECODED_ values.
int pc_jpeg_turn_entropy_decode(const pc_jpeg_turn *turn);

/// The number of strips prepared (1 when the picture has too few iMCU rows, or the restart
/// interval of a strip would not fit in 16 bits).
int pc_jpeg_turn_strip_count(const pc_jpeg_turn *turn);

/// The warnings libjpeg gave while reading the coefficients (data cut short or damaged, which
/// it fills in or skips and a whole decode refuses).
long pc_jpeg_turn_warnings(const pc_jpeg_turn *turn);

/// The turned picture's size, and the MCUs in each strip but the last (the restart interval
/// that joins the strips).
void pc_jpeg_turn_geometry(const pc_jpeg_turn *turn, int *width, int *height, unsigned *restart_interval);

/// Turns strip `index` and encodes it as a baseline JPEG of its own (no APPn markers, standard
/// Huffman tables, the original's quantisation tables turned with the coefficients). The bytes
/// stay owned by `turn` until `pc_jpeg_turn_close`.
int pc_jpeg_turn_strip(pc_jpeg_turn *turn, int index, const uint8_t **bytes, size_t *count, char *message);

/// Releases everything `turn` holds; NULL is allowed.
void pc_jpeg_turn_close(pc_jpeg_turn *turn);
