#include "CRaw.h"

#include <CLibraryLoading.h>

// LibRaw's libtool soname is libraw_r.so.(current - age), from the header built against.
#if LIBRAW_SHLIB_AGE != 0
#error "LibRaw's soname is no longer libraw_r.so.LIBRAW_SHLIB_CURRENT: compute it here"
#endif
#define PC_STRING(text) #text
#define PC_SONAME(current) "libraw_r.so." PC_STRING(current)

static pc_raw_functions functions;
static const char *const names[] = {PC_RAW_FUNCTIONS(PC_LIBRARY_NAME)};
static pc_library library = {PC_SONAME(LIBRAW_SHLIB_CURRENT), "libraw_", names, 0 PC_RAW_FUNCTIONS(PC_LIBRARY_COUNT),
                             (void **)&functions};
_Static_assert(sizeof functions == sizeof names / sizeof names[0] * sizeof(void *), "one pointer per function");

const pc_raw_functions *pc_raw_load(char *reason, size_t reason_size) {
    return (const pc_raw_functions *)pc_library_load(&library, reason, reason_size);
}
