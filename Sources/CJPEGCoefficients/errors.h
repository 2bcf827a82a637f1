// The error manager both libjpeg users of this module share: libjpeg's error_exit must not
// return, so it jumps back to the caller's setjmp with the message kept.
#pragma once
#include <setjmp.h>
#include <stdio.h>
#include <jpeglib.h>

/// libjpeg reports errors by calling error_exit, which must not return: it jumps back here.
struct error_manager {
    struct jpeg_error_mgr pub;
    jmp_buf jump;
    char *message;
};

static inline void on_error(j_common_ptr info) {
    struct error_manager *manager = (struct error_manager *)info->err;
    if (manager->message) (*info->err->format_message)(info, manager->message);
    longjmp(manager->jump, 1);
}

// Warnings (such as extraneous bytes) are not fatal, as with tjTransform; nothing is printed.
static inline void on_output_message(j_common_ptr info) { (void)info; }

static inline void set_errors(struct error_manager *manager, char *message) {
    jpeg_std_error(&manager->pub);
    manager->pub.error_exit = on_error;
    manager->pub.output_message = on_output_message;
    manager->message = message;
}
