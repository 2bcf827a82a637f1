#include "CHeif.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

static pc_heif_functions functions;
static const pc_heif_functions *loaded;
static char failure[256];
static pthread_once_t load_once = PTHREAD_ONCE_INIT;

static void load(void) {
    void *handle = dlopen("libheif.so.1", RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        const char *error = dlerror();
        snprintf(failure, sizeof failure, "%s", error ? error : "dlopen failed");
        return;
    }
#define PC_HEIF_SYMBOL(name)                                                              \
    *(void **)&functions.name = dlsym(handle, "heif_" #name);                             \
    if (functions.name == NULL) {                                                         \
        snprintf(failure, sizeof failure, "libheif.so.1 has no heif_%s", #name);          \
        return;                                                                           \
    }
    PC_HEIF_FUNCTIONS(PC_HEIF_SYMBOL)
#undef PC_HEIF_SYMBOL
    // The library stays loaded for the life of the process.
    loaded = &functions;
}

const pc_heif_functions *pc_heif_load(char *reason, size_t reason_size) {
    pthread_once(&load_once, load);
    if (loaded == NULL && reason != NULL && reason_size > 0) snprintf(reason, reason_size, "%s", failure);
    return loaded;
}
