#ifndef PHOTOCAP_OPENCV_FACES_H
#define PHOTOCAP_OPENCV_FACES_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// An OpenCV cascade classifier, owned by the caller: create with pc_faces_create, release with
/// pc_faces_destroy. One handle must not be used by two threads at once.
typedef struct pc_faces pc_faces;

/// A face found in a picture, in its pixels (origin top-left).
typedef struct pc_face_rect {
    int32_t x, y, width, height;
} pc_face_rect;

/// Loads the cascade at `path` (an OpenCV XML model). Returns NULL and writes a message into
/// `error` (at most `error_capacity` bytes, NUL-terminated) when it cannot.
pc_faces *pc_faces_create(const char *path, char *error, size_t error_capacity);

/// Releases a handle made by pc_faces_create; NULL is ignored.
void pc_faces_destroy(pc_faces *faces);

/// Finds faces in an 8-bit grey picture of `width` x `height` with `stride` bytes per row.
/// Faces smaller than `min_size` pixels are not looked for; `scale_factor` (> 1) is the step
/// between the scales searched and `min_neighbors` the number of overlapping hits a face needs.
/// Writes up to `capacity` faces into `out` and returns how many were found in all (which may
/// exceed `capacity`), or -1 with a message in `error` when OpenCV failed.
int32_t pc_faces_detect(pc_faces *faces, const uint8_t *luma, int32_t width, int32_t height, int32_t stride,
                        double scale_factor, int32_t min_neighbors, int32_t min_size,
                        pc_face_rect *out, int32_t capacity, char *error, size_t error_capacity);

/// Sets the number of threads OpenCV may use (0 or 1: the calling thread only).
void pc_faces_set_threads(int32_t count);

#ifdef __cplusplus
}
#endif

#endif
