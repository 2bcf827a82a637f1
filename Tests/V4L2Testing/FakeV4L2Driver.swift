import CV4L2
import V4L2
import Glibc
import Synchronization

/// A V4L2 camera in memory, for host tests of the streaming loop: one YUYV format, a free-running
/// sensor that fills the oldest queued buffer every frame interval (a frame finding no queued
/// buffer is dropped, as vb2 does), and faults injected at chosen frames.
///
/// Frames are numbered from 0 over the fake's whole life (restarts included); the sequence a
/// buffer carries restarts at 0 with every STREAMON, as a driver's does. Buffers are stamped on
/// CLOCK_MONOTONIC at the end of the frame (V4L2_BUF_FLAG_TSTAMP_SRC_EOF).
///
/// With a ``Lens`` it also has the focus controls of a UVC or sensor driver (vivid has none), so
/// the focus path can be tested on the host; without one it has no controls at all.
package final class FakeV4L2Driver: V4L2Driver {
    /// What goes wrong when the camera reaches a frame.
    package enum Fault: Sendable, Equatable {
        /// DQBUF fails with EIO and keeps failing until the stream is stopped (vb2_queue_error).
        case streamError
        /// The device is unplugged: every call from then on fails with ENODEV.
        case disconnect
        /// DQBUF answers EAGAIN once although poll said a buffer was ready.
        case spuriousWakeup
        /// The buffer comes back flagged V4L2_BUF_FLAG_ERROR.
        case flagged
        /// The buffer comes back with half the bytes the format needs.
        case short
        /// The buffer is handed back this much after the frame ended (the frames behind it wait too).
        case late(milliseconds: Int)
    }

    /// What the fake saw, for assertions.
    package struct Record: Sendable, Equatable {
        package var queued = 0
        package var dequeued = 0
        package var dropped = 0
        package var streamOns = 0
        package var streamOffs = 0
        /// The most buffers the application held at once (dequeued, not yet queued again): the
        /// driver keeps the rest, queued or filled. A late dequeue can still leave the queue
        /// empty for a moment; what the loop controls is how many it holds.
        package var mostHeld = 0
        /// Descriptors closed: an app that lets go of a camera must release its descriptor,
        /// or the driver (vivid: its module) stays in use.
        package var closes = 0
        /// Every accepted VIDIOC_S_EXT_CTRLS, in order, as the driver stored it (clamped).
        package var controlWrites: [ControlWrite] = []
    }

    /// One control write the fake accepted.
    package struct ControlWrite: Sendable, Equatable {
        package let id: UInt32
        package let value: Int64
        package init(id: UInt32, value: Int64) { (self.id, self.value) = (id, value) }
    }

    /// A focusable lens: `focus_absolute` over a range, `focus_automatic_continuous`,
    /// `auto_focus_start` and `auto_focus_status`. An autofocus scan stays busy for
    /// `autoFocusMilliseconds`, then has either moved the lens to `inFocus` (reached) or left it
    /// where it was (failed).
    package struct Lens: Sendable, Equatable {
        package var minimum: Int64
        package var maximum: Int64
        package var step: Int64
        /// Where the subject is sharp.
        package var inFocus: Int64
        /// Where the lens starts.
        package var position: Int64
        /// Whether continuous autofocus is on at the start.
        package var continuous: Bool
        package var autoFocusMilliseconds: Int
        package var autoFocusFinds: Bool

        package init(minimum: Int64 = 0, maximum: Int64 = 250, step: Int64 = 5, inFocus: Int64 = 120, position: Int64 = 0,
                     continuous: Bool = false, autoFocusMilliseconds: Int = 40, autoFocusFinds: Bool = true) {
            (self.minimum, self.maximum, self.step, self.inFocus) = (minimum, maximum, step, inFocus)
            (self.position, self.continuous, self.autoFocusMilliseconds, self.autoFocusFinds) =
                (position, continuous, autoFocusMilliseconds, autoFocusFinds)
        }
    }

    private struct Completed {
        let index: Int
        let sequence: UInt32
        let timestamp: UInt64
        let readyAt: UInt64
        let fault: Fault?
    }

    private struct State {
        var faults: [Int: Fault] = [:]
        var gone = false
        var queueError = false
        var streaming = false
        var streamStart: UInt64 = 0
        /// Frame slots elapsed in this stream (dropped ones included).
        var slots = 0
        var framesProduced = 0
        var bufferCount = 0
        /// Buffer memory by mmap offset, as addresses (pointers are not Sendable).
        var mappings: [Int64: UInt] = [:]
        var offsetBase: Int64 = 0
        var queuedIndices: [Int] = []
        var completed: [Completed] = []
        var record = Record()
        var lens: Lens?
        /// Whether every control write fails with EIO, as a driver whose hardware stopped answering.
        var refusesControlWrites = false
        /// When the running autofocus scan started.
        var scanStartedAt: UInt64?
        /// How the last scan ended; nil before the first.
        var lastScanReached: Bool?
    }

    /// The frame size the fake delivers.
    package let size = (width: 64, height: 48)
    /// The fourCC it offers.
    package let fourCC: UInt32 = 0x5659_5559  // "YUYV", little-endian
    package let interval: UInt64
    private var imageSize: Int { size.width * size.height * 2 }
    private let state = Mutex(State())
    /// Every buffer ever allocated: frames may still read one after REQBUFS 0, as drivers with
    /// orphaned buffers allow.
    private let allocations = Mutex<[UInt]>([])

    /// Where the camera faces (V4L2_CID_CAMERA_ORIENTATION, read-only); nil for a driver
    /// without the control.
    package let location: V4L2CameraLocation?
    /// The sensor subdevice a media controller's topology leads back to from this node, as a
    /// pipeline's capture node has one; nil for a node without (the usual USB camera).
    package let pipelineSensor: V4L2PipelineSensor?

    /// A camera at `framesPerSecond`, with `lens`, `location` and `pipelineSensor` if given.
    package init(framesPerSecond: Int = 100, lens: Lens? = nil, location: V4L2CameraLocation? = nil,
                 pipelineSensor: V4L2PipelineSensor? = nil) {
        interval = 1_000_000_000 / UInt64(max(1, framesPerSecond))
        self.location = location
        self.pipelineSensor = pipelineSensor
        state.withLock { $0.lens = lens }
    }

    /// The lens as it is now (a finished scan applied); nil without one.
    package var lens: Lens? {
        let now = Self.now()
        return state.withLock { state in
            finishScan(&state, at: now)
            return state.lens
        }
    }

    deinit {
        allocations.withLock { for address in $0 { UnsafeMutableRawPointer(bitPattern: address)?.deallocate() } }
    }

    /// Makes every later control write fail with EIO.
    package func refuseControlWrites() {
        state.withLock { $0.refusesControlWrites = true }
    }

    /// Makes frame `number` (counted from 0 over the fake's life) fail as `fault` says.
    package func inject(_ fault: Fault, atFrame number: Int) {
        state.withLock { $0.faults[number] = fault }
    }

    /// What happened so far.
    package var record: Record { state.withLock { $0.record } }

    /// Buffers queued with the driver now.
    package var queuedCount: Int { state.withLock { $0.queuedIndices.count } }

    private static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// Runs the sensor up to `now`: every elapsed frame slot fills the oldest queued buffer.
    private func advance(_ state: inout State, to now: UInt64) {
        guard state.streaming, !state.gone else { return }
        while state.streamStart + UInt64(state.slots + 1) * interval <= now {
            let end = state.streamStart + UInt64(state.slots + 1) * interval
            let number = state.framesProduced
            let sequence = UInt32(state.slots)
            state.slots += 1
            state.framesProduced += 1
            let fault = state.faults[number]
            if fault == .disconnect { state.gone = true; return }
            guard !state.queuedIndices.isEmpty else {
                state.record.dropped += 1
                // A fault meant for a frame that found no buffer (a loop slowed by a loaded
                // machine) moves to the next frame, so every injected fault still happens.
                if let fault, state.faults[number + 1] == nil { state.faults[number + 1] = fault }
                continue
            }
            let index = state.queuedIndices.removeFirst()
            var readyAt = max(end, state.completed.last?.readyAt ?? 0)
            if case .late(let milliseconds) = fault { readyAt += UInt64(milliseconds) * 1_000_000 }
            if let address = state.mappings[offset(of: index, base: state.offsetBase)],
               let base = UnsafeMutableRawPointer(bitPattern: address) {
                base.initializeMemory(as: UInt8.self, repeating: UInt8(truncatingIfNeeded: number), count: imageSize)
            }
            state.completed.append(Completed(index: index, sequence: sequence, timestamp: end, readyAt: readyAt, fault: fault))
        }
    }

    private func offset(of index: Int, base: Int64) -> Int64 { base + Int64(index) * 1 << 20 }

    // MARK: Device queries

    package func open(_ path: String) -> Int32 { state.withLock { $0.gone } ? -ENODEV : 7 }
    package func close(_ fd: Int32) -> Int32 { state.withLock { $0.record.closes += 1 }; return 0 }

    package func queryCapabilities(_ fd: Int32, _ capability: inout v4l2_capability) -> Int32 {
        if state.withLock({ $0.gone }) { return -ENODEV }
        let bits = UInt32(V4L2_CAP_VIDEO_CAPTURE) | UInt32(V4L2_CAP_STREAMING)
        capability.capabilities = bits | UInt32(V4L2_CAP_DEVICE_CAPS)
        capability.device_caps = bits
        Self.write("fake", into: &capability.driver)
        Self.write("Fake camera", into: &capability.card)
        return 0
    }

    package func enumerateInput(_ fd: Int32, _ input: inout v4l2_input) -> Int32 { -EINVAL }
    package func getInput(_ fd: Int32, _ index: inout Int32) -> Int32 { -ENOTTY }
    package func setInput(_ fd: Int32, _ index: inout Int32) -> Int32 { -ENOTTY }

    package func enumerateFormat(_ fd: Int32, _ description: inout v4l2_fmtdesc) -> Int32 {
        guard description.index == 0 else { return -EINVAL }
        description.pixelformat = fourCC
        return 0
    }

    package func enumerateFrameSizes(_ fd: Int32, _ sizes: inout v4l2_frmsizeenum) -> Int32 {
        guard sizes.index == 0, sizes.pixel_format == fourCC else { return -EINVAL }
        sizes.type = V4L2_FRMSIZE_TYPE_DISCRETE.rawValue
        sizes.discrete = v4l2_frmsize_discrete(width: UInt32(size.width), height: UInt32(size.height))
        return 0
    }

    package func enumerateFrameIntervals(_ fd: Int32, _ intervals: inout v4l2_frmivalenum) -> Int32 {
        guard intervals.index == 0 else { return -EINVAL }
        intervals.type = V4L2_FRMIVAL_TYPE_DISCRETE.rawValue
        intervals.discrete = v4l2_fract(numerator: UInt32(interval / 1000), denominator: 1_000_000)
        return 0
    }

    /// The driver always chooses its one format and size.
    package func getFormat(_ fd: Int32, _ format: inout v4l2_format) -> Int32 {
        if state.withLock({ $0.gone }) { return -ENODEV }
        format.fmt.pix.pixelformat = fourCC
        format.fmt.pix.width = UInt32(size.width)
        format.fmt.pix.height = UInt32(size.height)
        format.fmt.pix.bytesperline = UInt32(size.width * 2)
        format.fmt.pix.sizeimage = UInt32(imageSize)
        format.fmt.pix.field = V4L2_FIELD_NONE.rawValue
        return 0
    }

    package func setFormat(_ fd: Int32, _ format: inout v4l2_format) -> Int32 {
        if state.withLock({ $0.bufferCount > 0 }) { return -EBUSY }
        return getFormat(fd, &format)
    }

    package func getParameters(_ fd: Int32, _ parameters: inout v4l2_streamparm) -> Int32 {
        parameters.parm.capture.timeperframe = v4l2_fract(numerator: UInt32(interval / 1000), denominator: 1_000_000)
        return 0
    }

    // MARK: Streaming

    package func requestBuffers(_ fd: Int32, _ request: inout v4l2_requestbuffers) -> Int32 {
        let size = imageSize
        let result = state.withLock { (state) -> Int32 in
            if state.gone { return request.count == 0 ? 0 : -ENODEV }
            if state.streaming { return -EBUSY }
            state.queuedIndices = []
            state.completed = []
            state.mappings = [:]
            state.offsetBase += 1 << 30
            state.bufferCount = Int(request.count)
            return 0
        }
        guard result == 0, request.count > 0 else { return result }
        var made: [Int64: UInt] = [:]
        let base = state.withLock { $0.offsetBase }
        for index in 0..<Int(request.count) {
            let pointer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 64)
            made[offset(of: index, base: base)] = UInt(bitPattern: pointer)
        }
        allocations.withLock { $0.append(contentsOf: made.values) }
        state.withLock { $0.mappings = made }
        return 0
    }

    package func queryBuffer(_ fd: Int32, _ buffer: inout v4l2_buffer) -> Int32 {
        state.withLock { (state) -> Int32 in
            guard Int(buffer.index) < state.bufferCount else { return -EINVAL }
            buffer.length = UInt32(imageSize)
            buffer.m.offset = UInt32(truncatingIfNeeded: offset(of: Int(buffer.index), base: state.offsetBase) & 0xFFFF_FFFF)
            return 0
        }
    }

    package func map(_ fd: Int32, length: Int, offset: Int64, error: inout Int32) -> UnsafeMutableRawPointer? {
        let address = state.withLock { state in
            state.mappings.first { $0.key & 0xFFFF_FFFF == offset }?.value
        }
        guard let address, let pointer = UnsafeMutableRawPointer(bitPattern: address) else {
            error = -EINVAL
            return nil
        }
        return pointer
    }

    package func unmap(_ address: UnsafeMutableRawPointer?, length: Int) -> Int32 { 0 }

    package func queueBuffer(_ fd: Int32, _ buffer: inout v4l2_buffer) -> Int32 {
        state.withLock { (state) -> Int32 in
            if state.gone { return -ENODEV }
            let index = Int(buffer.index)
            guard index < state.bufferCount, !state.queuedIndices.contains(index),
                  !state.completed.contains(where: { $0.index == index }) else { return -EINVAL }
            state.queuedIndices.append(index)
            state.record.queued += 1
            return 0
        }
    }

    package func streamOn(_ fd: Int32) -> Int32 {
        state.withLock { (state) -> Int32 in
            if state.gone { return -ENODEV }
            guard state.bufferCount > 0 else { return -EINVAL }
            state.streaming = true
            state.queueError = false
            state.streamStart = Self.now()
            state.slots = 0
            state.record.streamOns += 1
            return 0
        }
    }

    package func streamOff(_ fd: Int32) -> Int32 {
        state.withLock { (state) -> Int32 in
            if state.gone { return -ENODEV }
            state.streaming = false
            state.queueError = false
            state.queuedIndices = []
            state.completed = []
            state.record.streamOffs += 1
            return 0
        }
    }

    package func poll(_ fd: Int32, wakingOn wake: Int32, timeoutMilliseconds: Int32) -> Int32 {
        let deadline = Self.now() + UInt64(max(0, timeoutMilliseconds)) * 1_000_000
        while true {
            let now = Self.now()
            let (events, ready) = state.withLock { (state) -> (Int32, UInt64) in
                advance(&state, to: now)
                if state.gone || state.queueError || !state.streaming {
                    return (Int32(PC_V4L2_POLLERR), 0)
                }
                if let first = state.completed.first {
                    return first.readyAt <= now ? (Int32(PC_V4L2_POLLIN), 0) : (0, first.readyAt)
                }
                // vb2: nothing queued and nothing done is an error condition for poll.
                if state.queuedIndices.isEmpty { return (Int32(PC_V4L2_POLLERR), 0) }
                return (0, state.streamStart + UInt64(state.slots + 1) * interval)
            }
            if events != 0 { return events }
            guard now < deadline else { return 0 }
            let sleep = min(min(ready, deadline) - now, 1_000_000_000)
            // Sleeps on the real wake descriptor, so a stream's wake-up ends the wait as the
            // kernel's poll would.
            var entry = pollfd(fd: wake, events: Int16(POLLIN), revents: 0)
            if Glibc.poll(&entry, 1, Int32((sleep + 999_999) / 1_000_000)) > 0 {
                var count: UInt64 = 0
                _ = read(wake, &count, 8)
                return 0
            }
        }
    }

    package func dequeueBuffer(_ fd: Int32, _ buffer: inout v4l2_buffer) -> Int32 {
        let now = Self.now()
        return state.withLock { (state) -> Int32 in
            advance(&state, to: now)
            if state.gone { return -ENODEV }
            if state.queueError { return -EIO }
            guard state.streaming, let first = state.completed.first, first.readyAt <= now else { return -EAGAIN }
            switch first.fault {
            case .streamError?:
                state.queueError = true
                state.completed[0] = Completed(index: first.index, sequence: first.sequence, timestamp: first.timestamp,
                                               readyAt: first.readyAt, fault: nil)
                return -EIO
            case .spuriousWakeup?:
                state.completed[0] = Completed(index: first.index, sequence: first.sequence, timestamp: first.timestamp,
                                               readyAt: first.readyAt, fault: nil)
                return -EAGAIN
            default:
                break
            }
            state.completed.removeFirst()
            buffer.index = UInt32(first.index)
            buffer.sequence = first.sequence
            buffer.bytesused = UInt32(first.fault == .short ? imageSize / 2 : imageSize)
            buffer.flags = UInt32(V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC) | UInt32(V4L2_BUF_FLAG_TSTAMP_SRC_EOF)
                | (first.fault == .flagged ? UInt32(V4L2_BUF_FLAG_ERROR) : 0)
            buffer.timestamp = timeval(tv_sec: Int(first.timestamp / 1_000_000_000),
                                       tv_usec: Int(first.timestamp % 1_000_000_000 / 1000))
            state.record.dequeued += 1
            let held = state.bufferCount - state.queuedIndices.count - state.completed.count
            state.record.mostHeld = max(state.record.mostHeld, held)
            return 0
        }
    }

    // MARK: Controls

    /// The controls the lens has, by ID, in ID order (as VIDIOC_QUERY_EXT_CTRL enumerates).
    private static func focusControls(_ lens: Lens) -> [(id: UInt32, name: String, type: UInt32, minimum: Int64, maximum: Int64,
                                                        step: UInt64, flags: UInt32)] {
        [
            (UInt32(PC_V4L2_CID_FOCUS_ABSOLUTE), "Focus, Absolute", V4L2_CTRL_TYPE_INTEGER.rawValue, lens.minimum, lens.maximum,
             UInt64(lens.step), UInt32(V4L2_CTRL_FLAG_VOLATILE)),
            (UInt32(PC_V4L2_CID_FOCUS_AUTO), "Focus, Automatic Continuous", V4L2_CTRL_TYPE_BOOLEAN.rawValue, 0, 1, 1, 0),
            (UInt32(PC_V4L2_CID_AUTO_FOCUS_START), "Auto Focus, Start", V4L2_CTRL_TYPE_BUTTON.rawValue, 0, 0, 0,
             UInt32(V4L2_CTRL_FLAG_WRITE_ONLY)),
            (UInt32(PC_V4L2_CID_AUTO_FOCUS_STATUS), "Auto Focus, Status", V4L2_CTRL_TYPE_BITMASK.rawValue, 0, 7, 0,
             UInt32(V4L2_CTRL_FLAG_READ_ONLY) | UInt32(V4L2_CTRL_FLAG_VOLATILE)),
        ].map { (id: $0.0, name: $0.1, type: $0.2, minimum: $0.3, maximum: $0.4, step: $0.5, flags: $0.6) }
    }

    /// A scan whose time is up has moved the lens (or failed to).
    private func finishScan(_ state: inout State, at now: UInt64) {
        guard let started = state.scanStartedAt, var lens = state.lens,
              now >= started + UInt64(lens.autoFocusMilliseconds) * 1_000_000 else { return }
        state.scanStartedAt = nil
        state.lastScanReached = lens.autoFocusFinds
        if lens.autoFocusFinds { lens.position = lens.inFocus }
        state.lens = lens
    }

    package func queryExtendedControl(_ fd: Int32, _ query: inout v4l2_query_ext_ctrl) -> Int32 {
        let next = UInt32(V4L2_CTRL_FLAG_NEXT_CTRL) | UInt32(V4L2_CTRL_FLAG_NEXT_COMPOUND)
        let wanted = query.id & ~next
        var controls = state.withLock({ $0.lens }).map(Self.focusControls) ?? []
        if location != nil {
            controls.append((id: V4L2ControlID.cameraOrientation, name: "Camera Orientation", type: V4L2_CTRL_TYPE_MENU.rawValue,
                             minimum: 0, maximum: 2, step: 1, flags: UInt32(V4L2_CTRL_FLAG_READ_ONLY)))
            controls.sort { $0.id < $1.id }
        }
        guard let control = query.id & next != 0 ? controls.first(where: { $0.id > wanted }) : controls.first(where: { $0.id == wanted })
        else { return -EINVAL }
        query = v4l2_query_ext_ctrl()
        query.id = control.id
        query.type = control.type
        query.minimum = control.minimum
        query.maximum = control.maximum
        query.step = control.step
        query.flags = control.flags
        Self.write(control.name, into: &query.name)
        return 0
    }

    package func getControl(_ fd: Int32, _ id: UInt32, _ value: inout Int64) -> Int32 {
        let now = Self.now()
        return state.withLock { (state) -> Int32 in
            if state.gone { return -ENODEV }
            if id == V4L2ControlID.cameraOrientation, let location {
                value = location.rawValue
                return 0
            }
            finishScan(&state, at: now)
            guard let lens = state.lens else { return -EINVAL }
            switch id {
            case UInt32(PC_V4L2_CID_FOCUS_ABSOLUTE): value = lens.continuous ? lens.inFocus : lens.position
            case UInt32(PC_V4L2_CID_FOCUS_AUTO): value = lens.continuous ? 1 : 0
            case UInt32(PC_V4L2_CID_AUTO_FOCUS_STATUS):
                value = state.scanStartedAt != nil ? V4L2AutoFocusStatus.busy
                    : state.lastScanReached.map { $0 ? V4L2AutoFocusStatus.reached : V4L2AutoFocusStatus.failed } ?? 0
            default: return -EINVAL  // the start button is write-only
            }
            return 0
        }
    }

    /// Writes `text` into a zeroed C char array (imported as a tuple), cut to leave its NUL.
    private static func write<Tuple>(_ text: String, into tuple: inout Tuple) {
        withUnsafeMutableBytes(of: &tuple) { bytes in
            for (offset, byte) in text.utf8.prefix(bytes.count - 1).enumerated() { bytes[offset] = byte }
        }
    }

    package func pipelineSensor(_ fd: Int32, _ sensor: inout pc_v4l2_pipeline_sensor) -> Int32 {
        guard let pipelineSensor else { return -ENOENT }
        Self.write(pipelineSensor.name, into: &sensor.name)
        Self.write(pipelineSensor.subdevice, into: &sensor.subdevice)
        sensor.rotation = pipelineSensor.rotation.map(Int32.init) ?? -1
        sensor.orientation = pipelineSensor.location.map { Int32($0.rawValue) } ?? -1
        return 0
    }

    package func setControl(_ fd: Int32, _ id: UInt32, _ value: Int64) -> Int32 {
        let now = Self.now()
        return state.withLock { (state) -> Int32 in
            if state.gone { return -ENODEV }
            if state.refusesControlWrites { return -EIO }
            finishScan(&state, at: now)
            guard var lens = state.lens else { return -EINVAL }
            var stored = value
            switch id {
            case UInt32(PC_V4L2_CID_FOCUS_ABSOLUTE):
                // As UVC: the lens is the autofocus's while it runs.
                guard !lens.continuous, state.scanStartedAt == nil else { return -EBUSY }
                let clamped = min(max(value, lens.minimum), lens.maximum)
                stored = lens.minimum + (clamped - lens.minimum + lens.step / 2) / lens.step * lens.step
                lens.position = min(stored, lens.maximum)
                stored = lens.position
            case UInt32(PC_V4L2_CID_FOCUS_AUTO):
                // Switched off, the lens stays where the autofocus had it.
                if lens.continuous, value == 0 { lens.position = lens.inFocus }
                lens.continuous = value != 0
                stored = lens.continuous ? 1 : 0
            case UInt32(PC_V4L2_CID_AUTO_FOCUS_START):
                guard !lens.continuous else { return -EBUSY }
                state.scanStartedAt = now
                state.lastScanReached = nil
            case UInt32(PC_V4L2_CID_AUTO_FOCUS_STATUS): return -EACCES
            default: return -EINVAL
            }
            state.lens = lens
            state.record.controlWrites.append(ControlWrite(id: id, value: stored))
            return 0
        }
    }

    // MARK: Selection: none

    package func queryMenu(_ fd: Int32, _ menu: inout v4l2_querymenu) -> Int32 { -EINVAL }
    package func getSelection(_ fd: Int32, _ selection: inout v4l2_selection) -> Int32 { -ENOTTY }
    package func setSelection(_ fd: Int32, _ selection: inout v4l2_selection) -> Int32 { -ENOTTY }
}
