#include "CHeif.h"

#include <CLibraryLoading.h>

static pc_heif_functions functions;
static const char *const names[] = {PC_HEIF_FUNCTIONS(PC_LIBRARY_NAME)};
static pc_library library = {"libheif.so.1", "heif_", names, 0 PC_HEIF_FUNCTIONS(PC_LIBRARY_COUNT), (void **)&functions};
_Static_assert(sizeof functions == sizeof names / sizeof names[0] * sizeof(void *), "one pointer per function");

const pc_heif_functions *pc_heif_load(char *reason, size_t reason_size) {
    return (const pc_heif_functions *)pc_library_load(&library, reason, reason_size);
}
