#pragma once
// The one seam to the kernel's V4L2 API and libv4l2. Every function returns 0 (or a
// non-negative result) on success and -errno on failure, so Swift never reads a stale errno.
#include <linux/videodev2.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/// Opens `path` read-write, non-blocking, close-on-exec, through libv4l2 with its format
/// emulation disabled (photocap converts frames itself, in one pass). Returns the descriptor;
/// -ENOTTY when the file is not a V4L2 device.
int pc_v4l2_open(const char *path);
/// Closes a descriptor from pc_v4l2_open.
int pc_v4l2_close(int fd);

int pc_v4l2_querycap(int fd, struct v4l2_capability *capability);
int pc_v4l2_enum_input(int fd, struct v4l2_input *input);
int pc_v4l2_get_input(int fd, int *index);
int pc_v4l2_set_input(int fd, int *index);
int pc_v4l2_enum_format(int fd, struct v4l2_fmtdesc *description);
int pc_v4l2_enum_frame_sizes(int fd, struct v4l2_frmsizeenum *sizes);
int pc_v4l2_enum_frame_intervals(int fd, struct v4l2_frmivalenum *intervals);
int pc_v4l2_get_format(int fd, struct v4l2_format *format);
int pc_v4l2_set_format(int fd, struct v4l2_format *format);
int pc_v4l2_try_format(int fd, struct v4l2_format *format);
int pc_v4l2_get_parameters(int fd, struct v4l2_streamparm *parameters);
int pc_v4l2_set_parameters(int fd, struct v4l2_streamparm *parameters);
int pc_v4l2_request_buffers(int fd, struct v4l2_requestbuffers *request);
int pc_v4l2_query_buffer(int fd, struct v4l2_buffer *buffer);
int pc_v4l2_queue_buffer(int fd, struct v4l2_buffer *buffer);
int pc_v4l2_dequeue_buffer(int fd, struct v4l2_buffer *buffer);
int pc_v4l2_stream_on(int fd);
int pc_v4l2_stream_off(int fd);
int pc_v4l2_query_ext_control(int fd, struct v4l2_query_ext_ctrl *query);
int pc_v4l2_query_menu(int fd, struct v4l2_querymenu *menu);
int pc_v4l2_get_selection(int fd, struct v4l2_selection *selection);
int pc_v4l2_set_selection(int fd, struct v4l2_selection *selection);

/// Reads one integer-like control (any class) with VIDIOC_G_EXT_CTRLS.
int pc_v4l2_get_control(int fd, uint32_t id, int64_t *value);
/// Writes one integer-like control with VIDIOC_S_EXT_CTRLS; the driver may clamp, read back.
int pc_v4l2_set_control(int fd, uint32_t id, int64_t value);

/// The camera sensor of a media-controller pipeline that a capture node's configured data links
/// lead back to, with what its subdevice reports of its mounting.
struct pc_v4l2_pipeline_sensor {
    /// The sensor entity's name, e.g. "imx219 10-0010".
    char name[64];
    /// Its subdevice node, e.g. "/dev/v4l-subdev2".
    char subdevice[64];
    /// V4L2_CID_CAMERA_SENSOR_ROTATION on the subdevice, -1 when it has none.
    int32_t rotation;
    /// V4L2_CID_CAMERA_ORIENTATION on the subdevice, -1 when it has none.
    int32_t orientation;
};

/// Finds the sensor upstream of the capture node `fd` in its media device's topology
/// (MEDIA_IOC_G_TOPOLOGY, over enabled links) and reads its mounting controls. -ENOENT when the
/// node has no media device, or its pipeline reaches no single sensor with a subdevice node.
int pc_v4l2_pipeline_sensor(int fd, struct pc_v4l2_pipeline_sensor *sensor);

/// Maps a buffer for reading; returns NULL and sets *error to -errno on failure.
void *pc_v4l2_map(int fd, size_t length, int64_t offset, int *error);
int pc_v4l2_unmap(void *address, size_t length);

/// Waits up to `timeout_ms` for the descriptor, or until `wake_fd` (an eventfd from
/// `pc_v4l2_wake_create`, or -1) is signalled, which it drains; returns the descriptor's poll
/// revents (0 on timeout or wake-up).
int pc_v4l2_poll(int fd, int wake_fd, int timeout_ms);

/// A non-blocking eventfd that ends a `pc_v4l2_poll` early; -errno on failure.
int pc_v4l2_wake_create(void);

/// Signals `wake_fd`: a poll under way returns, or the next one returns at once.
void pc_v4l2_wake(int wake_fd);

enum {
    PC_V4L2_POLLIN = 0x001,
    PC_V4L2_POLLPRI = 0x002,
    PC_V4L2_POLLERR = 0x008,
    PC_V4L2_POLLHUP = 0x010,
    PC_V4L2_POLLNVAL = 0x020,
};

// Control IDs are built with arithmetic macros Swift cannot import.
enum {
    PC_V4L2_CID_CAMERA_ORIENTATION = V4L2_CID_CAMERA_ORIENTATION,
    PC_V4L2_CID_CAMERA_SENSOR_ROTATION = V4L2_CID_CAMERA_SENSOR_ROTATION,
    PC_V4L2_CID_EXPOSURE_AUTO = V4L2_CID_EXPOSURE_AUTO,
    PC_V4L2_CID_EXPOSURE_ABSOLUTE = V4L2_CID_EXPOSURE_ABSOLUTE,
    PC_V4L2_CID_AUTO_EXPOSURE_BIAS = V4L2_CID_AUTO_EXPOSURE_BIAS,
    PC_V4L2_CID_GAIN = V4L2_CID_GAIN,
    PC_V4L2_CID_AUTOGAIN = V4L2_CID_AUTOGAIN,
    PC_V4L2_CID_ANALOGUE_GAIN = V4L2_CID_ANALOGUE_GAIN,
    PC_V4L2_CID_HFLIP = V4L2_CID_HFLIP,
    PC_V4L2_CID_VFLIP = V4L2_CID_VFLIP,
    PC_V4L2_CID_FOCUS_AUTO = V4L2_CID_FOCUS_AUTO,
    PC_V4L2_CID_FOCUS_ABSOLUTE = V4L2_CID_FOCUS_ABSOLUTE,
    PC_V4L2_CID_AUTO_FOCUS_START = V4L2_CID_AUTO_FOCUS_START,
    PC_V4L2_CID_AUTO_FOCUS_STATUS = V4L2_CID_AUTO_FOCUS_STATUS,
};

// V4L2_CID_AUTO_FOCUS_STATUS bits.
enum {
    PC_V4L2_AUTO_FOCUS_STATUS_BUSY = V4L2_AUTO_FOCUS_STATUS_BUSY,
    PC_V4L2_AUTO_FOCUS_STATUS_REACHED = V4L2_AUTO_FOCUS_STATUS_REACHED,
    PC_V4L2_AUTO_FOCUS_STATUS_FAILED = V4L2_AUTO_FOCUS_STATUS_FAILED,
};
