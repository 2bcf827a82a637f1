#ifndef PHOTOCAP_LIBCAMERA_SHIM_H
#define PHOTOCAP_LIBCAMERA_SHIM_H

// libcamera (a C++ API) behind plain C, for Swift. Every call is bounded: waits take a timeout,
// and failures come back as return values with a message in `error` (at most `error_capacity`
// bytes, NUL-terminated), never as exceptions.

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Results of the calls below that do not return a count: int32_t, as the calls return them,
/// so Swift compares them without a conversion.
enum : int32_t {
    PC_LC_OK = 0,
    PC_LC_ERROR = -1,
    /// No camera has that id (or it was unplugged).
    PC_LC_NOT_FOUND = -2,
    /// Another process (or another handle here) has acquired the camera.
    PC_LC_BUSY = -3,
    /// The pipeline cannot produce the configuration asked for, even adjusted.
    PC_LC_INVALID = -4,
    /// Every buffer is queued or held by the caller: release a completed capture first.
    PC_LC_NO_BUFFER = -5,
    /// The camera was unplugged; the handle can only be closed.
    PC_LC_REMOVED = -6,
    /// pc_lc_camera_wait's timeout passed with nothing completed.
    PC_LC_TIMEOUT = -7,
};

/// libcamera's properties::Location.
enum { PC_LC_LOCATION_UNKNOWN = -1, PC_LC_LOCATION_FRONT = 0, PC_LC_LOCATION_BACK = 1, PC_LC_LOCATION_EXTERNAL = 2 };

/// libcamera's Transform, bit for bit: a flip of rows (HFLIP), of columns (VFLIP), then a
/// transposition. A half turn is HFLIP | VFLIP, which a sensor with flip controls does itself.
enum {
    PC_LC_TRANSFORM_IDENTITY = 0,
    PC_LC_TRANSFORM_HFLIP = 1,
    PC_LC_TRANSFORM_VFLIP = 2,
    PC_LC_TRANSFORM_TRANSPOSE = 4,
    PC_LC_TRANSFORM_ROT180 = 3,
    PC_LC_TRANSFORM_ROT90 = 6,
    PC_LC_TRANSFORM_ROT270 = 5,
};

/// The per-request controls a camera accepts (bits of pc_lc_camera_info.controls and of
/// pc_lc_request_controls.set) and the metadata a capture reports (pc_lc_capture.metadata).
enum {
    PC_LC_CONTROL_EXPOSURE_TIME = 1 << 0,
    PC_LC_CONTROL_ANALOGUE_GAIN = 1 << 1,
    PC_LC_CONTROL_SCALER_CROP = 1 << 2,
    PC_LC_CONTROL_AF_MODE = 1 << 3,
    PC_LC_CONTROL_LENS_POSITION = 1 << 4,
    PC_LC_CONTROL_SENSOR_TIMESTAMP = 1 << 5,
};

typedef struct pc_lc_size {
    uint32_t width, height;
} pc_lc_size;

typedef struct pc_lc_rectangle {
    int32_t x, y;
    uint32_t width, height;
} pc_lc_rectangle;

#define PC_LC_MAX_SIZES 16
#define PC_LC_MAX_FORMATS 16

/// A pixel format a stream can deliver and its sizes: any size from `min` to `max` in steps
/// the pipeline adjusts to, and the discrete sizes it lists (often none besides the range).
typedef struct pc_lc_format {
    /// The DRM fourcc libcamera uses, and its name for it ("BGR888", "SGRBG10_CSI2P").
    uint32_t fourcc;
    uint64_t modifier;
    char name[32];
    pc_lc_size min, max;
    int32_t size_count;
    pc_lc_size sizes[PC_LC_MAX_SIZES];
} pc_lc_format;

/// What a camera is, as listed before it is opened.
typedef struct pc_lc_camera_info {
    char id[256];
    char model[64];
    /// PC_LC_LOCATION_*.
    int32_t location;
    /// How far the sensor is turned clockwise in its mounting, in degrees; -1 when not reported.
    int32_t rotation;
    /// The sensor's full pixel array; 0 x 0 when not reported.
    pc_lc_size pixel_array;
    /// The formats of a still-capture stream, and of a raw stream (none when there is none).
    int32_t still_format_count;
    pc_lc_format still_formats[PC_LC_MAX_FORMATS];
    int32_t raw_format_count;
    pc_lc_format raw_formats[PC_LC_MAX_FORMATS];
    /// PC_LC_CONTROL_* bits for the controls the camera accepts in a request.
    uint32_t controls;
    /// Whether the sensor flips rows and columns itself (a half turn costs nothing then).
    /// Found out by configuring, so only known once opened: -1 in a listing.
    int32_t flips;
} pc_lc_camera_info;

/// The process's libcamera camera manager (libcamera allows one at a time).
typedef struct pc_lc_manager pc_lc_manager;
/// An acquired camera.
typedef struct pc_lc_camera pc_lc_camera;

/// Starts libcamera's camera manager; NULL with a message when it cannot.
pc_lc_manager *pc_lc_manager_create(char *error, size_t error_capacity);
/// Stops the manager; every camera opened from it must be closed first. NULL is ignored.
void pc_lc_manager_destroy(pc_lc_manager *manager);
/// libcamera's version, as compiled against ("0.0.3").
const char *pc_lc_version(void);

/// The version of this C interface: a caller that loads the shim at run time (dlopen) checks it
/// before calling anything else, so a shim built for another photocap is refused, not misused.
#define PC_LC_ABI_VERSION 2
int32_t pc_lc_abi_version(void);

/// Writes up to `capacity` cameras into `out` and returns how many there are in all, or
/// PC_LC_ERROR with a message.
int32_t pc_lc_manager_cameras(pc_lc_manager *manager, pc_lc_camera_info *out, int32_t capacity, char *error,
                              size_t error_capacity);

/// libcamera's ControlType, for pc_lc_control_info.type: none, then bool to size, numbered from 0.
enum { PC_LC_TYPE_NONE, PC_LC_TYPE_BOOL, PC_LC_TYPE_BYTE, PC_LC_TYPE_INT32, PC_LC_TYPE_INT64,
       PC_LC_TYPE_FLOAT, PC_LC_TYPE_STRING, PC_LC_TYPE_RECTANGLE, PC_LC_TYPE_SIZE };

/// A control a camera accepts in its requests, as libcamera describes it.
typedef struct pc_lc_control_info {
    /// libcamera's numeric id and name ("ExposureTime").
    uint32_t id;
    char name[64];
    /// PC_LC_TYPE_*; another type libcamera adds later is PC_LC_TYPE_NONE.
    int32_t type;
    /// Whether a value is an array of `type` (ColourGains: two floats).
    int32_t is_array;
    /// The range and the default, as text: numbers in the shortest form that reads back the
    /// same ("-1", "0.5", "66666"), true/false, or libcamera's own text for other types
    /// ("(0, 0)/640x480"). `default_value` is empty when the pipeline gives none.
    char minimum[64], maximum[64], default_value[64];
} pc_lc_control_info;

/// Writes up to `capacity` of the controls of camera `id` into `out`, sorted by id, and returns
/// how many it has in all; PC_LC_NOT_FOUND or PC_LC_ERROR with a message. The camera is not
/// acquired: a camera another process streams is listed too.
int32_t pc_lc_manager_controls(pc_lc_manager *manager, const char *id, pc_lc_control_info *out, int32_t capacity,
                               char *error, size_t error_capacity);

/// Acquires the camera `id` for this process. NULL with `*result` PC_LC_NOT_FOUND, PC_LC_BUSY or
/// PC_LC_ERROR (and a message) when it cannot; `info`, when not NULL, receives its listing.
pc_lc_camera *pc_lc_camera_open(pc_lc_manager *manager, const char *id, pc_lc_camera_info *info, int32_t *result,
                                char *error, size_t error_capacity);
/// Stops the camera if started, frees its buffers and releases it. NULL is ignored.
void pc_lc_camera_close(pc_lc_camera *camera);

/// A stream asked for: 0 in a field leaves it to the pipeline.
typedef struct pc_lc_stream_request {
    uint32_t fourcc;
    uint32_t width, height;
    uint32_t buffer_count;
} pc_lc_stream_request;

/// A stream as the pipeline configured it.
typedef struct pc_lc_stream {
    uint32_t fourcc;
    char name[32];
    uint32_t width, height, stride, frame_size, buffer_count;
} pc_lc_stream;

typedef struct pc_lc_configuration {
    /// Whether the pipeline changed what was asked for (size, format, buffers or transform).
    int32_t adjusted;
    /// The transform the pipeline will apply (PC_LC_TRANSFORM_*), after adjustment.
    int32_t transform;
    pc_lc_stream still;
    int32_t has_raw;
    pc_lc_stream raw;
} pc_lc_configuration;

/// Configures a still stream, and a raw one when `raw` is not NULL, with `transform`; allocates
/// and maps their buffers, and starts the camera. Stops a camera started before. Writes what the
/// pipeline accepted into `out`. Returns PC_LC_OK, PC_LC_INVALID, PC_LC_REMOVED or PC_LC_ERROR.
int32_t pc_lc_camera_configure(pc_lc_camera *camera, const pc_lc_stream_request *still, const pc_lc_stream_request *raw,
                               int32_t transform, pc_lc_configuration *out, char *error, size_t error_capacity);

/// Controls for one request: only those whose PC_LC_CONTROL_* bit is in `set`.
typedef struct pc_lc_request_controls {
    uint32_t set;
    int32_t exposure_time_us;
    float analogue_gain;
    pc_lc_rectangle scaler_crop;
    /// libcamera's AfMode: 0 manual, 1 auto, 2 continuous.
    int32_t af_mode;
    /// In dioptres (1 / metres); 0 is infinity.
    float lens_position;
} pc_lc_request_controls;

/// Queues a capture with `controls` (NULL: none). Controls the camera does not have are left out
/// and their bits put in `*ignored` (when not NULL). `cookie` comes back with the capture.
/// Returns PC_LC_OK, PC_LC_NO_BUFFER, PC_LC_REMOVED or PC_LC_ERROR. Keep two queued: some
/// drivers (vimc) start streaming only once two buffers are.
int32_t pc_lc_camera_queue(pc_lc_camera *camera, const pc_lc_request_controls *controls, uint64_t cookie,
                           uint32_t *ignored, char *error, size_t error_capacity);

/// One plane of a captured frame, mapped read-only.
typedef struct pc_lc_plane {
    const uint8_t *data;
    uint32_t length;
} pc_lc_plane;

typedef struct pc_lc_frame {
    int32_t plane_count;
    pc_lc_plane planes[3];
    uint32_t sequence;
} pc_lc_frame;

/// A completed request. Its planes stay mapped and its buffers out of use until
/// pc_lc_camera_release(camera, slot).
typedef struct pc_lc_capture {
    int32_t slot;
    uint64_t cookie;
    /// 0: complete; 1: cancelled (the camera stopped), with no frame.
    int32_t cancelled;
    /// PC_LC_CONTROL_* bits of the metadata present below.
    uint32_t metadata;
    int64_t sensor_timestamp_ns;
    int32_t exposure_time_us;
    float analogue_gain;
    pc_lc_rectangle scaler_crop;
    float lens_position;
    pc_lc_frame still;
    int32_t has_raw;
    pc_lc_frame raw;
} pc_lc_capture;

/// Waits at most `timeout_ms` for a completed request. Returns PC_LC_OK with `*out` filled,
/// PC_LC_TIMEOUT, PC_LC_REMOVED (the camera was unplugged: captures still pending come first),
/// or PC_LC_ERROR.
int32_t pc_lc_camera_wait(pc_lc_camera *camera, int32_t timeout_ms, pc_lc_capture *out, char *error,
                          size_t error_capacity);

/// Hands the buffers of a capture back for pc_lc_camera_queue.
void pc_lc_camera_release(pc_lc_camera *camera, int32_t slot);

#ifdef __cplusplus
}
#endif

#endif
