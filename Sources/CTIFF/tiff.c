#include "CTIFF.h"

#include <CLibraryLoading.h>

// The soname of the libtiff built against. TIFFOpenOptions, which photocap uses, came with 4.5,
// which is also when the soname became libtiff.so.6.
#if TIFFLIB_MAJOR_VERSION != 4 || TIFFLIB_MINOR_VERSION < 5
#error "photocap needs libtiff 4.5 or later; for a newer major version, add its soname here"
#endif

static pc_tiff_functions functions;
static const char *const names[] = {PC_TIFF_FUNCTIONS(PC_LIBRARY_NAME)};
static pc_library library = {"libtiff.so.6", "TIFF", names, 0 PC_TIFF_FUNCTIONS(PC_LIBRARY_COUNT), (void **)&functions};
_Static_assert(sizeof functions == sizeof names / sizeof names[0] * sizeof(void *), "one pointer per function");

const pc_tiff_functions *pc_tiff_load(char *reason, size_t reason_size) {
    return (const pc_tiff_functions *)pc_library_load(&library, reason, reason_size);
}
