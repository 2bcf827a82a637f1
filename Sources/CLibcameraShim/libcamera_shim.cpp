// libcamera behind the C interface of include/libcamera_shim.h. libcamera calls back on its own
// thread (requestCompleted, disconnected); those callbacks only queue and signal, so a caller's
// thread never runs inside libcamera's and every wait is bounded.

#include "CLibcameraShim.h"

#include <libcamera/camera.h>
#include <libcamera/camera_manager.h>
#include <libcamera/control_ids.h>
#include <libcamera/framebuffer_allocator.h>
#include <libcamera/property_ids.h>
#include <libcamera/request.h>
#include <libcamera/stream.h>
#include <libcamera/transform.h>
#include <libcamera/version.h>
#if LIBCAMERA_VERSION_MAJOR > 0 || LIBCAMERA_VERSION_MINOR >= 2
#include <libcamera/orientation.h>
#endif

#include <dirent.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "error_message.h"

using namespace libcamera;

#define PC_LC_VERSION_AT_LEAST(major, minor) \
    (LIBCAMERA_VERSION_MAJOR > (major) || (LIBCAMERA_VERSION_MAJOR == (major) && LIBCAMERA_VERSION_MINOR >= (minor)))

namespace {

template <size_t N> void copy_string(char (&out)[N], const std::string &text) {
    std::strncpy(out, text.c_str(), N - 1);
    out[N - 1] = '\0';
}

// 0.2 replaced CameraConfiguration::transform with `orientation`, the picture's orientation
// asked for, from which the pipeline derives the transform. (Only 0.0.3, Debian 12's, has been
// compiled and run; this branch follows 0.2's headers.)
Transform configured_transform(const CameraConfiguration &config) {
#if PC_LC_VERSION_AT_LEAST(0, 2)
    return config.orientation / Orientation::Rotate0;
#else
    return config.transform;
#endif
}

void set_transform(CameraConfiguration &config, Transform transform) {
#if PC_LC_VERSION_AT_LEAST(0, 2)
    config.orientation = Orientation::Rotate0 * transform;
#else
    config.transform = transform;
#endif
}

// Whether a format is a sensor's own data: Bayer (SBGGR10, SRGGB12_CSI2P...) or mono (R8, R10...).
// libcamera's PixelFormatInfo, which knows, is internal; its names follow this pattern.
bool is_raw(const PixelFormat &format) {
    const std::string name = format.toString();
    for (const char *order : {"SBGGR", "SGBRG", "SGRBG", "SRGGB"})
        if (name.rfind(order, 0) == 0) return true;
    return name.size() >= 2 && name[0] == 'R' && std::isdigit(static_cast<unsigned char>(name[1]));
}

// A pipeline without a raw path answers the Raw role with processed formats (vimc does): those
// are left out, so `raw_only` lists only what really is raw.
void fill_formats(const StreamFormats &formats, pc_lc_format *out, int32_t *count, bool raw_only = false) {
    *count = 0;
    for (const PixelFormat &format : formats.pixelformats()) {
        if (*count == PC_LC_MAX_FORMATS) break;
        if (raw_only && !is_raw(format)) continue;
        pc_lc_format &f = out[(*count)++];
        std::memset(&f, 0, sizeof f);
        f.fourcc = format.fourcc();
        f.modifier = format.modifier();
        copy_string(f.name, format.toString());
        SizeRange range = formats.range(format);
        f.min = {range.min.width, range.min.height};
        f.max = {range.max.width, range.max.height};
        for (const Size &size : formats.sizes(format)) {
            if (f.size_count == PC_LC_MAX_SIZES) break;
            f.sizes[f.size_count++] = {size.width, size.height};
        }
    }
}

uint32_t control_bits(const ControlInfoMap &controls) {
    uint32_t bits = 0;
    if (controls.count(&controls::ExposureTime)) bits |= PC_LC_CONTROL_EXPOSURE_TIME;
    if (controls.count(&controls::AnalogueGain)) bits |= PC_LC_CONTROL_ANALOGUE_GAIN;
    if (controls.count(&controls::ScalerCrop)) bits |= PC_LC_CONTROL_SCALER_CROP;
    if (controls.count(&controls::AfMode)) bits |= PC_LC_CONTROL_AF_MODE;
    if (controls.count(&controls::LensPosition)) bits |= PC_LC_CONTROL_LENS_POSITION;
    return bits;
}

// A value as text: numbers in the shortest form that reads back the same, true/false, and
// libcamera's own text for the rest. Only single values: an array's bounds are single values.
std::string value_text(const ControlValue &value) {
    if (value.isNone()) return "";
    if (value.isArray()) return value.toString();
    char text[64];
    switch (value.type()) {
    case ControlTypeBool: return value.get<bool>() ? "true" : "false";
    case ControlTypeByte: return std::to_string(value.get<uint8_t>());
    case ControlTypeInteger32: return std::to_string(value.get<int32_t>());
    case ControlTypeInteger64: return std::to_string(value.get<int64_t>());
    case ControlTypeFloat:
        std::snprintf(text, sizeof text, "%.9g", double(value.get<float>()));
        // %.9g reads back exactly; shorter when a shorter form does (0.5, not 0.500000000).
        for (int digits = 1; digits < 9; digits++) {
            char shorter[64];
            std::snprintf(shorter, sizeof shorter, "%.*g", digits, double(value.get<float>()));
            if (std::strtof(shorter, nullptr) == value.get<float>()) return shorter;
        }
        return text;
    default: return value.toString();
    }
}

int32_t control_type(ControlType type) {
    switch (type) {
    case ControlTypeBool: return PC_LC_TYPE_BOOL;
    case ControlTypeByte: return PC_LC_TYPE_BYTE;
    case ControlTypeInteger32: return PC_LC_TYPE_INT32;
    case ControlTypeInteger64: return PC_LC_TYPE_INT64;
    case ControlTypeFloat: return PC_LC_TYPE_FLOAT;
    case ControlTypeString: return PC_LC_TYPE_STRING;
    case ControlTypeRectangle: return PC_LC_TYPE_RECTANGLE;
    case ControlTypeSize: return PC_LC_TYPE_SIZE;
    default: return PC_LC_TYPE_NONE;
    }
}

void describe(Camera &camera, pc_lc_camera_info *out) {
    std::memset(out, 0, sizeof *out);
    copy_string(out->id, camera.id());
    const ControlList &properties = camera.properties();
    copy_string(out->model, properties.get(properties::Model).value_or(""));
    out->location = properties.get(properties::Location).value_or(PC_LC_LOCATION_UNKNOWN);
    out->rotation = properties.get(properties::Rotation).value_or(-1);
    if (auto size = properties.get(properties::PixelArraySize)) out->pixel_array = {size->width, size->height};
    out->controls = control_bits(camera.controls());
    out->flips = -1;
    // The formats are the configuration's, which a camera generates without being acquired.
    if (auto config = camera.generateConfiguration({StreamRole::StillCapture}); config && !config->empty()) {
        fill_formats(config->at(0).formats(), out->still_formats, &out->still_format_count);
        // A range's maximum as the pipeline delivers it, which validating finds (no acquire
        // needed): vimc's scaler only triples, so its 4096x2160 is 4095x2160. A caller that asks
        // for the maximum then gets that size, not an adjusted one.
        StreamConfiguration &stream = config->at(0);
        for (int32_t index = 0; index < out->still_format_count; index++) {
            pc_lc_format &format = out->still_formats[index];
            stream.pixelFormat = PixelFormat(format.fourcc, format.modifier);
            stream.size = Size(format.max.width, format.max.height);
            if (config->validate() != CameraConfiguration::Invalid && stream.pixelFormat.fourcc() == format.fourcc)
                format.max = {stream.size.width, stream.size.height};
        }
    }
    if (auto config = camera.generateConfiguration({StreamRole::Raw}); config && !config->empty())
        fill_formats(config->at(0).formats(), out->raw_formats, &out->raw_format_count, true);
}

void describe_stream(const StreamConfiguration &config, pc_lc_stream *out) {
    std::memset(out, 0, sizeof *out);
    out->fourcc = config.pixelFormat.fourcc();
    copy_string(out->name, config.pixelFormat.toString());
    out->width = config.size.width;
    out->height = config.size.height;
    out->stride = config.stride;
    out->frame_size = config.frameSize;
    out->buffer_count = config.bufferCount;
}

void apply_request(StreamConfiguration &config, const pc_lc_stream_request &request) {
    if (request.fourcc) config.pixelFormat = PixelFormat(request.fourcc);
    if (request.width && request.height) config.size = Size(request.width, request.height);
    if (request.buffer_count) config.bufferCount = request.buffer_count;
}

/// A buffer's planes mapped once: planes often share one dmabuf at different offsets.
struct Mapping {
    std::vector<std::pair<void *, size_t>> maps;
    std::map<const FrameBuffer *, std::vector<const uint8_t *>> planes;

    bool map(const FrameBuffer *buffer, std::string &problem) {
        std::map<int, std::pair<uint8_t *, size_t>> by_fd;
        for (const FrameBuffer::Plane &plane : buffer->planes()) {
            size_t end = size_t(plane.offset) + plane.length;
            auto &entry = by_fd[plane.fd.get()];
            entry.second = std::max(entry.second, end);
        }
        for (auto &[fd, entry] : by_fd) {
            void *address = mmap(nullptr, entry.second, PROT_READ, MAP_SHARED, fd, 0);
            if (address == MAP_FAILED) {
                problem = std::string("mmap: ") + std::strerror(errno);
                return false;
            }
            maps.emplace_back(address, entry.second);
            entry.first = static_cast<uint8_t *>(address);
        }
        for (const FrameBuffer::Plane &plane : buffer->planes())
            planes[buffer].push_back(by_fd[plane.fd.get()].first + plane.offset);
        return true;
    }

    void clear() {
        for (auto &[address, length] : maps) munmap(address, length);
        maps.clear();
        planes.clear();
    }
};

} // namespace

struct pc_lc_manager {
    CameraManager manager;
};

namespace {

/// The media-controller nodes of this machine (/dev/media*), each with its device number.
std::vector<std::pair<std::string, dev_t>> media_nodes() {
    std::vector<std::pair<std::string, dev_t>> nodes;
    DIR *folder = opendir("/dev");
    if (!folder) return nodes;
    while (dirent *entry = readdir(folder)) {
        if (std::strncmp(entry->d_name, "media", 5) != 0) continue;
        std::string path = std::string("/dev/") + entry->d_name;
        struct stat status;
        if (stat(path.c_str(), &status) == 0 && S_ISCHR(status.st_mode)) nodes.emplace_back(path, status.st_rdev);
    }
    closedir(folder);
    return nodes;
}

/// What a camera abandoned on removal still owns: libcamera may still reach its requests and
/// buffers, so they are never freed.
struct Abandoned {
    std::shared_ptr<Camera> camera;
    std::unique_ptr<CameraConfiguration> config;
    std::unique_ptr<FrameBufferAllocator> allocator;
    std::vector<std::unique_ptr<Request>> requests;
};

} // namespace

struct pc_lc_camera {
    std::shared_ptr<Camera> camera;
    std::unique_ptr<CameraConfiguration> config;
    std::unique_ptr<FrameBufferAllocator> allocator;
    std::vector<std::unique_ptr<Request>> requests;
    Stream *still = nullptr;
    Stream *raw = nullptr;
    Mapping mapping;
    bool started = false;

    std::mutex lock;
    std::condition_variable changed;
    std::vector<bool> free;  // per request slot: neither queued nor held by the caller
    std::vector<uint64_t> cookies;  // per request slot, the caller's
    std::deque<Request *> completed;
    bool removed = false;
    bool abandoned = false;
    // Removal seen before libcamera sees it: the media nodes there when streaming started, and
    // when a request last completed (a stream that still delivers is not the one removed).
    std::vector<std::pair<std::string, dev_t>> nodes;
    std::chrono::steady_clock::time_point last_completion;
    /// When looks_removed() last looked at the nodes: a wait in short slices would otherwise
    /// stat them every slice once the camera is silent.
    mutable std::chrono::steady_clock::time_point last_node_check;

    void requestCompleted(Request *request) {
        {
            std::lock_guard<std::mutex> guard(lock);
            completed.push_back(request);
            last_completion = std::chrono::steady_clock::now();
        }
        changed.notify_all();
    }

    /// Whether the camera looks unplugged though libcamera has not said so yet: nothing completed
    /// for a second and a media node present at the start is gone. libcamera learns of a removal
    /// from udev, later; stopping before it has aborts the process in libcamera 0.0.3 (the
    /// failed STREAMOFF leaves requests queued, and PipelineHandler::stop asserts there are none).
    /// Called with `lock` held; `throttled` (a wait's slices) looks at most every 250 ms, stop()
    /// always looks.
    bool looks_removed(bool throttled = false) const {
        const auto now = std::chrono::steady_clock::now();
        if (now - last_completion < std::chrono::seconds(1)) return false;
        if (throttled && now - last_node_check < std::chrono::milliseconds(250)) return false;
        last_node_check = now;
        for (const auto &[path, device] : nodes) {
            struct stat status;
            if (stat(path.c_str(), &status) != 0 || status.st_rdev != device) return true;
        }
        return false;
    }

    void disconnected() {
        {
            std::lock_guard<std::mutex> guard(lock);
            removed = true;
        }
        changed.notify_all();
    }

    void stop() {
        bool gone;
        {
            std::lock_guard<std::mutex> guard(lock);
            gone = removed || looks_removed();
        }
        if (started && gone) {
            // Left running, and what libcamera may still touch kept for the process's life.
            new Abandoned{camera, std::move(config), std::move(allocator), std::move(requests)};
            abandoned = true;
        } else if (started) {
            camera->stop();  // completes (cancels) every queued request first
        }
        started = false;
        std::lock_guard<std::mutex> guard(lock);
        completed.clear();
        requests.clear();
        free.clear();
        cookies.clear();
        mapping.clear();
        allocator.reset();
        still = raw = nullptr;
    }
};

extern "C" {

const char *pc_lc_version(void) {
#define PC_LC_STRING2(x) #x
#define PC_LC_STRING(x) PC_LC_STRING2(x)
    return PC_LC_STRING(LIBCAMERA_VERSION_MAJOR) "." PC_LC_STRING(LIBCAMERA_VERSION_MINOR) "." PC_LC_STRING(
        LIBCAMERA_VERSION_PATCH);
}

int32_t pc_lc_abi_version(void) { return PC_LC_ABI_VERSION; }

namespace {

/// The managers still running, stopped at exit before libcamera's own objects are destroyed: a
/// manager's thread runs until it is stopped, and a process that keeps its manager for life
/// (photocap does) otherwise exits under it ("pure virtual method called" as libcamera's
/// objects go). The handler is registered after libcamera has started, so it runs first.
std::mutex running_lock;
std::vector<pc_lc_manager *> running;

void stop_running_managers() {
    std::vector<pc_lc_manager *> managers;
    {
        std::lock_guard<std::mutex> guard(running_lock);
        managers.swap(running);
    }
    for (pc_lc_manager *manager : managers) manager->manager.stop();
}

} // namespace

pc_lc_manager *pc_lc_manager_create(char *error, size_t error_capacity) {
    return guarded<pc_lc_manager *>(
        [&]() -> pc_lc_manager * {
            auto manager = std::make_unique<pc_lc_manager>();
            if (int result = manager->manager.start(); result < 0) {
                write_error(error, error_capacity,
                            (std::string("libcamera's camera manager did not start: ") + std::strerror(-result)).c_str());
                return nullptr;
            }
            static std::once_flag registered;
            std::call_once(registered, [] { std::atexit(stop_running_managers); });
            std::lock_guard<std::mutex> guard(running_lock);
            running.push_back(manager.get());
            return manager.release();
        },
        nullptr, "starting libcamera", error, error_capacity);
}

void pc_lc_manager_destroy(pc_lc_manager *manager) {
    if (!manager) return;
    {
        std::lock_guard<std::mutex> guard(running_lock);
        running.erase(std::remove(running.begin(), running.end(), manager), running.end());
    }
    manager->manager.stop();
    delete manager;
}

int32_t pc_lc_manager_cameras(pc_lc_manager *manager, pc_lc_camera_info *out, int32_t capacity, char *error,
                              size_t error_capacity) {
    return guarded<int32_t>(
        [&]() -> int32_t {
            std::vector<std::shared_ptr<Camera>> cameras = manager->manager.cameras();
            for (size_t index = 0; index < cameras.size() && int32_t(index) < capacity; index++)
                describe(*cameras[index], &out[index]);
            return int32_t(cameras.size());
        },
        PC_LC_ERROR, "listing cameras", error, error_capacity);
}

int32_t pc_lc_manager_controls(pc_lc_manager *manager, const char *id, pc_lc_control_info *out, int32_t capacity,
                               char *error, size_t error_capacity) {
    return guarded<int32_t>(
        [&]() -> int32_t {
            std::shared_ptr<Camera> camera = manager->manager.get(id);
            if (!camera) {
                write_error(error, error_capacity, (std::string("no camera ") + id).c_str());
                return PC_LC_NOT_FOUND;
            }
            // ControlInfoMap is an unordered map: sorted by id, the listing is the same every run.
            std::map<unsigned int, std::pair<const ControlId *, const ControlInfo *>> sorted;
            for (const auto &[control, info] : camera->controls()) sorted[control->id()] = {control, &info};
            int32_t index = 0;
            for (const auto &[number, entry] : sorted) {
                if (index < capacity) {
                    pc_lc_control_info &c = out[index];
                    std::memset(&c, 0, sizeof c);
                    c.id = number;
                    copy_string(c.name, entry.first->name());
                    c.type = control_type(entry.first->type());
                    c.is_array = entry.second->min().isArray();
                    copy_string(c.minimum, value_text(entry.second->min()));
                    copy_string(c.maximum, value_text(entry.second->max()));
                    copy_string(c.default_value, value_text(entry.second->def()));
                }
                index++;
            }
            return index;
        },
        PC_LC_ERROR, "listing a camera's controls", error, error_capacity);
}

pc_lc_camera *pc_lc_camera_open(pc_lc_manager *manager, const char *id, pc_lc_camera_info *info, int32_t *result,
                                char *error, size_t error_capacity) {
    *result = PC_LC_ERROR;
    return guarded<pc_lc_camera *>(
        [&]() -> pc_lc_camera * {
            std::shared_ptr<Camera> camera = manager->manager.get(id);
            if (!camera) {
                *result = PC_LC_NOT_FOUND;
                write_error(error, error_capacity, (std::string("no camera ") + id).c_str());
                return nullptr;
            }
            if (int status = camera->acquire(); status < 0) {
                *result = status == -EBUSY ? PC_LC_BUSY : PC_LC_ERROR;
                write_error(error, error_capacity,
                            (std::string("cannot acquire ") + id + ": " + std::strerror(-status)).c_str());
                return nullptr;
            }
            auto handle = std::make_unique<pc_lc_camera>();
            handle->camera = camera;
            camera->requestCompleted.connect(handle.get(), &pc_lc_camera::requestCompleted);
            camera->disconnected.connect(handle.get(), &pc_lc_camera::disconnected);
            if (info) describe(*camera, info);
            *result = PC_LC_OK;
            return handle.release();
        },
        nullptr, "opening a camera", error, error_capacity);
}

void pc_lc_camera_close(pc_lc_camera *camera) {
    if (!camera) return;
    try {
        camera->stop();
        camera->camera->requestCompleted.disconnect(camera);
        camera->camera->disconnected.disconnect(camera);
        camera->config.reset();
        if (!camera->abandoned) camera->camera->release();
    } catch (...) {
        // Closing must not throw into C; what is left is freed below either way.
    }
    delete camera;
}

int32_t pc_lc_camera_configure(pc_lc_camera *camera, const pc_lc_stream_request *still, const pc_lc_stream_request *raw,
                               int32_t transform, pc_lc_configuration *out, char *error, size_t error_capacity) {
    return guarded<int32_t>(
        [&]() -> int32_t {
            if (camera->abandoned) {
                write_error(error, error_capacity, "the camera was removed");
                return PC_LC_REMOVED;
            }
            {
                std::lock_guard<std::mutex> guard(camera->lock);
                if (camera->removed) return PC_LC_REMOVED;
            }
            camera->stop();
            StreamRoles roles = {StreamRole::StillCapture};
            if (raw) roles.push_back(StreamRole::Raw);
            std::unique_ptr<CameraConfiguration> config = camera->camera->generateConfiguration(roles);
            if (!config || config->size() != roles.size()) {
                write_error(error, error_capacity, "the camera has no still (or raw) stream");
                return PC_LC_INVALID;
            }
            if (still) apply_request(config->at(0), *still);
            if (raw) apply_request(config->at(1), *raw);
            set_transform(*config, static_cast<Transform>(transform & 7));
            CameraConfiguration::Status status = config->validate();
            if (status == CameraConfiguration::Invalid) {
                write_error(error, error_capacity, "the pipeline refused the configuration");
                return PC_LC_INVALID;
            }
            if (int result = camera->camera->configure(config.get()); result < 0) {
                write_error(error, error_capacity, (std::string("configure: ") + std::strerror(-result)).c_str());
                return result == -ENODEV ? PC_LC_REMOVED : PC_LC_ERROR;
            }
            std::memset(out, 0, sizeof *out);
            out->adjusted = status == CameraConfiguration::Adjusted;
            out->transform = static_cast<int32_t>(configured_transform(*config));
            describe_stream(config->at(0), &out->still);
            camera->still = config->at(0).stream();
            if (raw) {
                out->has_raw = 1;
                describe_stream(config->at(1), &out->raw);
                camera->raw = config->at(1).stream();
            }

            camera->allocator = std::make_unique<FrameBufferAllocator>(camera->camera);
            std::string problem;
            size_t slots = SIZE_MAX;
            for (Stream *stream : {camera->still, camera->raw}) {
                if (!stream) continue;
                if (int result = camera->allocator->allocate(stream); result < 0) {
                    write_error(error, error_capacity, (std::string("allocate: ") + std::strerror(-result)).c_str());
                    camera->stop();
                    return PC_LC_ERROR;
                }
                slots = std::min(slots, camera->allocator->buffers(stream).size());
                for (const auto &buffer : camera->allocator->buffers(stream))
                    if (!camera->mapping.map(buffer.get(), problem)) {
                        write_error(error, error_capacity, problem.c_str());
                        camera->stop();
                        return PC_LC_ERROR;
                    }
            }
            // One request per buffer (per buffer pair with a raw stream), reused capture after capture.
            for (size_t slot = 0; slot < slots; slot++) {
                std::unique_ptr<Request> request = camera->camera->createRequest(slot);
                if (!request) {
                    write_error(error, error_capacity, "cannot create a request");
                    camera->stop();
                    return PC_LC_ERROR;
                }
                request->addBuffer(camera->still, camera->allocator->buffers(camera->still)[slot].get());
                if (camera->raw) request->addBuffer(camera->raw, camera->allocator->buffers(camera->raw)[slot].get());
                camera->requests.push_back(std::move(request));
            }
            camera->config = std::move(config);
            if (int result = camera->camera->start(); result < 0) {
                write_error(error, error_capacity, (std::string("start: ") + std::strerror(-result)).c_str());
                camera->stop();
                return result == -ENODEV ? PC_LC_REMOVED : PC_LC_ERROR;
            }
            camera->started = true;
            std::lock_guard<std::mutex> guard(camera->lock);
            camera->nodes = media_nodes();
            camera->last_completion = std::chrono::steady_clock::now();
            camera->free.assign(camera->requests.size(), true);
            camera->cookies.assign(camera->requests.size(), 0);
            return PC_LC_OK;
        },
        PC_LC_ERROR, "configuring a camera", error, error_capacity);
}

int32_t pc_lc_camera_queue(pc_lc_camera *camera, const pc_lc_request_controls *controls, uint64_t cookie,
                           uint32_t *ignored, char *error, size_t error_capacity) {
    return guarded<int32_t>(
        [&]() -> int32_t {
            if (ignored) *ignored = 0;
            if (!camera->started) {
                write_error(error, error_capacity, "the camera is not configured");
                return PC_LC_ERROR;
            }
            size_t slot;
            {
                std::lock_guard<std::mutex> guard(camera->lock);
                if (camera->removed) return PC_LC_REMOVED;
                auto found = std::find(camera->free.begin(), camera->free.end(), true);
                if (found == camera->free.end()) return PC_LC_NO_BUFFER;
                slot = size_t(found - camera->free.begin());
                camera->free[slot] = false;
            }
            Request *request = camera->requests[slot].get();
            request->reuse(Request::ReuseBuffers);
            if (controls) {
                uint32_t have = control_bits(camera->camera->controls());
                uint32_t wanted = controls->set;
                if (ignored) *ignored = wanted & ~have;
                wanted &= have;
                ControlList &list = request->controls();
                if (wanted & PC_LC_CONTROL_EXPOSURE_TIME) list.set(controls::ExposureTime, controls->exposure_time_us);
                if (wanted & PC_LC_CONTROL_ANALOGUE_GAIN) list.set(controls::AnalogueGain, controls->analogue_gain);
                if (wanted & PC_LC_CONTROL_SCALER_CROP) {
                    const pc_lc_rectangle &r = controls->scaler_crop;
                    list.set(controls::ScalerCrop, Rectangle(r.x, r.y, r.width, r.height));
                }
                if (wanted & PC_LC_CONTROL_AF_MODE) list.set(controls::AfMode, controls->af_mode);
                if (wanted & PC_LC_CONTROL_LENS_POSITION) list.set(controls::LensPosition, controls->lens_position);
            }
            // A request's own cookie is its slot, fixed at creation; the caller's goes beside it.
            camera->cookies[slot] = cookie;
            if (int result = camera->camera->queueRequest(request); result < 0) {
                std::lock_guard<std::mutex> guard(camera->lock);
                camera->free[slot] = true;
                write_error(error, error_capacity, (std::string("queue: ") + std::strerror(-result)).c_str());
                return result == -ENODEV ? PC_LC_REMOVED : PC_LC_ERROR;
            }
            return PC_LC_OK;
        },
        PC_LC_ERROR, "queueing a request", error, error_capacity);
}

static void fill_frame(pc_lc_camera *camera, Request *request, Stream *stream, pc_lc_frame *out) {
    std::memset(out, 0, sizeof *out);
    FrameBuffer *buffer = request->findBuffer(stream);
    if (!buffer) return;
    const std::vector<const uint8_t *> &planes = camera->mapping.planes[buffer];
    const FrameMetadata &metadata = buffer->metadata();
    out->sequence = metadata.sequence;
    for (size_t index = 0; index < planes.size() && index < 3; index++) {
        out->planes[index].data = planes[index];
        // What the driver filled, which may be less than the plane.
        out->planes[index].length =
            index < metadata.planes().size() ? metadata.planes()[index].bytesused : buffer->planes()[index].length;
        out->plane_count = int32_t(index + 1);
    }
}

int32_t pc_lc_camera_wait(pc_lc_camera *camera, int32_t timeout_ms, pc_lc_capture *out, char *error,
                          size_t error_capacity) {
    return guarded<int32_t>(
        [&]() -> int32_t {
            Request *request;
            uint64_t cookie;
            {
                std::unique_lock<std::mutex> guard(camera->lock);
                auto ready = [&] { return !camera->completed.empty() || camera->removed; };
                if (!camera->changed.wait_for(guard, std::chrono::milliseconds(std::max(timeout_ms, 0)), ready)) {
                    if (!camera->looks_removed(true)) return PC_LC_TIMEOUT;
                    camera->removed = true;
                    return PC_LC_REMOVED;
                }
                if (camera->completed.empty()) return PC_LC_REMOVED;
                request = camera->completed.front();
                camera->completed.pop_front();
                cookie = camera->cookies[request->cookie()];
            }
            std::memset(out, 0, sizeof *out);
            out->slot = int32_t(request->cookie());
            out->cookie = cookie;
            out->cancelled = request->status() == Request::RequestCancelled;
            if (out->cancelled) return PC_LC_OK;
            const ControlList &metadata = request->metadata();
            if (auto value = metadata.get(controls::SensorTimestamp)) {
                out->metadata |= PC_LC_CONTROL_SENSOR_TIMESTAMP;
                out->sensor_timestamp_ns = *value;
            }
            if (auto value = metadata.get(controls::ExposureTime)) {
                out->metadata |= PC_LC_CONTROL_EXPOSURE_TIME;
                out->exposure_time_us = *value;
            }
            if (auto value = metadata.get(controls::AnalogueGain)) {
                out->metadata |= PC_LC_CONTROL_ANALOGUE_GAIN;
                out->analogue_gain = *value;
            }
            if (auto value = metadata.get(controls::ScalerCrop)) {
                out->metadata |= PC_LC_CONTROL_SCALER_CROP;
                out->scaler_crop = {value->x, value->y, value->width, value->height};
            }
            if (auto value = metadata.get(controls::LensPosition)) {
                out->metadata |= PC_LC_CONTROL_LENS_POSITION;
                out->lens_position = *value;
            }
            fill_frame(camera, request, camera->still, &out->still);
            if (camera->raw) {
                out->has_raw = 1;
                fill_frame(camera, request, camera->raw, &out->raw);
            }
            return PC_LC_OK;
        },
        PC_LC_ERROR, "waiting for a capture", error, error_capacity);
}

void pc_lc_camera_release(pc_lc_camera *camera, int32_t slot) {
    std::lock_guard<std::mutex> guard(camera->lock);
    if (slot >= 0 && size_t(slot) < camera->free.size()) camera->free[size_t(slot)] = true;
}

} // extern "C"
