#ifndef PHOTOCAP_LIBCAMERA_LOADING_H
#define PHOTOCAP_LIBCAMERA_LOADING_H

// The shim of libcamera_shim.h is a shared library of its own (libphotocap-libcamera.so, the
// photocap-libcamera product), loaded with dlopen on first use: linked, libcamera and the 29
// libraries it needs would be loaded at every start of every program using PhotoCapture, and
// such a program would not start at all where libcamera is not installed.

#include <stddef.h>

#include "libcamera_shim.h"

/// The shim's file name, looked for beside the running executable, then on the library path.
#define PC_LC_SHIM_FILE "libphotocap-libcamera.so"

/// The shim's functions, named without their `pc_lc_` prefix.
#define PC_LC_FUNCTIONS(X) \
    X(abi_version) \
    X(version) \
    X(manager_create) \
    X(manager_destroy) \
    X(manager_cameras) \
    X(manager_controls) \
    X(camera_open) \
    X(camera_close) \
    X(camera_configure) \
    X(camera_queue) \
    X(camera_wait) \
    X(camera_release)

#define PC_LC_FIELD(name) __typeof__(pc_lc_##name) *_Nonnull name;

/// The shim's functions, each typed after the function it holds.
typedef struct {
    PC_LC_FUNCTIONS(PC_LC_FIELD)
} pc_lc_functions;

#undef PC_LC_FIELD

/// Loads the shim once per process, thread-safe: `PC_LC_SHIM_FILE` beside the running
/// executable if it is there, else by name from the library path. Returns its functions, or
/// NULL with the reason in `reason` (dlerror's text, which names a missing libcamera; or a shim
/// of another C interface version than `PC_LC_ABI_VERSION`). A failure is final for the process.
const pc_lc_functions *_Nullable pc_lc_load(char *_Nullable reason, size_t reason_size);

#endif
