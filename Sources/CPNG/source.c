#include "source.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

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

/// Fills the source's buffer from its descriptor at the current offset.
static void pc_png_source_refill(png_structp png, pc_png_source *source) {
    const size_t wanted = source->size - source->offset < PC_PNG_FILE_BUFFER ? source->size - source->offset : PC_PNG_FILE_BUFFER;
    size_t got = 0;
    while (got < wanted) {
        const ssize_t count = pread(source->descriptor, source->buffer + got, wanted - got, (off_t)(source->offset + got));
        if (count < 0 && errno == EINTR) continue;
        if (count < 0) png_error(png, strerror(errno));
        if (count == 0) png_error(png, "the file ends before the image does (it was cut short while being read)");
        got += (size_t)count;
    }
    source->buffer_offset = source->offset;
    source->buffered = got;
}

void pc_png_source_read(png_structp png, png_bytep out, size_t count) {
    pc_png_source *source = png_get_io_ptr(png);
    if (count > source->size - source->offset) png_error(png, "the file ends before the image does");
    if (source->data != NULL) {
        memcpy(out, source->data + source->offset, count);
        source->offset += count;
        return;
    }
    while (count > 0) {
        if (source->offset < source->buffer_offset || source->offset >= source->buffer_offset + source->buffered) {
            pc_png_source_refill(png, source);
        }
        const size_t start = source->offset - source->buffer_offset;
        const size_t available = source->buffered - start;
        const size_t piece = count < available ? count : available;
        memcpy(out, source->buffer + start, piece);
        out += piece;
        count -= piece;
        source->offset += piece;
    }
}
