#pragma once
// How photocap's seams load a C library at run time instead of linking it: a linked library is
// mapped, relocated and initialised at every start-up, with all it needs, for every run; loaded
// on first use, only the runs that use it pay.
#include <stddef.h>

/// A library a seam loads on first use: what to open and find, and what came of it. A seam
/// keeps one, static, with the first five fields set.
typedef struct {
    /// The shared library's file name (its soname).
    const char *_Nonnull file;
    /// What each function's symbol starts with.
    const char *_Nonnull prefix;
    /// The functions, without the prefix, in the order of their slots in `functions`.
    const char *_Nonnull const *_Nonnull names;
    size_t count;
    /// Where the functions go: `count` pointers (a struct of them, cast).
    void *_Nullable *_Nonnull functions;
    /// Set by pc_library_load: a PC_LIBRARY_* state, and why it failed.
    int state;
    char failure[256];
} pc_library;

/// A library's state: not tried yet (zero, as a static starts), loaded, or failed for good.
enum { PC_LIBRARY_UNTRIED = 0, PC_LIBRARY_LOADED = 1, PC_LIBRARY_FAILED = 2 };

/// Loads `library` the first time it is called for it (dlopen with RTLD_NOW | RTLD_LOCAL, then
/// every function looked up; thread-safe, and lock-free after that) and returns its functions, or NULL with the reason
/// in `reason` (dlerror's text, or the function the library lacks). A library that loaded stays
/// loaded for the life of the process; one that failed is not tried again.
void *_Nullable *_Nullable pc_library_load(pc_library *_Nonnull library, char *_Nullable reason, size_t reason_size);

/// The members of an X-macro list of functions: PC_LIBRARY_NAME makes the names, and
/// PC_LIBRARY_COUNT counts them (`0 LIST(PC_LIBRARY_COUNT)`).
#define PC_LIBRARY_NAME(name) #name,
#define PC_LIBRARY_COUNT(name) +1

/// A seam's library from an X-macro list of its functions: the static `functions` of `type` (one
/// pointer a function, in the list's order), their names, the static pc_library `library` that
/// opens `file` and finds each as `prefix` + name, and a build-time check that the two agree.
#define PC_LIBRARY_DEFINE(functions, type, file, prefix, LIST)                                        \
    static type functions;                                                                             \
    static const char *const functions##_names[] = {LIST(PC_LIBRARY_NAME)};                           \
    static pc_library library = {file, prefix, functions##_names, 0 LIST(PC_LIBRARY_COUNT), (void **)&functions}; \
    _Static_assert(sizeof functions == sizeof functions##_names / sizeof functions##_names[0] * sizeof(void *), \
                   "one pointer per function")
