#include "cv4l2.h"
#include "retried_ioctl.h"

#include <errno.h>
#include <fcntl.h>
#include <libv4l2.h>
#include <poll.h>
#include <stdint.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

static int call(int fd, unsigned long request, void *argument) { return pc_retried_ioctl(v4l2_ioctl, fd, request, argument); }

int pc_v4l2_open(const char *path) {
    int fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return -errno;
    // Ask the kernel first: libv4l2 prints its own complaints about non-V4L2 files.
    struct v4l2_capability capability;
    if (ioctl(fd, VIDIOC_QUERYCAP, &capability) != 0) {
        int error = errno;
        close(fd);
        return -error;
    }
    int wrapped = v4l2_fd_open(fd, V4L2_DISABLE_CONVERSION);
    if (wrapped < 0) {
        int error = errno;
        close(fd);
        return -error;
    }
    return wrapped;
}

int pc_v4l2_close(int fd) { return v4l2_close(fd) == 0 ? 0 : -errno; }

int pc_v4l2_querycap(int fd, struct v4l2_capability *c) { return call(fd, VIDIOC_QUERYCAP, c); }
int pc_v4l2_enum_input(int fd, struct v4l2_input *i) { return call(fd, VIDIOC_ENUMINPUT, i); }
int pc_v4l2_get_input(int fd, int *index) { return call(fd, VIDIOC_G_INPUT, index); }
int pc_v4l2_set_input(int fd, int *index) { return call(fd, VIDIOC_S_INPUT, index); }
int pc_v4l2_enum_format(int fd, struct v4l2_fmtdesc *d) { return call(fd, VIDIOC_ENUM_FMT, d); }
int pc_v4l2_enum_frame_sizes(int fd, struct v4l2_frmsizeenum *s) { return call(fd, VIDIOC_ENUM_FRAMESIZES, s); }
int pc_v4l2_enum_frame_intervals(int fd, struct v4l2_frmivalenum *i) { return call(fd, VIDIOC_ENUM_FRAMEINTERVALS, i); }
int pc_v4l2_get_format(int fd, struct v4l2_format *f) { return call(fd, VIDIOC_G_FMT, f); }
int pc_v4l2_set_format(int fd, struct v4l2_format *f) { return call(fd, VIDIOC_S_FMT, f); }
int pc_v4l2_try_format(int fd, struct v4l2_format *f) { return call(fd, VIDIOC_TRY_FMT, f); }
int pc_v4l2_get_parameters(int fd, struct v4l2_streamparm *p) { return call(fd, VIDIOC_G_PARM, p); }
int pc_v4l2_set_parameters(int fd, struct v4l2_streamparm *p) { return call(fd, VIDIOC_S_PARM, p); }
int pc_v4l2_request_buffers(int fd, struct v4l2_requestbuffers *r) { return call(fd, VIDIOC_REQBUFS, r); }
int pc_v4l2_query_buffer(int fd, struct v4l2_buffer *b) { return call(fd, VIDIOC_QUERYBUF, b); }
int pc_v4l2_queue_buffer(int fd, struct v4l2_buffer *b) { return call(fd, VIDIOC_QBUF, b); }
int pc_v4l2_dequeue_buffer(int fd, struct v4l2_buffer *b) { return call(fd, VIDIOC_DQBUF, b); }
int pc_v4l2_query_ext_control(int fd, struct v4l2_query_ext_ctrl *q) { return call(fd, VIDIOC_QUERY_EXT_CTRL, q); }
int pc_v4l2_query_menu(int fd, struct v4l2_querymenu *m) { return call(fd, VIDIOC_QUERYMENU, m); }
int pc_v4l2_get_selection(int fd, struct v4l2_selection *s) { return call(fd, VIDIOC_G_SELECTION, s); }
int pc_v4l2_set_selection(int fd, struct v4l2_selection *s) { return call(fd, VIDIOC_S_SELECTION, s); }

int pc_v4l2_stream_on(int fd) {
    int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    return call(fd, VIDIOC_STREAMON, &type);
}

int pc_v4l2_stream_off(int fd) {
    int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    return call(fd, VIDIOC_STREAMOFF, &type);
}

int pc_v4l2_get_control(int fd, uint32_t id, int64_t *value) {
    struct v4l2_ext_control control;
    struct v4l2_ext_controls controls;
    memset(&control, 0, sizeof control);
    memset(&controls, 0, sizeof controls);
    control.id = id;
    controls.which = V4L2_CTRL_WHICH_CUR_VAL;
    controls.count = 1;
    controls.controls = &control;
    int result = call(fd, VIDIOC_G_EXT_CTRLS, &controls);
    if (result < 0) return result;
    struct v4l2_query_ext_ctrl query;
    memset(&query, 0, sizeof query);
    query.id = id;
    // 64-bit controls answer in value64; all others in value.
    if (call(fd, VIDIOC_QUERY_EXT_CTRL, &query) == 0 && query.type == V4L2_CTRL_TYPE_INTEGER64) {
        *value = control.value64;
    } else {
        *value = control.value;
    }
    return 0;
}

int pc_v4l2_set_control(int fd, uint32_t id, int64_t value) {
    struct v4l2_ext_control control;
    struct v4l2_ext_controls controls;
    struct v4l2_query_ext_ctrl query;
    memset(&control, 0, sizeof control);
    memset(&controls, 0, sizeof controls);
    memset(&query, 0, sizeof query);
    query.id = id;
    control.id = id;
    if (call(fd, VIDIOC_QUERY_EXT_CTRL, &query) == 0 && query.type == V4L2_CTRL_TYPE_INTEGER64) {
        control.value64 = value;
    } else {
        control.value = (int32_t)value;
    }
    controls.which = V4L2_CTRL_WHICH_CUR_VAL;
    controls.count = 1;
    controls.controls = &control;
    return call(fd, VIDIOC_S_EXT_CTRLS, &controls);
}

void *pc_v4l2_map(int fd, size_t length, int64_t offset, int *error) {
    void *address = v4l2_mmap(NULL, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)offset);
    if (address == MAP_FAILED) {
        *error = -errno;
        return NULL;
    }
    *error = 0;
    return address;
}

int pc_v4l2_unmap(void *address, size_t length) { return v4l2_munmap(address, length) == 0 ? 0 : -errno; }

int pc_v4l2_poll(int fd, int wake_fd, int timeout_ms) {
    // poll ignores a negative descriptor, so wake_fd -1 waits on the device alone.
    struct pollfd entries[2] = {{.fd = fd, .events = POLLIN | POLLPRI}, {.fd = wake_fd, .events = POLLIN}};
    int result;
    do {
        result = poll(entries, 2, timeout_ms);
    } while (result == -1 && errno == EINTR);
    if (result < 0) return -errno;
    if (entries[1].revents & POLLIN) {
        uint64_t count;
        ssize_t ignored = read(wake_fd, &count, sizeof count);
        (void)ignored;
    }
    return entries[0].revents;
}

int pc_v4l2_wake_create(void) {
    int fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    return fd < 0 ? -errno : fd;
}

void pc_v4l2_wake(int wake_fd) {
    uint64_t one = 1;
    ssize_t ignored = write(wake_fd, &one, sizeof one);
    (void)ignored;
}
