#include "CTIFF.h"

#include <CLibraryLoading.h>

// The soname of the libtiff built against. TIFFOpenOptions, which photocap uses, came with 4.5,
// which is also when the soname became libtiff.so.6.
#if TIFFLIB_MAJOR_VERSION != 4 || TIFFLIB_MINOR_VERSION < 5
#error "photocap needs libtiff 4.5 or later; for a newer major version, add its soname here"
#endif

PC_LIBRARY_DEFINE(functions, pc_tiff_functions, "libtiff.so.6", "TIFF", PC_TIFF_FUNCTIONS);

const pc_tiff_functions *pc_tiff_load(char *reason, size_t reason_size) {
    return (const pc_tiff_functions *)pc_library_load(&library, reason, reason_size);
}
