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

/// YuNet, the CNN face detector of OpenCV's model zoo, run by OpenCV's dnn module; owned by the
/// caller: create with pc_yunet_create or pc_yunet_create_embedded, release with
/// pc_yunet_destroy. One handle must not be used by two threads at once.
typedef struct pc_yunet pc_yunet;

/// A point in a picture's pixels (origin top-left).
typedef struct pc_point {
    float x, y;
} pc_point;

/// A face YuNet found, in the picture's pixels (origin top-left).
typedef struct pc_face_detection {
    float x, y, width, height;
    /// The model's confidence, 0...1.
    float score;
    /// The right eye, the left eye, the nose tip, the right and the left mouth corner (the
    /// person's right and left).
    pc_point landmarks[5];
} pc_face_detection;

/// Loads the YuNet model built into the library (face_detection_yunet_2023mar.onnx). Returns NULL
/// and writes a message into `error` when OpenCV cannot run it.
pc_yunet *pc_yunet_create_embedded(char *error, size_t error_capacity);

/// Loads a YuNet ONNX model from `path`. Returns NULL and writes a message into `error` when the
/// file cannot be read or is not a model with YuNet's outputs (checked by running it once).
pc_yunet *pc_yunet_create(const char *path, char *error, size_t error_capacity);

/// Releases a handle made by pc_yunet_create or pc_yunet_create_embedded; NULL is ignored.
void pc_yunet_destroy(pc_yunet *yunet);

/// Finds faces in an 8-bit grey picture of `width` x `height` with `stride` bytes per row: the
/// faces scoring at least `score_threshold`, boxes overlapping a better one by more than
/// `nms_threshold` (intersection over union) removed. Writes up to `capacity` faces into `out`,
/// best first, and returns how many were found in all (which may exceed `capacity`), or -1 with
/// a message in `error` when OpenCV failed.
int32_t pc_yunet_detect(pc_yunet *yunet, const uint8_t *luma, int32_t width, int32_t height, int32_t stride,
                        float score_threshold, float nms_threshold,
                        pc_face_detection *out, int32_t capacity, char *error, size_t error_capacity);

/// Sets the number of threads OpenCV may use (0 or 1: the calling thread only).
void pc_faces_set_threads(int32_t count);

#ifdef __cplusplus
}
#endif

#endif
