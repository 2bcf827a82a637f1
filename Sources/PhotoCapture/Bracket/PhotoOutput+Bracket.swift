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
    /// hands it to a processing task, then exposes the next member while earlier ones encode. A
    /// RAW request gives each member's DNG (then, RAW + processed, its developed photo).
    /// A request that sets focus is focused once, before the first member. The controls go back
    /// as soon as the last frame is in hand, or when a member fails; the photos are delivered in
    /// sequence order after `didCapturePhoto`, and the request ends with one `didFinishCapture`.
    func runBracket(_ planned: ResolvedPhotoSettings, session: CaptureSession, requestedAt instant: UInt64,
                    timeout: Duration, delegate: any PhotoCaptureDelegate) async {
        var resolved = planned
        let id = resolved.uniqueID
        delegate.photoOutput(self, willBeginCaptureFor: resolved)
        guard let device = session.input, let controls = device.exposureControls else {
            delegate.photoOutput(self, didFinishCaptureFor: resolved, error: PhotoCaptureError(.notConnected, uniqueID: id))
            return
        }
        // Brackets share the camera's controls: one at a time.
        await controls.gate.enter()
        delegate.photoOutput(self, willCapturePhotoFor: resolved)
        var focusing: FocusOperation?
        var focusError: PhotoCaptureError?
        do {
            focusing = try await focus(&resolved, on: device)
        } catch {
            focusError = error.attributed(to: id)
        }
        let (processing, captureError) = focusError != nil ? ([], focusError)
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
            try controls.restore()
            // Photos requested after this one must not catch a frame still exposed for the
            // bracket: the request ends once the restored values have settled too (unless the
            // camera already failed to deliver).
            let (changed, settling) = (MonotonicClock.now(), max(controls.framesToSettle, focusing?.controls.framesToSettle ?? 0))
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
        if failure == nil { delegate.photoOutput(self, didCapturePhotoFor: resolved) }
        for task in processing {
            switch await task.result {
            case .success(let photos):
                for photo in photos { delegate.photoOutput(self, didFinishProcessingPhoto: photo) }
            case .failure(let error as PhotoCaptureError):
                failure = failure ?? error.attributed(to: id)
            case .failure(let error):
                failure = failure ?? PhotoCaptureError(.unexpected("\(error)"), uniqueID: id)
            }
        }
        await restored?.value
        // A camera that vanished cannot be restored, and its own error says why.
        delegate.photoOutput(self, didFinishCaptureFor: resolved, error: failure ?? restoreError)
    }

    private func captureMembers(of resolved: ResolvedPhotoSettings, session: CaptureSession, device: CaptureDevice,
                                controls: any ExposureControls, requestedAt instant: UInt64,
                                timeout: Duration) async -> ([Task<[CapturePhoto], any Error>], PhotoCaptureError?) {
        let processor = PhotoProcessor(encoders: encoders)
        var processing: [Task<[CapturePhoto], any Error>] = []
        for member in resolved.bracketedSettings {
            if processing.count >= Self.bracketMembersInFlight {
                _ = await processing[processing.count - Self.bracketMembersInFlight].result
            }
            do {
                let reading = try controls.apply(member.target)
                device.source.logger.info("bracket member \(member.sequenceCount) exposure set", metadata: [
                    "controls": "\(reading.controls.map { "\($0.key)=\($0.value)" }.joined(separator: ","))"])
                let changed = MonotonicClock.now()
                let (delivered, skipped) = try await session.settledFrame(
                    format: resolved.framePixelFormat, size: resolved.frameDimensions,
                    hardwareCrop: resolved.framing.hardwareCropRect, startedAfter: changed,
                    settling: controls.framesToSettle, timeout: timeout, request: instant)
                let exposure = AppliedExposure(reading, member: member, framesSkipped: skipped)
                processing.append(Task {
                    // A RAW member gives its DNG and, with a processed format, the photo developed from it.
                    try await Self.onWorkerThread { () throws(PhotoCaptureError) -> [CapturePhoto] in
                        var photos: [CapturePhoto] = []
                        try processor.photos(from: delivered.frame, resolved: resolved, device: device, delivery: delivered.delivery,
                                             sequenceCount: member.sequenceCount, exposure: exposure) { photo in
                            var photo = photo
                            photo.bracketSettings = member
                            photo.appliedExposure = exposure
                            photos.append(photo)
                        }
                        return photos
                    }
                })
            } catch {
                return (processing, error.attributed(to: resolved.uniqueID))
            }
        }
        return (processing, nil)
    }
}

extension PhotoOutput {
    /// Runs CPU-bound work on a thread of its own. Swift's cooperative pool and Dispatch's global
    /// queues both run one job per core, so with two cores the third member would wait for the
    /// first to finish and then encode alone; threads of their own share the cores evenly.
    static func onWorkerThread<T: Sendable>(_ body: @escaping @Sendable () throws(PhotoCaptureError) -> T) async throws(PhotoCaptureError) -> T {
        let result: Result<T, PhotoCaptureError> = await withCheckedContinuation { continuation in
            WorkerThread.start { continuation.resume(returning: Result(catching: body)) }
        }
        return try result.get()
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
