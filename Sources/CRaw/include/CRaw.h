#pragma once
// The one seam to LibRaw (its thread-safe build, libraw_r). It is loaded with dlopen on first
// use, not linked: linked, it and what it needs (libgomp, liblcms2) were mapped and relocated at
// every photocap start-up (~0.4 ms), for the runs that read or develop RAW data only.
// Its own header gives each function's type; pc_raw_load finds them all.
#include <stddef.h>
#include <libraw/libraw.h>

/// The LibRaw functions photocap calls, named without their `libraw_` prefix.
#define PC_RAW_FUNCTIONS(X) \
    X(init) \
    X(set_dataerror_handler) \
    X(open_buffer) \
    X(unpack) \
    X(recycle_datastream) \
    X(free_image) \
    X(close) \
    X(strerror) \
    X(COLOR) \
    X(dcraw_process) \
    X(dcraw_make_mem_image) \
    X(dcraw_clear_mem)

#define PC_RAW_FIELD(name) __typeof__(libraw_##name) *_Nonnull name;

/// LibRaw's functions, each typed after the function it holds.
typedef struct {
    PC_RAW_FUNCTIONS(PC_RAW_FIELD)
} pc_raw_functions;

#undef PC_RAW_FIELD

/// Loads LibRaw (libraw_r.so.N, N from the header built against: 20 on Debian 12) once per process,
/// thread-safe, and returns its functions; NULL when it cannot be loaded, with the reason in
/// `reason`.
const pc_raw_functions *_Nullable pc_raw_load(char *_Nullable reason, size_t reason_size);
