// The way into every detector (faces.cpp, yunet.cpp): the handle and the picture checked, the
// caller's pixels wrapped without copying, and the detection guarded (error_message.h).
#ifndef PHOTOCAP_LUMA_DETECTION_H
#define PHOTOCAP_LUMA_DETECTION_H

#include "error_message.h"

#include <opencv2/core.hpp>

#include <cstdint>

/// `detect(picture)` on the caller's `width` x `height` luma rows, `stride` bytes apart; -1 with
/// the reason in `error` when the handle or the picture is invalid or OpenCV throws.
template <typename Detect>
int32_t detect_in_luma(const void *handle, const uint8_t *luma, int32_t width, int32_t height, int32_t stride,
                       char *error, size_t error_capacity, Detect detect) {
    if (handle == nullptr || luma == nullptr || width <= 0 || height <= 0 || stride < width) {
        write_error(error, error_capacity, "invalid picture or handle");
        return -1;
    }
    return guarded(
        [&] {
            const cv::Mat picture(height, width, CV_8UC1, const_cast<uint8_t *>(luma), static_cast<size_t>(stride));
            return static_cast<int32_t>(detect(picture));
        },
        int32_t(-1), "detecting faces", error, error_capacity);
}

#endif
