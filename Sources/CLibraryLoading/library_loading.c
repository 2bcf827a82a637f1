#include "CLibraryLoading.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

// One lock for every library: each is loaded once, and later calls only read what it left.
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void *open_library(pc_library *library) {
    void *handle = dlopen(library->file, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        const char *error = dlerror();
        snprintf(library->failure, sizeof library->failure, "%s", error ? error : "dlopen failed");
        return NULL;
    }
    for (size_t index = 0; index < library->count; index++) {
        char symbol[128];
        snprintf(symbol, sizeof symbol, "%s%s", library->prefix, library->names[index]);
        library->functions[index] = dlsym(handle, symbol);
        if (library->functions[index] == NULL) {
            snprintf(library->failure, sizeof library->failure, "%s has no %s", library->file, symbol);
            dlclose(handle);
            return NULL;
        }
    }
    return handle;
}

void **pc_library_load(pc_library *library, char *reason, size_t reason_size) {
    pthread_mutex_lock(&lock);
    if (!library->attempted) {
        library->handle = open_library(library);
        library->attempted = 1;
    }
    void *handle = library->handle;
    if (handle == NULL && reason != NULL && reason_size > 0) snprintf(reason, reason_size, "%s", library->failure);
    pthread_mutex_unlock(&lock);
    return handle ? library->functions : NULL;
}
