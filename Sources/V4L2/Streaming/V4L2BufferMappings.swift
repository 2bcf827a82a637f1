import CV4L2
import Imaging

/// The mmap'ed buffers of one stream start. Frames borrow these bytes, so the mappings live
/// until the last frame that reads them is released, even after the stream stopped (drivers
/// with orphaned-buffer support keep the memory until munmap).
final class V4L2BufferMappings: @unchecked Sendable {
    // Immutable after init; the memory is only read through frames.
    let buffers: [UnsafeMutableRawBufferPointer]
    private let driver: any V4L2Driver

    init(device: V4L2Device, count: Int) throws(V4L2Error) {
        driver = device.driver
        var mapped: [UnsafeMutableRawBufferPointer] = []
        do throws(V4L2Error) {
            for index in 0..<count {
                var buffer = v4l2_buffer()
                buffer.index = UInt32(index)
                buffer.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
                buffer.memory = V4L2_MEMORY_MMAP.rawValue
                try check(device.driver.queryBuffer(device.fd, &buffer), .queryBuffer, device: device.path)
                var error: Int32 = 0
                let length = Int(buffer.length)
                guard let address = device.driver.map(device.fd, length: length, offset: Int64(buffer.m.offset), error: &error) else {
                    throw V4L2Error.callFailed(device: device.path, call: .mmap, errno: Errno(-error))
                }
                mapped.append(UnsafeMutableRawBufferPointer(start: address, count: length))
            }
        } catch {
            Self.unmap(mapped, driver: device.driver)
            throw error
        }
        buffers = mapped
    }

    deinit { Self.unmap(buffers, driver: driver) }

    private static func unmap(_ buffers: [UnsafeMutableRawBufferPointer], driver: any V4L2Driver) {
        for buffer in buffers { _ = driver.unmap(buffer.baseAddress, length: buffer.count) }
    }
}
