// OpenCV's cascade classifiers. Every call into OpenCV is guarded (error_message.h).
#include "opencv_faces.h"
#include "error_message.h"
#include "luma_detection.h"

#include <opencv2/core.hpp>
#include <opencv2/objdetect.hpp>

#include <algorithm>
#include <new>
#include <vector>

struct pc_faces {
    cv::CascadeClassifier classifier;
};

extern "C" pc_faces *pc_faces_create(const char *path, char *error, size_t error_capacity) {
    if (!file_readable(path, error, error_capacity)) return nullptr;
    return guarded(
        [&]() -> pc_faces * {
            pc_faces *faces = new pc_faces();
            if (!faces->classifier.load(path)) {
                delete faces;
                write_error(error, error_capacity, "OpenCV could not load the cascade");
                return nullptr;
            }
            return faces;
        },
        static_cast<pc_faces *>(nullptr), "loading the cascade", error, error_capacity);
}

extern "C" void pc_faces_destroy(pc_faces *faces) {
    delete faces;
}

extern "C" int32_t pc_faces_detect(pc_faces *faces, const uint8_t *luma, int32_t width, int32_t height, int32_t stride,
                                   double scale_factor, int32_t min_neighbors, int32_t min_size,
                                   pc_face_rect *out, int32_t capacity, char *error, size_t error_capacity) {
    return detect_in_luma(faces, luma, width, height, stride, error, error_capacity, [&](const cv::Mat &picture) {
        std::vector<cv::Rect> found;
        faces->classifier.detectMultiScale(picture, found, scale_factor, min_neighbors, 0, cv::Size(min_size, min_size));
        const size_t written = std::min(found.size(), static_cast<size_t>(capacity > 0 ? capacity : 0));
        for (size_t index = 0; index < written; index++) {
            out[index] = pc_face_rect{found[index].x, found[index].y, found[index].width, found[index].height};
        }
        return found.size();
    });
}

extern "C" void pc_faces_set_threads(int32_t count) {
    try {
        cv::setNumThreads(count);
    } catch (...) {
        // Keeping OpenCV's default thread count is harmless.
    }
}
