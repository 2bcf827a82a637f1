// Lists libcamera's cameras through CLibcamera and, with `--capture FILE [--size WxH]`, takes one
// still from the first and writes its first plane to FILE: the C seam driven from Swift, judged in the vimc
// VM against libcamera's own `cam` (Tests/LibcameraIntegration/guest-vimc.sh).
import CLibcamera
import Foundation

func text<T>(_ tuple: T) -> String {
    withUnsafeBytes(of: tuple) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
}

func formats(_ tuple: some Any, count: Int32) -> String {
    withUnsafeBytes(of: tuple) { raw in
        raw.bindMemory(to: pc_lc_format.self).prefix(Int(count)).map { format in
            "\(text(format.name)) \(format.min.width)x\(format.min.height)-\(format.max.width)x\(format.max.height)"
        }.joined(separator: ", ")
    }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("clibcamera-probe: \(message)\n".utf8))
    exit(1)
}

var error = [CChar](repeating: 0, count: 512)
var message: String { String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) }
let arguments = CommandLine.arguments
func argument(_ name: String) -> String? {
    arguments.firstIndex(of: name).flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
}
let output = argument("--capture")
// "WxH": the still stream's size; the pipeline's default without it.
let size = argument("--size").map { $0.split(separator: "x").compactMap { UInt32($0) } }

print("libcamera \(String(cString: pc_lc_version()))")
guard let manager = pc_lc_manager_create(&error, error.count) else { fail(message) }
defer { pc_lc_manager_destroy(manager) }
var cameras = [pc_lc_camera_info](repeating: pc_lc_camera_info(), count: 8)
let count = pc_lc_manager_cameras(manager, &cameras, Int32(cameras.count), &error, error.count)
guard count >= 0 else { fail(message) }
print("\(count) camera(s)")
for camera in cameras.prefix(Int(min(count, 8))) {
    // "rotation 90 " with a space after: the guest script greps for it.
    print("camera \(text(camera.id)) model \(text(camera.model)) location \(camera.location) rotation \(camera.rotation) "
        + "pixel array \(camera.pixel_array.width)x\(camera.pixel_array.height) controls \(camera.controls)")
    print("  still: \(formats(camera.still_formats, count: camera.still_format_count))")
    print("  raw: \(formats(camera.raw_formats, count: camera.raw_format_count))")
}
guard let output else { exit(0) }
guard count > 0 else { fail("no camera to capture from") }

let firstID = text(cameras[0].id)
var result: Int32 = 0
guard let camera = pc_lc_camera_open(manager, firstID, nil, &result, &error, error.count) else {
    fail("open: \(result == PC_LC_BUSY ? "busy" : "error") \(message)")
}
defer { pc_lc_camera_close(camera) }
// A second handle on the same camera must be told it is busy, not fail some other way.
var second: Int32 = 0
if let again = pc_lc_camera_open(manager, firstID, nil, &second, &error, error.count) {
    pc_lc_camera_close(again)
    print("second open: unexpectedly acquired")
} else {
    print("second open: \(second == PC_LC_BUSY ? "busy" : "error \(second)")")
}

var configuration = pc_lc_configuration()
var still = pc_lc_stream_request()
if let size, size.count == 2 {
    still.width = size[0]
    still.height = size[1]
}
// A half turn: what the pipeline accepts says whether the sensor's flips can do it.
if pc_lc_camera_configure(camera, &still, nil, Int32(PC_LC_TRANSFORM_ROT180), &configuration, &error, error.count) == PC_LC_OK {
    print("half turn asked: transform \(configuration.transform) adjusted \(configuration.adjusted)")
} else {
    print("half turn asked: refused, \(message)")
}
guard pc_lc_camera_configure(camera, &still, nil, Int32(PC_LC_TRANSFORM_IDENTITY), &configuration, &error, error.count) == PC_LC_OK else {
    fail("configure: \(message)")
}
let stream = configuration.still
print("configured \(stream.width)x\(stream.height)-\(text(stream.name)) stride \(stream.stride) frame \(stream.frame_size) "
    + "buffers \(stream.buffer_count) transform \(configuration.transform) adjusted \(configuration.adjusted)")

var controls = pc_lc_request_controls()
controls.set = UInt32(PC_LC_CONTROL_EXPOSURE_TIME | PC_LC_CONTROL_ANALOGUE_GAIN)
controls.exposure_time_us = 10_000
controls.analogue_gain = 2
var ignored: UInt32 = 0
// Two requests: some drivers (vimc) start streaming only once two buffers are queued.
for cookie: UInt64 in [42, 43] {
    guard pc_lc_camera_queue(camera, &controls, cookie, &ignored, &error, error.count) == PC_LC_OK else { fail("queue: \(message)") }
}
print("queued, controls the camera lacks: \(ignored)")
let started = Date()
var capture = pc_lc_capture()
let waited = pc_lc_camera_wait(camera, 60_000, &capture, &error, error.count)
guard waited == PC_LC_OK else { fail("wait: \(waited) \(message)") }
defer { pc_lc_camera_release(camera, capture.slot) }
guard capture.cancelled == 0, capture.still.plane_count > 0 else { fail("capture cancelled") }
let plane = capture.still.planes.0
try Data(bytes: plane.data, count: Int(plane.length)).write(to: URL(fileURLWithPath: output))
print("captured \(stream.width)x\(stream.height)-\(text(stream.name)) cookie \(capture.cookie) sequence \(capture.still.sequence) "
    + "bytes \(plane.length) in \(String(format: "%.2f", Date().timeIntervalSince(started))) s")
print("metadata \(capture.metadata): timestamp \(capture.sensor_timestamp_ns) ns, exposure \(capture.exposure_time_us) us, "
    + "gain \(capture.analogue_gain), crop \(capture.scaler_crop.x),\(capture.scaler_crop.y) \(capture.scaler_crop.width)x\(capture.scaler_crop.height)")
