extension PhotoOutput {
    /// Captures a single photo with the lens set first: focuses as the request says (a one-shot
    /// scan is waited for, at most its timeout), takes the first frame exposed after the change
    /// plus the lens's settling frames, and puts the focus controls back as soon as that frame is
    /// in hand. The resolved settings from `didCapturePhoto` on carry the lens position and scan
    /// result read back from the camera. The photo is delivered only once the restored lens has
    /// settled (it is processed meanwhile), so a request made on its delivery does not catch a
    /// frame still focused for this one.
    func runFocused(_ planned: ResolvedPhotoSettings, session: CaptureSession, requestedAt instant: UInt64,
                    timeout: Duration?, delegate: any PhotoCaptureDelegate) async {
        let id = planned.uniqueID
        await delegate.photoOutput(self, willBeginCaptureFor: planned)
        guard let device = session.input else {
            return await finish(planned, delivered: 0, error: PhotoCaptureError(.notConnected, uniqueID: id), to: delegate)
        }
        var resolved = planned
        var operation: FocusOperation?
        var delivered: DeliveredFrame?
        var failure: PhotoCaptureError?
        await delegate.photoOutput(self, willCapturePhotoFor: planned)
        do {
            operation = try await focus(&resolved, on: device)
            let changed = MonotonicClock.now()
            delivered = try await session.settledFrame(
                format: resolved.framePixelFormat, size: resolved.frameDimensions, hardwareCrop: resolved.framing.hardwareCropRect,
                startedAfter: changed, settling: operation?.controls.framesToSettle ?? 0, timeout: timeout, request: instant).delivered
        } catch {
            failure = error.attributed(to: id)
        }
        var restoreError: PhotoCaptureError?
        var restored: Task<Void, Never>?
        do {
            try operation?.end()
            let (changed, settling) = (MonotonicClock.now(), operation?.controls.framesToSettle ?? 0)
            restored = failure != nil ? nil : Task { [resolved] in
                _ = try? await session.settledFrame(format: resolved.framePixelFormat, size: resolved.frameDimensions,
                                                    hardwareCrop: resolved.framing.hardwareCropRect, startedAfter: changed,
                                                    settling: settling, timeout: timeout, request: changed)
            }
        } catch {
            restoreError = error.attributed(to: id)
        }
        guard let delivered, failure == nil else {
            return await finish(resolved, delivered: 0, error: failure ?? restoreError, to: delegate)
        }
        await delegate.photoOutput(self, didCapturePhotoFor: resolved)
        var results: [Result<CapturePhoto, PhotoCaptureError>] = []
        failure = PhotoProcessor(encoders: encoders).results(
            from: delivered.frame, resolved: resolved, device: device, delivery: delivered.delivery) { results.append($0) }
        await restored?.value
        for (index, result) in results.enumerated() { await deliver(result, number: index, of: resolved, to: delegate) }
        // As after a bracket: the photo is delivered even when a control could not go back.
        await finish(resolved, delivered: results.count, error: failure ?? restoreError, to: delegate)
    }

    /// Focuses `device` as `resolved` asks and records in it what the camera reported; returns
    /// the operation whose ``FocusOperation/end()`` restores the controls (nil when the request
    /// leaves focus alone). Focus requests share the lens, so this waits its turn; when focusing
    /// fails, what was changed is put back before the error is thrown.
    func focus(_ resolved: inout ResolvedPhotoSettings, on device: CaptureDevice) async throws(PhotoCaptureError) -> FocusOperation? {
        guard let focus = resolved.focus else { return nil }
        guard let controls = device.focusControls else { throw PhotoCaptureError(.focus(.noFocusControls(device: device.uniqueID))) }
        let operation = FocusOperation(controls: controls, device: device.uniqueID)
        await controls.ledger.gate.enter()
        do {
            resolved.focus = try await operation.focus(focus)
        } catch {
            try? operation.end()
            throw error
        }
        device.source.logger.info("focus set", metadata: [
            "mode": "\(focus.mode)", "lensPosition": "\(resolved.focus?.lensPosition.map { "\($0)" } ?? "-")",
            "autoFocus": "\(resolved.focus?.autoFocusResult?.rawValue ?? "-")"])
        return operation
    }
}

extension FocusOperation {
    /// Restores the controls and lets the next focus request on the camera in.
    func end() throws(PhotoCaptureError) {
        defer { controls.ledger.gate.leave() }
        try restore()
    }
}
