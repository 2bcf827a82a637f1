// Errors handed back through the C seam: Swift cannot catch C++ exceptions, so every call into
// OpenCV runs inside `guarded`, and failures come back as a return value with a message.
#ifndef PHOTOCAP_ERROR_MESSAGE_H
#define PHOTOCAP_ERROR_MESSAGE_H

#include <cerrno>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>

/// Copies `message` into `error` (at most `capacity` bytes, NUL-terminated); a NULL or empty
/// buffer is left alone.
inline void write_error(char *error, size_t capacity, const char *message) {
    if (error == nullptr || capacity == 0) return;
    std::strncpy(error, message, capacity - 1);
    error[capacity - 1] = '\0';
}

/// Whether `path` can be opened for reading; if not, the system's reason goes into `error`.
/// Model files are checked so first: OpenCV logs a missing file to the app's stderr, or names it
/// inside a long assertion text, before failing.
inline bool file_readable(const char *path, char *error, size_t capacity) {
    if (FILE *file = std::fopen(path, "rb")) {
        std::fclose(file);
        return true;
    }
    write_error(error, capacity, std::strerror(errno));
    return false;
}

/// `body()`, or `failed` with the exception's message in `error` when it throws; `doing` names
/// the work for exceptions that carry no message.
template <typename Result, typename Body>
Result guarded(Body body, Result failed, const char *doing, char *error, size_t capacity) {
    try {
        return body();
    } catch (const std::exception &exception) {
        write_error(error, capacity, exception.what());
    } catch (...) {
        write_error(error, capacity, (std::string("unknown C++ exception while ") + doing).c_str());
    }
    return failed;
}

#endif
