#pragma once
// Internal to CV4L2: one ioctl retry loop for libv4l2's calls and the kernel's own.
#include <errno.h>

// Calls `function` (ioctl or v4l2_ioctl) again while a signal interrupts it: a capture must not
// fail because SIGCHLD arrived. Returns its result, or -errno.
static inline int pc_retried_ioctl(int (*function)(int, unsigned long, ...), int fd, unsigned long request, void *argument) {
    int result;
    do {
        result = function(fd, request, argument);
    } while (result == -1 && errno == EINTR);
    return result == -1 ? -errno : result;
}
