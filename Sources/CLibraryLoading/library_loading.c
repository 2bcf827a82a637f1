#include "CLibraryLoading.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

// Taken only by the first calls for a library; once it is loaded or has failed, its state is
// read without the lock (it is published last, with release order, and never changes again).
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static int open_library(pc_library *library) {
    void *handle = dlopen(library->file, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        const char *error = dlerror();
        snprintf(library->failure, sizeof library->failure, "%s", error ? error : "dlopen failed");
        return PC_LIBRARY_FAILED;
    }
    for (size_t index = 0; index < library->count; index++) {
        char symbol[128];
        snprintf(symbol, sizeof symbol, "%s%s", library->prefix, library->names[index]);
        library->functions[index] = dlsym(handle, symbol);
        if (library->functions[index] == NULL) {
            snprintf(library->failure, sizeof library->failure, "%s has no %s", library->file, symbol);
            dlclose(handle);
            return PC_LIBRARY_FAILED;
        }
    }
    return PC_LIBRARY_LOADED;
}

void **pc_library_load(pc_library *library, char *reason, size_t reason_size) {
    int state = __atomic_load_n(&library->state, __ATOMIC_ACQUIRE);
    if (state == PC_LIBRARY_UNTRIED) {
        pthread_mutex_lock(&lock);
        state = __atomic_load_n(&library->state, __ATOMIC_RELAXED);
        if (state == PC_LIBRARY_UNTRIED) {
            state = open_library(library);
            __atomic_store_n(&library->state, state, __ATOMIC_RELEASE);
        }
        pthread_mutex_unlock(&lock);
    }
    if (state == PC_LIBRARY_LOADED) return library->functions;
    if (reason != NULL && reason_size > 0) snprintf(reason, reason_size, "%s", library->failure);
    return NULL;
}
