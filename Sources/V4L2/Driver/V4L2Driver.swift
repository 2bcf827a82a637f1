import CV4L2

/// The kernel calls the V4L2 layer makes, one method per `pc_v4l2_*` function of the C seam, so
/// the layer can run against a fake (the tests' `FakeV4L2Driver`) on a host without a camera.
///
/// Every method returns what its C function returns: 0 (or a non-negative result) on success,
/// -errno on failure.
package protocol V4L2Driver: Sendable {
    func open(_ path: String) -> Int32
    func close(_ fd: Int32) -> Int32
    func queryCapabilities(_ fd: Int32, _ capability: inout v4l2_capability) -> Int32
    func enumerateInput(_ fd: Int32, _ input: inout v4l2_input) -> Int32
    func getInput(_ fd: Int32, _ index: inout Int32) -> Int32
    func setInput(_ fd: Int32, _ index: inout Int32) -> Int32
    func enumerateFormat(_ fd: Int32, _ description: inout v4l2_fmtdesc) -> Int32
    func enumerateFrameSizes(_ fd: Int32, _ sizes: inout v4l2_frmsizeenum) -> Int32
    func enumerateFrameIntervals(_ fd: Int32, _ intervals: inout v4l2_frmivalenum) -> Int32
    func getFormat(_ fd: Int32, _ format: inout v4l2_format) -> Int32
    func setFormat(_ fd: Int32, _ format: inout v4l2_format) -> Int32
    func getParameters(_ fd: Int32, _ parameters: inout v4l2_streamparm) -> Int32
    func requestBuffers(_ fd: Int32, _ request: inout v4l2_requestbuffers) -> Int32
    func queryBuffer(_ fd: Int32, _ buffer: inout v4l2_buffer) -> Int32
    func queueBuffer(_ fd: Int32, _ buffer: inout v4l2_buffer) -> Int32
    func dequeueBuffer(_ fd: Int32, _ buffer: inout v4l2_buffer) -> Int32
    func streamOn(_ fd: Int32) -> Int32
    func streamOff(_ fd: Int32) -> Int32
    func queryExtendedControl(_ fd: Int32, _ query: inout v4l2_query_ext_ctrl) -> Int32
    func queryMenu(_ fd: Int32, _ menu: inout v4l2_querymenu) -> Int32
    func getSelection(_ fd: Int32, _ selection: inout v4l2_selection) -> Int32
    func setSelection(_ fd: Int32, _ selection: inout v4l2_selection) -> Int32
    func getControl(_ fd: Int32, _ id: UInt32, _ value: inout Int64) -> Int32
    func setControl(_ fd: Int32, _ id: UInt32, _ value: Int64) -> Int32
    /// The sensor upstream of capture node `fd` in its media device's topology, with its
    /// subdevice's mounting controls; -ENOENT when there is none to find.
    func pipelineSensor(_ fd: Int32, _ sensor: inout pc_v4l2_pipeline_sensor) -> Int32
    /// Maps buffer memory for reading; nil with `error` set to -errno on failure.
    func map(_ fd: Int32, length: Int, offset: Int64, error: inout Int32) -> UnsafeMutableRawPointer?
    func unmap(_ address: UnsafeMutableRawPointer?, length: Int) -> Int32
    /// Waits up to `timeoutMilliseconds`, or until `wake` (an eventfd from `pc_v4l2_wake_create`,
    /// or -1) is signalled, which it drains; the poll revents (0 on timeout or wake-up).
    func poll(_ fd: Int32, wakingOn wake: Int32, timeoutMilliseconds: Int32) -> Int32
}

/// The kernel, through the C seam (`Sources/CV4L2`).
package struct SystemV4L2Driver: V4L2Driver {
    package init() {}

    package func open(_ path: String) -> Int32 { pc_v4l2_open(path) }
    package func close(_ fd: Int32) -> Int32 { pc_v4l2_close(fd) }
    package func queryCapabilities(_ fd: Int32, _ capability: inout v4l2_capability) -> Int32 {
        pc_v4l2_querycap(fd, &capability)
    }
    package func enumerateInput(_ fd: Int32, _ input: inout v4l2_input) -> Int32 { pc_v4l2_enum_input(fd, &input) }
    package func getInput(_ fd: Int32, _ index: inout Int32) -> Int32 { pc_v4l2_get_input(fd, &index) }
    package func setInput(_ fd: Int32, _ index: inout Int32) -> Int32 { pc_v4l2_set_input(fd, &index) }
    package func enumerateFormat(_ fd: Int32, _ description: inout v4l2_fmtdesc) -> Int32 {
        pc_v4l2_enum_format(fd, &description)
    }
    package func enumerateFrameSizes(_ fd: Int32, _ sizes: inout v4l2_frmsizeenum) -> Int32 {
        pc_v4l2_enum_frame_sizes(fd, &sizes)
    }
    package func enumerateFrameIntervals(_ fd: Int32, _ intervals: inout v4l2_frmivalenum) -> Int32 {
        pc_v4l2_enum_frame_intervals(fd, &intervals)
    }
    package func getFormat(_ fd: Int32, _ format: inout v4l2_format) -> Int32 { pc_v4l2_get_format(fd, &format) }
    package func setFormat(_ fd: Int32, _ format: inout v4l2_format) -> Int32 { pc_v4l2_set_format(fd, &format) }
    package func getParameters(_ fd: Int32, _ parameters: inout v4l2_streamparm) -> Int32 {
        pc_v4l2_get_parameters(fd, &parameters)
    }
    package func requestBuffers(_ fd: Int32, _ request: inout v4l2_requestbuffers) -> Int32 {
        pc_v4l2_request_buffers(fd, &request)
    }
    package func queryBuffer(_ fd: Int32, _ buffer: inout v4l2_buffer) -> Int32 { pc_v4l2_query_buffer(fd, &buffer) }
    package func queueBuffer(_ fd: Int32, _ buffer: inout v4l2_buffer) -> Int32 { pc_v4l2_queue_buffer(fd, &buffer) }
    package func dequeueBuffer(_ fd: Int32, _ buffer: inout v4l2_buffer) -> Int32 { pc_v4l2_dequeue_buffer(fd, &buffer) }
    package func streamOn(_ fd: Int32) -> Int32 { pc_v4l2_stream_on(fd) }
    package func streamOff(_ fd: Int32) -> Int32 { pc_v4l2_stream_off(fd) }
    package func queryExtendedControl(_ fd: Int32, _ query: inout v4l2_query_ext_ctrl) -> Int32 {
        pc_v4l2_query_ext_control(fd, &query)
    }
    package func queryMenu(_ fd: Int32, _ menu: inout v4l2_querymenu) -> Int32 { pc_v4l2_query_menu(fd, &menu) }
    package func getSelection(_ fd: Int32, _ selection: inout v4l2_selection) -> Int32 {
        pc_v4l2_get_selection(fd, &selection)
    }
    package func setSelection(_ fd: Int32, _ selection: inout v4l2_selection) -> Int32 {
        pc_v4l2_set_selection(fd, &selection)
    }
    package func getControl(_ fd: Int32, _ id: UInt32, _ value: inout Int64) -> Int32 { pc_v4l2_get_control(fd, id, &value) }
    package func setControl(_ fd: Int32, _ id: UInt32, _ value: Int64) -> Int32 { pc_v4l2_set_control(fd, id, value) }
    package func pipelineSensor(_ fd: Int32, _ sensor: inout pc_v4l2_pipeline_sensor) -> Int32 {
        pc_v4l2_pipeline_sensor(fd, &sensor)
    }
    package func map(_ fd: Int32, length: Int, offset: Int64, error: inout Int32) -> UnsafeMutableRawPointer? {
        pc_v4l2_map(fd, length, offset, &error)
    }
    package func unmap(_ address: UnsafeMutableRawPointer?, length: Int) -> Int32 { pc_v4l2_unmap(address, length) }
    package func poll(_ fd: Int32, wakingOn wake: Int32, timeoutMilliseconds: Int32) -> Int32 {
        pc_v4l2_poll(fd, wake, timeoutMilliseconds)
    }
}
