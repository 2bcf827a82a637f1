// Reading a PNG from memory or from an open file, for rows.c and samples.c: libpng's read
// callback, and error and warning handlers that keep the message and jump back to the entry
// point that set the target.
#pragma once
#include <png.h>
#include <stddef.h>
#include <stdint.h>

/// Bytes being read, and where a failure's message goes; the error and I/O pointer of the
/// png_struct. With `data` NULL, the bytes are read from `descriptor` by pread, through
/// `buffer` (PC_PNG_FILE_BUFFER bytes, owned by the reader): a file is never held whole.
typedef struct {
    const uint8_t *data;
    size_t size;
    size_t offset;
    char *message;
    size_t message_size;
    int descriptor;
    uint8_t *buffer;
    /// The file's bytes [buffer_offset, buffer_offset + buffered) are in `buffer`.
    size_t buffer_offset;
    size_t buffered;
} pc_png_source;

/// Bytes read from a file at once: libpng asks for a chunk's header and then 8 KiB at a time.
#define PC_PNG_FILE_BUFFER (256 * 1024)

/// Copies `text` into `message` (`message_size` bytes, NUL-terminated), when there is room.
void pc_png_keep_message(char *message, size_t message_size, const char *text);

/// libpng's error handler: keeps the message in the source and jumps.
void pc_png_source_error(png_structp png, png_const_charp text);

/// libpng's warning handler: warnings are not errors, and nothing is printed.
void pc_png_ignore_warning(png_structp png, png_const_charp text);

/// libpng's read callback: the next `count` bytes of the source.
void pc_png_source_read(png_structp png, png_bytep out, size_t count);
