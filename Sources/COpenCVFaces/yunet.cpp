// YuNet through OpenCV's dnn module. Debian 12's OpenCV (4.6) has cv::FaceDetectorYN, but it asks
// the 2023 model for the 2022 model's output names and fails, so the network is run here and its
// outputs decoded as OpenCV 4.8's modules/objdetect/src/face_detect.cpp decodes them. Every call
// into OpenCV is guarded (error_message.h).
#include "opencv_faces.h"
#include "error_message.h"
#include "luma_detection.h"

#include <opencv2/core.hpp>
#include <opencv2/dnn.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

extern "C" const unsigned char pc_yunet_model[];
extern "C" const size_t pc_yunet_model_size;

namespace {

/// The strides of YuNet's three output levels; the input's sides must be multiples of the last.
constexpr int strides[3] = {8, 16, 32};

/// The outputs, level by level: class score, objectness, box and landmarks.
const std::vector<std::string> output_names = {"cls_8", "cls_16", "cls_32", "obj_8", "obj_16", "obj_32",
                                               "bbox_8", "bbox_16", "bbox_32", "kps_8", "kps_16", "kps_32"};

float clamped(float value) { return std::min(std::max(value, 0.0f), 1.0f); }

/// The faces scoring at least `threshold` in the outputs of a `padded`-sized input, in its pixels.
std::vector<pc_face_detection> decode(const std::vector<cv::Mat> &outputs, cv::Size padded, float threshold) {
    std::vector<pc_face_detection> faces;
    for (int level = 0; level < 3; level++) {
        const int stride = strides[level];
        const int rows = padded.height / stride, cols = padded.width / stride;
        const float *cls = outputs[level].ptr<float>();
        const float *obj = outputs[level + 3].ptr<float>();
        const float *bbox = outputs[level + 6].ptr<float>();
        const float *kps = outputs[level + 9].ptr<float>();
        for (int r = 0; r < rows; r++) {
            for (int c = 0; c < cols; c++) {
                const int index = r * cols + c;
                const float score = std::sqrt(clamped(cls[index]) * clamped(obj[index]));
                if (score < threshold) continue;
                const float *box = bbox + 4 * index;
                const float cx = (c + box[0]) * stride, cy = (r + box[1]) * stride;
                const float w = std::exp(box[2]) * stride, h = std::exp(box[3]) * stride;
                pc_face_detection face{cx - w / 2, cy - h / 2, w, h, score, {}};
                for (int n = 0; n < 5; n++) {
                    face.landmarks[n] = pc_point{(kps[10 * index + 2 * n] + c) * stride,
                                                 (kps[10 * index + 2 * n + 1] + r) * stride};
                }
                faces.push_back(face);
            }
        }
    }
    return faces;
}

/// Runs `net` on a grey picture padded with black to multiples of 32 (as YuNet was trained: the
/// grey repeated in the three BGR planes, no mean, no scale).
std::vector<cv::Mat> run(cv::dnn::Net &net, const cv::Mat &grey, cv::Size &padded) {
    padded = cv::Size((grey.cols + 31) / 32 * 32, (grey.rows + 31) / 32 * 32);
    cv::Mat bgr, input;
    cv::cvtColor(grey, bgr, cv::COLOR_GRAY2BGR);
    cv::copyMakeBorder(bgr, input, 0, padded.height - grey.rows, 0, padded.width - grey.cols,
                       cv::BORDER_CONSTANT, cv::Scalar::all(0));
    net.setInput(cv::dnn::blobFromImage(input));
    std::vector<cv::Mat> outputs;
    net.forward(outputs, output_names);
    return outputs;
}

}  // namespace

struct pc_yunet {
    cv::dnn::Net net;
};

/// Checks `net` by running it once on a small picture: a model without YuNet's outputs fails here
/// rather than at the first detection.
static pc_yunet *checked(cv::dnn::Net net, char *error, size_t error_capacity) {
    if (net.empty()) {
        write_error(error, error_capacity, "OpenCV read no network from the model");
        return nullptr;
    }
    net.setPreferableBackend(cv::dnn::DNN_BACKEND_OPENCV);
    net.setPreferableTarget(cv::dnn::DNN_TARGET_CPU);
    cv::Size padded;
    const std::vector<cv::Mat> outputs = run(net, cv::Mat(32, 32, CV_8UC1, cv::Scalar::all(0)), padded);
    for (int level = 0; level < 3; level++) {
        const size_t cells = static_cast<size_t>(32 / strides[level]) * (32 / strides[level]);
        const size_t expected[4] = {cells, cells, 4 * cells, 10 * cells};
        for (int kind = 0; kind < 4; kind++) {
            const cv::Mat &output = outputs[level + 3 * kind];
            if (output.type() != CV_32F || output.total() != expected[kind]) {
                write_error(error, error_capacity, ("the model's output " + output_names[level + 3 * kind] +
                                                    " does not have YuNet's shape").c_str());
                return nullptr;
            }
        }
    }
    return new pc_yunet{net};
}

extern "C" pc_yunet *pc_yunet_create_embedded(char *error, size_t error_capacity) {
    return guarded(
        [&] {
            return checked(cv::dnn::readNetFromONNX(reinterpret_cast<const char *>(pc_yunet_model), pc_yunet_model_size),
                           error, error_capacity);
        },
        static_cast<pc_yunet *>(nullptr), "loading YuNet", error, error_capacity);
}

extern "C" pc_yunet *pc_yunet_create(const char *path, char *error, size_t error_capacity) {
    if (!file_readable(path, error, error_capacity)) return nullptr;
    return guarded([&] { return checked(cv::dnn::readNetFromONNX(path), error, error_capacity); },
                   static_cast<pc_yunet *>(nullptr), "loading the model", error, error_capacity);
}

extern "C" void pc_yunet_destroy(pc_yunet *yunet) {
    delete yunet;
}

extern "C" int32_t pc_yunet_detect(pc_yunet *yunet, const uint8_t *luma, int32_t width, int32_t height, int32_t stride,
                                   float score_threshold, float nms_threshold,
                                   pc_face_detection *out, int32_t capacity, char *error, size_t error_capacity) {
    return detect_in_luma(yunet, luma, width, height, stride, error, error_capacity, [&](const cv::Mat &picture) {
        cv::Size padded;
        const std::vector<pc_face_detection> faces = decode(run(yunet->net, picture, padded), padded, score_threshold);
        std::vector<cv::Rect2d> boxes;
        std::vector<float> scores;
        for (const pc_face_detection &face : faces) {
            boxes.emplace_back(face.x, face.y, face.width, face.height);
            scores.push_back(face.score);
        }
        std::vector<int> kept;
        cv::dnn::NMSBoxes(boxes, scores, score_threshold, nms_threshold, kept, 1.0f, 5000);
        const size_t written = std::min(kept.size(), static_cast<size_t>(capacity > 0 ? capacity : 0));
        for (size_t index = 0; index < written; index++) out[index] = faces[kept[index]];
        return kept.size();
    });
}
