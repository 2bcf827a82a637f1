#include "libcamera_loading.h"

#include <CLibraryLoading.h>

#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

// The file to open, chosen once by choose_file: a path beside the executable, or the bare name.
static char file[PATH_MAX];
PC_LIBRARY_DEFINE(functions, pc_lc_functions, file, "pc_lc_", PC_LC_FUNCTIONS);

static pthread_once_t once = PTHREAD_ONCE_INIT;
static const pc_lc_functions *loaded;
static char failure[sizeof library.failure + 64];

// photocap installs the shim beside its executables, as SwiftPM builds it; a packager that puts
// it elsewhere puts it on the library path.
static void choose_file(void) {
    char executable[PATH_MAX];
    ssize_t length = readlink("/proc/self/exe", executable, sizeof executable - 1);
    if (length > 0) {
        executable[length] = 0;
        char *slash = strrchr(executable, '/');
        if (slash != NULL) {
            slash[1] = 0;
            int written = snprintf(file, sizeof file, "%s%s", executable, PC_LC_SHIM_FILE);
            if (written > 0 && (size_t)written < sizeof file && access(file, F_OK) == 0) return;
        }
    }
    snprintf(file, sizeof file, "%s", PC_LC_SHIM_FILE);
}

static void load(void) {
    choose_file();
    char reason[sizeof library.failure];
    pc_lc_functions *opened = (pc_lc_functions *)pc_library_load(&library, reason, sizeof reason);
    if (opened == NULL) {
        snprintf(failure, sizeof failure, "%s", reason);
        return;
    }
    int32_t version = opened->abi_version();
    if (version != PC_LC_ABI_VERSION) {
        snprintf(failure, sizeof failure, "%s has C interface version %d, not %d: it belongs to another photocap", file,
                 (int)version, PC_LC_ABI_VERSION);
        return;
    }
    loaded = opened;
}

const pc_lc_functions *pc_lc_load(char *reason, size_t reason_size) {
    pthread_once(&once, load);
    if (loaded == NULL && reason != NULL && reason_size > 0) snprintf(reason, reason_size, "%s", failure);
    return loaded;
}
