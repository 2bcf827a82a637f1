#include "CHeif.h"

#include <CLibraryLoading.h>

PC_LIBRARY_DEFINE(functions, pc_heif_functions, "libheif.so.1", "heif_", PC_HEIF_FUNCTIONS);

const pc_heif_functions *pc_heif_load(char *reason, size_t reason_size) {
    return (const pc_heif_functions *)pc_library_load(&library, reason, reason_size);
}
