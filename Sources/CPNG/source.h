// Reading a PNG from memory, for rows.c and samples.c: libpng's read callback, and error and
// warning handlers that keep the message and jump back to the entry point that set the target.
#pragma once
#include <png.h>
#include <stddef.h>
#include <stdint.h>

/// Bytes being read, and where a failure's message goes; the error and I/O pointer of the
/// png_struct.
typedef struct {
    const uint8_t *data;
    size_t size;
    size_t offset;
    char *message;
    size_t message_size;
} pc_png_source;

/// Copies `text` into `message` (`message_size` bytes, NUL-terminated), when there is room.
void pc_png_keep_message(char *message, size_t message_size, const char *text);

/// libpng's error handler: keeps the message in the source and jumps.
void pc_png_source_error(png_structp png, png_const_charp text);

/// libpng's warning handler: warnings are not errors, and nothing is printed.
void pc_png_ignore_warning(png_structp png, png_const_charp text);

/// libpng's read callback: the next `count` bytes of the source.
void pc_png_source_read(png_structp png, png_bytep out, size_t count);
