#ifndef PHOTOCAP_FILE_ATTRIBUTES_H
#define PHOTOCAP_FILE_ATTRIBUTES_H

// File calls that Swift's Glibc module does not import: extended attributes (xattr(7)), which
// keep a rewritten file's attributes and POSIX ACL, and copy_file_range(2), which copies the
// unchanged runs of a large rewritten file in the kernel.
#include <sys/types.h>
#include <sys/xattr.h>

// Declared by glibc's unistd.h only with _GNU_SOURCE.
ssize_t copy_file_range(int fd_in, __off64_t *off_in, int fd_out, __off64_t *off_out, size_t len, unsigned int flags);

#endif
