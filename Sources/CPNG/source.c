#include "source.h"

#include <string.h>

void pc_png_keep_message(char *message, size_t message_size, const char *text) {
    if (message == NULL || message_size == 0) return;
    strncpy(message, text, message_size - 1);
    message[message_size - 1] = 0;
}

void pc_png_source_error(png_structp png, png_const_charp text) {
    pc_png_source *source = png_get_error_ptr(png);
    pc_png_keep_message(source->message, source->message_size, text);
    png_longjmp(png, 1);
}

void pc_png_ignore_warning(png_structp png, png_const_charp text) {
    (void)png;
    (void)text;
}

void pc_png_source_read(png_structp png, png_bytep out, size_t count) {
    pc_png_source *source = png_get_io_ptr(png);
    if (count > source->size - source->offset) png_error(png, "the file ends before the image does");
    memcpy(out, source->data + source->offset, count);
    source->offset += count;
}
