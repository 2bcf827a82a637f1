import Imaging

extension CaptureSession {
    /// The frame for a bracket member: the first frame whose exposure started after `instant`
    /// (when the member's controls were set), then `settling` frames more by the driver's
    /// sequence numbers, so frames the driver had already exposed or that still carry the old
    /// values are passed over. Skipped frames go back to the driver at once. The delivery's
    /// delays count from `request`.
    func settledFrame(format: FramePixelFormat, size: PixelSize, hardwareCrop: PixelRect?, startedAfter instant: UInt64,
                      settling: Int, timeout: Duration?,
                      request: UInt64) async throws(PhotoCaptureError) -> (delivered: DeliveredFrame, skipped: Int) {
        var delivered = try await frame(format: format, size: size, hardwareCrop: hardwareCrop, startedAfter: instant,
                                        timeout: timeout)
        var delivery = delivered.delivery
        var target = delivered.frame.sequence + UInt64(max(0, settling))
        var skipped = 0
        while delivered.frame.sequence < target {
            let previous = delivered.frame.sequence
            delivered = try await frame(format: format, size: size, hardwareCrop: hardwareCrop,
                                        startedAfter: delivered.frame.timestampNanoseconds, timeout: timeout)
            // Frames that went by while this request was busy count as passed over: the live
            // ring moves on at the camera's pace.
            skipped += delivered.frame.sequence > previous ? Int(delivered.frame.sequence - previous) : 1
            let next = delivered.delivery
            delivery.faults.carry(next.faults)
            // A restarted stream numbers its frames from 0 again: count the settling anew.
            if next.streamRestarts > 0 || delivered.frame.sequence <= previous {
                target = delivered.frame.sequence + UInt64(max(0, settling))
            }
        }
        return (DeliveredFrame(frame: delivered.frame, delivery: delivery.afterChange(of: delivered.frame, request: request)), skipped)
    }
}

extension FrameDelivery {
    /// This delivery of `frame`, taken after a change of the camera's controls, with its
    /// delays counted from `request`.
    func afterChange(of frame: Frame, request: UInt64) -> FrameDelivery {
        var delivery = self
        delivery.measureDelays(from: request, exposureStart: frame.timestampNanoseconds, delivered: MonotonicClock.now())
        delivery.frameSelection = .firstFrameAfterChange
        return delivery
    }
}
