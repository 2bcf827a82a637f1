import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import Logging

extension PhotoOutput {
    /// Members converted and encoded at once while the next is exposed. Three keeps both cores
    /// busy on the synthetic camera and leaves a V4L2 stream (4 buffers) one buffer to fill.
    static let bracketMembersInFlight = 3

    /// Captures a bracket: for each member, sets its exposure, takes the first settled frame
    /// (``CaptureSession/settledFrame(format:size:hardwareCrop:startedAfter:settling:timeout:request:)``) and
    /// hands it to a processing task, then exposes the next member while earlier ones encode; on
    /// controls set per frame, the members are consecutive frames instead
    /// (``captureOnConsecutiveFrames(_:into:of:session:device:controls:requestedAt:timeout:)``). A
    /// RAW request gives each member's DNG (then, RAW + processed, its developed photo). A member
    /// whose photo cannot be made is delivered as its error, and the request ends with the first.
    /// A request that sets focus is focused once, before the first member. The controls go back
    /// as soon as the last frame is in hand, or when a member fails; the photos are delivered in
    /// sequence order after `didCapturePhoto`, and the request ends with one `didFinishCapture`.
    func runBracket(_ planned: ResolvedPhotoSettings, session: CaptureSession, requestedAt instant: UInt64,
                    timeout: Duration?, delegate: any PhotoCaptureDelegate) async {
        var resolved = planned
        let id = resolved.uniqueID
        await delegate.photoOutput(self, willBeginCaptureFor: resolved)
        guard let device = session.input, let controls = device.exposureControls else {
            return await finish(resolved, delivered: 0, error: PhotoCaptureError(.notConnected, uniqueID: id), to: delegate)
        }
        // Brackets share the camera's controls: one at a time.
        await controls.gate.enter()
        await delegate.photoOutput(self, willCapturePhotoFor: resolved)
        var focusing: FocusOperation?
        var focusError: PhotoCaptureError?
        do {
            focusing = try await focus(&resolved, on: device)
        } catch {
            focusError = error.attributed(to: id)
        }
        let (processing, captureError, restoredAfter) = focusError != nil ? ([], focusError, nil)
            : await captureMembers(of: resolved, session: session, device: device, controls: controls, requestedAt: instant,
                                   timeout: timeout)
        var restoreError: PhotoCaptureError?
        var restored: Task<Void, Never>?
        do {
            try focusing?.end()
        } catch {
            restoreError = error.attributed(to: id)
        }
        do {
            try controls.restore()  // nothing left to do when the members' schedule restored them
            // Photos requested after this one must not catch a frame still exposed for the
            // bracket: the request ends once the restored values have settled too (unless the
            // camera already failed to deliver). Controls set per frame are restored from a
            // known frame on; a lens, or controls of the other kind, settle by frames.
            let (changed, settling) = restoredAfter.flatMap { focusing == nil ? ($0, 0) : nil }
                ?? (MonotonicClock.now(), max(controls.framesToSettle, focusing?.controls.framesToSettle ?? 0))
            restored = captureError != nil ? nil : Task { [resolved] in
                _ = try? await session.settledFrame(format: resolved.framePixelFormat, size: resolved.frameDimensions,
                                                    hardwareCrop: resolved.framing.hardwareCropRect, startedAfter: changed,
                                                    settling: settling, timeout: timeout, request: changed)
            }
        } catch {
            restoreError = restoreError ?? error.attributed(to: id)
        }
        controls.gate.leave()

        var failure = captureError
        if failure == nil { await delegate.photoOutput(self, didCapturePhotoFor: resolved) }
        var delivered = 0
        for task in processing {
            for result in await task.value {
                if case .failure(let error) = result { failure = failure ?? error }
                await deliver(result, number: delivered, of: resolved, to: delegate)
                delivered += 1
            }
        }
        await restored?.value
        // A camera that vanished cannot be restored, and its own error says why.
        await finish(resolved, delivered: delivered, error: failure ?? restoreError, to: delegate)
    }

    private typealias MemberWork = [Task<[Result<CapturePhoto, PhotoCaptureError>], Never>]

    /// Captures the members, each handed to a processing task once its frame is in hand: the
    /// tasks, the error that stopped the capture, and, when the members' schedule restored the
    /// controls, the instant after which the frames are exposed as before.
    ///
    /// On controls set per frame the members are consecutive frames
    /// (``captureOnConsecutiveFrames(_:into:of:session:device:controls:requestedAt:timeout:)``);
    /// otherwise, or from a member whose scheduled frame was missed, each member's controls are
    /// set once the previous member's frame is in hand, and frames are let pass until they settled.
    private func captureMembers(of resolved: ResolvedPhotoSettings, session: CaptureSession, device: CaptureDevice,
                                controls: any ExposureControls, requestedAt instant: UInt64,
                                timeout: Duration?) async -> (MemberWork, PhotoCaptureError?, UInt64?) {
        var processing: MemberWork = []
        var remaining = resolved.bracketedSettings[...]
        do throws(PhotoCaptureError) {
            if let perFrame = controls.perFrame,
               let restoredAfter = try await captureOnConsecutiveFrames(&remaining, into: &processing, of: resolved, session: session,
                                                                        device: device, controls: perFrame, requestedAt: instant,
                                                                        timeout: timeout) {
                return (processing, nil, restoredAfter)
            }
            let processor = PhotoProcessor(encoders: encoders)
            for member in remaining {
                await Self.limitMembersInFlight(processing)
                let reading = try controls.apply(member.target)
                device.source.logger.info("bracket member \(member.sequenceCount) exposure set", metadata: [
                    "controls": "\(reading.controls.map { "\($0.key)=\($0.value)" }.joined(separator: ","))"])
                let changed = MonotonicClock.now()
                let (delivered, skipped) = try await session.settledFrame(
                    format: resolved.framePixelFormat, size: resolved.frameDimensions,
                    hardwareCrop: resolved.framing.hardwareCropRect, startedAfter: changed,
                    settling: controls.framesToSettle, timeout: timeout, request: instant)
                processing.append(Self.process(delivered, of: member, exposure: AppliedExposure(reading, member: member, framesSkipped: skipped),
                                               resolved: resolved, device: device, processor: processor))
            }
            return (processing, nil, nil)
        } catch {
            return (processing, error.attributed(to: resolved.uniqueID), nil)
        }
    }

    /// Takes `members` on consecutive frames of controls set per frame: every member's change is
    /// scheduled at once, the first for the frame ``CaptureDevice/framesToSettle`` frames on (or
    /// the first the camera can still reach), each next one for the frame after, and the
    /// restore for the frame after the last. Each frame is claimed before its change is made,
    /// and checked to have been exposed with it. Returns the instant the restore took, or nil
    /// when the stream's timing is not known or a frame came exposed otherwise (a restart, a
    /// skipped frame): then `members` holds the members still to take.
    private func captureOnConsecutiveFrames(_ members: inout ArraySlice<ResolvedBracketedExposure>, into processing: inout MemberWork,
                                            of resolved: ResolvedPhotoSettings, session: CaptureSession, device: CaptureDevice,
                                            controls: any PerFrameExposureControls, requestedAt instant: UInt64,
                                            timeout: Duration?) async throws(PhotoCaptureError) -> UInt64? {
        let source = device.source
        let (format, size, crop) = (resolved.framePixelFormat, resolved.frameDimensions, resolved.framing.hardwareCropRect)
        // The schedule is reckoned from the stream's frame timing: the request's stream running,
        // with two frames in hand (a few frames after a restart; other requests may change the
        // stream meanwhile, so only a few tries).
        var after = MonotonicClock.now()
        for _ in 0..<4 where !source.isStreaming(format: format, size: size, crop: crop) || source.frameTiming == nil {
            after = try await session.frame(format: format, size: size, hardwareCrop: crop, startedAfter: after,
                                            timeout: timeout).frame.timestampNanoseconds
        }
        guard source.isStreaming(format: format, size: size, crop: crop), let (newest, interval) = source.frameTiming else { return nil }
        func firstFrameStart(after instant: UInt64) -> UInt64 {
            instant < newest ? newest : newest + ((instant - newest) / interval + 1) * interval
        }

        var claims: [(member: ResolvedBracketedExposure, change: ScheduledExposure, reservation: LiveFrameSource.Reservation)] = []
        defer { for claim in claims { source.cancel(claim.reservation) } }
        let scheduled = MonotonicClock.now()
        // Each frame is claimed before the change aimed at it is made; the margin covers the
        // few calls between reading the clock and the first claim.
        var aim = scheduled + UInt64(controls.framesToSettle) * interval + min(max(interval / 2, 100_000), 1_000_000)
        for member in members {
            var reservation = source.reserve(.startedAfter(aim))
            let change: ScheduledExposure
            do {
                change = try controls.apply(member.target, forFramesStartingAfter: aim)
            } catch {
                source.cancel(reservation)
                throw error
            }
            if change.effectiveAfter != aim {
                // Later than aimed (this thread was held up): claim the frame it reaches instead.
                source.cancel(reservation)
                reservation = source.reserve(.startedAfter(change.effectiveAfter))
            }
            claims.append((member, change, reservation))
            aim = firstFrameStart(after: change.effectiveAfter) + interval / 2
        }
        let restoredAfter = try controls.restore(forFramesStartingAfter: aim)
        source.logger.info("bracket members scheduled on consecutive frames", metadata: [
            "first": "\(claims.first.map { firstFrameStart(after: $0.change.effectiveAfter) } ?? 0)", "interval": "\(interval)"])

        let processor = PhotoProcessor(encoders: encoders)
        let passedOverFrom = firstFrameStart(after: scheduled)
        while let (member, change, reservation) = claims.first {
            claims.removeFirst()
            await Self.limitMembersInFlight(processing)
            let delivered: DeliveredFrame
            do {
                // The timeout counts from the frame's expected end, however many frames ahead it
                // was scheduled (`--settle-frames 1000`).
                let due = firstFrameStart(after: change.effectiveAfter) + interval
                let ahead = Duration.nanoseconds(Int64(due - min(due, MonotonicClock.now())))
                delivered = try await session.frame(format: format, size: size, hardwareCrop: crop, startedAfter: change.effectiveAfter,
                                                    reservation: reservation, timeout: source.waitLimit(timeout).map { $0 + ahead })
            } catch where error.code.isStreamFormatChange {
                // Another request restarted the stream in its own format.
                source.logger.warning("the stream changed before bracket member \(member.sequenceCount)", metadata: ["then": "member by member"])
                return nil
            }
            let start = delivered.frame.timestampNanoseconds
            guard try controls.exposed(frameStartingAt: start, with: change) else {
                source.logger.warning("the frame scheduled for bracket member \(member.sequenceCount) came exposed otherwise",
                                      metadata: ["frame": "\(delivered.frame.sequence)", "then": "member by member"])
                return nil
            }
            members.removeFirst()
            let skipped = start > passedOverFrom ? Int((start - passedOverFrom) / interval) : 0
            processing.append(Self.process(DeliveredFrame(frame: delivered.frame,
                                                          delivery: delivered.delivery.afterChange(of: delivered.frame, request: instant)),
                                           of: member, exposure: AppliedExposure(change.reading, member: member, framesSkipped: skipped),
                                           resolved: resolved, device: device, processor: processor))
        }
        return restoredAfter
    }

    /// Waits while ``bracketMembersInFlight`` members are being processed.
    private static func limitMembersInFlight(_ processing: MemberWork) async {
        if processing.count >= bracketMembersInFlight {
            _ = await processing[processing.count - bracketMembersInFlight].value
        }
    }

    /// A task making the photos of `member` from its frame on a worker thread: a RAW member
    /// gives its DNG and, with a processed format, the photo developed from it.
    private static func process(_ delivered: DeliveredFrame, of member: ResolvedBracketedExposure, exposure: AppliedExposure,
                                resolved: ResolvedPhotoSettings, device: CaptureDevice,
                                processor: PhotoProcessor) -> Task<[Result<CapturePhoto, PhotoCaptureError>], Never> {
        Task {
            await onWorkerThread { () -> [Result<CapturePhoto, PhotoCaptureError>] in
                var results: [Result<CapturePhoto, PhotoCaptureError>] = []
                _ = processor.results(from: delivered.frame, resolved: resolved, device: device, delivery: delivered.delivery,
                                      sequenceCount: member.sequenceCount, exposure: exposure) { result in
                    results.append(result.map { photo in
                        var photo = photo
                        photo.bracketSettings = member
                        photo.appliedExposure = exposure
                        return photo
                    })
                }
                return results
            }
        }
    }
}

extension PhotoOutput {
    /// Runs CPU-bound work on a thread of its own. Swift's cooperative pool and Dispatch's global
    /// queues both run one job per core, so with two cores the third member would wait for the
    /// first to finish and then encode alone; threads of their own share the cores evenly.
    static func onWorkerThread<T: Sendable, Failure: Error>(_ body: @escaping @Sendable () throws(Failure) -> T) async throws(Failure) -> T {
        let result: Result<T, Failure> = await withCheckedContinuation { continuation in
            WorkerThread.start { continuation.resume(returning: Result(catching: body)) }
        }
        return try result.get()
    }
}

extension PhotoCaptureError.Code {
    var isStreamFormatChange: Bool {
        if case .streamFormatChanged = self { return true }
        return false
    }
}

extension AppliedExposure {
    /// What was applied for `member`, from the values read back after setting it.
    init(_ reading: ExposureReading, member: ResolvedBracketedExposure, framesSkipped: Int) {
        func bias(_ applied: Double?) -> Double? {
            guard let applied, applied > 0, let metered = member.meteredValue, metered > 0 else { return nil }
            return log2(applied / metered)
        }
        switch member.method {
        case .exposureTargetBias: exposureTargetBias = reading.bias
        case .exposureDuration: exposureTargetBias = bias(reading.duration)
        case .iso: exposureTargetBias = bias(reading.iso)
        case .manual: exposureTargetBias = nil
        }
        exposureDuration = reading.duration
        iso = reading.iso
        controls = reading.controls
        framesSkippedToSettle = framesSkipped
    }
}
