import ArgumentParser
import FoundationEssentials
import PhotoCapture
#if canImport(Glibc)
import Glibc
#endif

/// `photocap shoot`: one photo from a camera, the synthetic camera or a frame file.
package struct ShootCommand: AsyncParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "shoot",
        abstract: "Take a photo.",
        discussion: """
            Without --output the photo gets a timestamped name in the current folder. Files are \
            written atomically and never replace an existing file unless --overwrite is given.

            Examples:
              photocap shoot --output photo.jpg
              photocap shoot --format heic --no-compensation --output shots/
              photocap shoot --device synthetic --sensor-rotation 90 --rotation 90 --preview 320x240 --thumbnail 160x120
              photocap shoot --frame-file frame.yuv --frame-format yuyv --frame-size 1280x720 --format tiff
              photocap shoot --device /dev/video0 --size 1920x1080 --pixel-format YUYV --skip 5
              photocap shoot --bracket -2,0,+2 --output hdr.jpg
              photocap shoot --device /dev/video0 --bracket-manual 1/100@100,1/50@200 --json
              photocap shoot --aspect 3:4 --zoom 1.5 --sensor-rotation 90
              photocap shoot --device /dev/video0 --input 3 --size 1280x720 --aspect 1:1
              photocap shoot --device /dev/video0 --focus once --output sharp.jpg
              photocap shoot --focus manual:120 --json
              photocap shoot --format dng --pixel-format RG12 --output raw.dng
              photocap shoot --raw-plus heic --output shots/       (NAME.dng and NAME.heic from one frame)
              photocap shoot --faces --format heic --output people.heic   (faces in view as XMP face regions)
            """)

    @OptionGroup(title: "Camera")
    var cameraOptions: CameraOptions

    @Option(name: .customLong("control"), help: ArgumentHelp(
        "Set a camera control for this shot (repeatable), as 'photocap controls' names it; put back afterwards, also on failure and Ctrl-C.",
        valueName: "name=value"))
    var controls: [String] = []

    @Option(help: "Output format: jpeg, heic, tiff, or dng for the sensor's RAW (Bayer) data. Default: jpeg.")
    var format: PhotoFormat?

    @Option(name: .customLong("raw-plus"), help: ArgumentHelp(
        "Write a RAW DNG and a processed photo in this format (jpeg, heic or tiff), developed from the same frame: NAME.dng and NAME.<ext>.",
        valueName: "format"))
    var rawPlus: PhotoFormat?

    @Option(help: "Also write a preview fitting WIDTHxHEIGHT as NAME.preview.jpg.")
    var preview: PixelSize?

    @Option(help: "Embed a thumbnail fitting WIDTHxHEIGHT (JPEG: EXIF IFD1; HEIC: thumbnail item).")
    var thumbnail: PixelSize?

    @Option(help: "Aspect ratio of the upright photo: 1:1, 3:4, 4:3, 9:16 or 16:9 (a centred crop; the driver's where it can).")
    var aspect: AspectRatio?

    @Option(help: "Zoom: a centred crop this many times narrower, after --aspect (1 to 8).")
    var zoom: Double = 1

    @Option(name: .customLong("count"), help: "Photos to take, one after another on one running session; files get -001, -002... suffixes. Default: 1.")
    var countOption: Int?

    /// `--count`, 1 by default.
    var count: Int { countOption ?? 1 }

    @Option(name: .customLong("quality-prioritization"), help: ArgumentHelp(
        "speed: one frame; balanced: in a dark scene, merged with the frames before it; quality: merged with up to six frames around it, for less noise. Default: balanced.",
        valueName: "speed|balanced|quality"))
    var qualityPrioritizationOption: PhotoQualityPrioritization?

    /// `--quality-prioritization`, `.balanced` by default.
    var qualityPrioritization: PhotoQualityPrioritization { qualityPrioritizationOption ?? .balanced }

    @Flag(name: .customLong("smart-framing"), help: "Let the smart framing monitor choose the aspect ratio and zoom for the people in view, then shoot.")
    var smartFraming = false

    @Option(name: .customLong("framing-timeout"), help: "Seconds --smart-framing waits for a recommendation with people in view before it takes the current one.")
    package var framingTimeout = 3.0

    @Flag(name: .customLong("faces"), help: "Track the faces in view (at most --faces-timeout) and write them into the photo's XMP as MWG face regions, without changing the framing (--smart-framing writes them too).")
    var faces = false

    @Option(name: .customLong("faces-timeout"), help: "Seconds --faces and --smart-framing wait for a face to be confirmed before the photo is taken without regions.")
    package var facesTimeout = 2.0

    @OptionGroup(title: "Encoding and orientation")
    var encoding: EncodingOptions

    @OptionGroup(title: "Output")
    var outputOptions: OutputOptions

    @OptionGroup(title: "Timelapse")
    var timelapse: TimelapseOptions

    @OptionGroup(title: "Metadata")
    var metadata: MetadataOptions

    @OptionGroup(title: "Logging")
    var logging: LoggingOptions

    @OptionGroup(title: "Bracketed capture")
    var bracket: BracketOptions

    @OptionGroup(title: "Focus")
    var focus: FocusOptions

    @OptionGroup var pixelBudget: PixelBudgetOptions

    /// A shoot with the defaults (ArgumentParser fills in the options).
    package init() {}

    package func validate() throws {
        if format == .uncompressed { throw ValidationError("--format must be jpeg, heic, tiff or dng") }
        if let rawPlus {
            guard rawPlus.isProcessed, rawPlus != .uncompressed else { throw ValidationError("--raw-plus must be jpeg, heic or tiff") }
            if format != nil { throw ValidationError("--raw-plus names the processed format; leave out --format") }
        }
        if count < 1 || count > 100_000 { throw ValidationError("--count must be from 1 to 100000, got \(count)") }
        try timelapse.validate(countGiven: countOption != nil)
        for control in controls where !control.contains("=") || control.hasPrefix("=") {
            throw ValidationError("--control takes NAME=VALUE, got '\(control)'")
        }
        // A timelapse may reopen its camera after a disconnect; restoring controls across that
        // is not built yet, so the two are not combined.
        if !controls.isEmpty, timelapse.interval != nil {
            throw ValidationError("--control cannot be combined with --interval (not supported yet)")
        }
        if smartFraming || faces, timelapse.interval != nil {
            throw ValidationError("--\(smartFraming ? "smart-framing" : "faces") cannot be combined with --interval (not supported yet)")
        }
        if faces, (rawPlus ?? format) == .dng {
            throw ValidationError("--faces writes face regions into a processed photo; a DNG stays as the sensor delivered it: use --raw-plus")
        }
        if !(facesTimeout > 0 && facesTimeout <= 60) { throw ValidationError("--faces-timeout must be from 0 to 60 seconds, got \(facesTimeout)") }
        try validateFraming()
        if smartFraming, aspect != nil || zoom != 1 { throw ValidationError("--smart-framing chooses the aspect ratio and zoom; leave out --aspect and --zoom") }
        if !(framingTimeout > 0 && framingTimeout <= 60) { throw ValidationError("--framing-timeout must be from 0 to 60 seconds, got \(framingTimeout)") }
    }

    package func run() async throws {
        pixelBudget.limitMemory(.capture)
        // --smart-framing and --faces need OpenCV: from here on this is photocap-vision (see VisionSupport).
        let vision = smartFraming || faces ? try VisionSupport.implementation(for: smartFraming ? "shoot --smart-framing" : "shoot --faces") : nil
        do {
            try await shoot(vision: vision)
        } catch {
            throw fail(error.description)
        }
    }

    private func shoot(vision: VisionSupport.Implementation?) async throws(PhotoCaptureError) {
        if timelapse.interval != nil { return try await shootTimelapse() }
        // Settings first, so a camera that cannot be opened fails a named request too.
        let xmp = try metadata.xmpPacket()
        var settingsList = (1...count).map { _ in makeSettings(xmp: xmp) }
        let (camera, session, output, rawFormat) = try await prepareSession(firstRequest: settingsList[0].uniqueID)
        if let rawFormat {
            for index in settingsList.indices { settingsList[index].rawPixelFormat = rawFormat }
        }
        let coordinator = await rotationCoordinator(for: camera)
        for index in settingsList.indices { applyRotation(from: coordinator, to: &settingsList[index]) }

        let requests = try destinations(of: settingsList, output: output)
        // Encoders and the photo's memory made ready while the camera starts (the requests
        // differ only in their IDs: one is prepared).
        do {
            try await output.setPreparedPhotoSettingsArray([requests[0].settings])
        } catch {
            throw error.attributed(to: requests[0].settings.uniqueID)
        }
        if let frames = bracket.settleFrames { camera.framesToSettle = frames }
        let (changes, interruptHandler) = try setControls(of: camera, firstRequest: requests[0].settings.uniqueID)
        defer { interruptHandler?.cancel() }

        var current = requests[0].settings.uniqueID
        do {
            defer { restore(changes) }
            // A camera that fails to start fails the first request: say which one.
            try await session.startRunning(discardingFirst: cameraOptions.skip)
            let framingReport = smartFraming ? try await vision?.applySmartFraming(self, session, camera) : nil
            // The faces in view under the framing the photos are taken with.
            let regions = try await vision?.trackFaces(self, session) ?? []
            for (index, request) in requests.enumerated() {
                current = request.settings.uniqueID
                // How the device is held when each photo is taken.
                var settings = request.settings
                applyRotation(from: coordinator, to: &settings)
                settings.metadata.regions = regions
                try await capture(settings, to: request.paths, with: output, device: camera,
                                  smartFraming: framingReport)
                if count > 1, !json, isatty(STDERR_FILENO) != 0 {
                    note("\(index + 1)/\(count) done")
                }
            }
            await session.stopRunning()
        } catch {
            await session.stopRunning()
            throw error.attributed(to: current)
        }
    }

    /// `--control`'s values set before the stream starts, so every frame is exposed with them
    /// (put back however the shot ends), and the handler that puts the camera's controls back
    /// before the process exits when it is interrupted mid-bracket, while focusing or with
    /// `--control`. Failures are attributed to `firstRequest`.
    private func setControls(of camera: CaptureDevice,
                             firstRequest: Int64) throws(PhotoCaptureError) -> (ControlChanges?, ControlInterruptHandler?) {
        let changes: ControlChanges?
        do {
            changes = controls.isEmpty ? nil : try camera.setControls(controls.map(Self.assignment))
        } catch {
            throw error.attributed(to: firstRequest)
        }
        let interruptHandler = bracket.members.isEmpty && focus.mode == nil && changes == nil
            ? nil : ControlInterruptHandler(camera: camera, bracket: !bracket.members.isEmpty, focus: focus.mode != nil,
                                            changes: changes)
        return (changes, interruptHandler)
    }

    /// Each request with the files it will write: every request is resolved and its destination
    /// checked before the camera starts, so nothing is captured for a request that cannot be saved.
    private func destinations(of settingsList: [PhotoSettings],
                              output: PhotoOutput) throws(PhotoCaptureError) -> [(settings: PhotoSettings, paths: [OutputPaths])] {
        var requests: [(settings: PhotoSettings, paths: [OutputPaths])] = []
        let stamp = Date()
        let checks = DestinationChecks()
        for (index, settings) in zip(1..., settingsList) {
            let resolved = try output.resolvedSettings(for: settings)
            let paths = settings.bracketedSettings.isEmpty
                ? [try OutputPaths(output: output, requested: outputPath, format: resolved.format,
                                   withPreview: preview != nil, withRaw: rawPlus != nil, overwrite: overwrite,
                                   index: count > 1 ? index : nil, count: count, date: stamp, checks: checks)]
                : try memberPaths(count: resolved.bracketedSettings.count, index: count > 1 ? index : nil, total: count,
                                  output: output, format: resolved.format, date: stamp, checks: checks)
            requests.append((settings, paths))
        }
        return requests
    }

    /// Opens the camera and a session with a photo output set up as the options say; for
    /// RAW + processed, the camera's best RAW format. Failures are attributed to `firstRequest`.
    func prepareSession(firstRequest: Int64) async throws(PhotoCaptureError)
        -> (camera: CaptureDevice, session: CaptureSession, output: PhotoOutput, rawFormat: FramePixelFormat?) {
        let camera: CaptureDevice
        do {
            camera = try openCamera()
        } catch {
            throw error.attributed(to: firstRequest)
        }
        let session = CaptureSession()
        if let logger = logging.logger { session.logger = logger }
        let output = PhotoOutput()
        // Before the session runs, so the stream keeps the frames a merge needs from the start.
        output.maxPhotoQualityPrioritization = max(qualityPrioritization, .balanced)
        try session.addInput(camera)
        try session.addOutput(output)
        var rawFormat: FramePixelFormat?
        if rawPlus != nil, cameraOptions.pixelFormat == nil {
            // RAW + processed: the camera's best RAW format, as an app would pick it.
            guard let best = output.availableRawPhotoPixelFormatTypes.first else {
                throw PhotoCaptureError(.rawUnavailable(device: camera.localizedName, available: camera.formats.map(\.pixelFormat)),
                                        uniqueID: firstRequest)
            }
            rawFormat = best
        }
        try await applyFraming(to: camera)
        output.orientationCompensation = encoding.compensation.orientationCompensation
        output.frameTimeout = cameraOptions.frameTimeoutDuration
        return (camera, session, output, rawFormat)
    }

    /// `--output`, by default the current folder.
    var outputPath: String { outputOptions.output ?? "." }
    var overwrite: Bool { outputOptions.overwrite }
    package var json: Bool { outputOptions.json }

    /// New settings from the options; `xmp` is `--xmp`'s packet, read once.
    func makeSettings(xmp: String?) -> PhotoSettings {
        var settings = PhotoSettings(format: rawPlus ?? format ?? .jpeg)
        encoding.apply(to: &settings)
        metadata.apply(to: &settings, xmp: xmp)
        settings.maxPhotoDimensions = cameraOptions.size
        if settings.isRawPhotoRequested || rawPlus != nil {
            settings.rawPixelFormat = cameraOptions.pixelFormat
        } else {
            settings.framePixelFormat = cameraOptions.pixelFormat
        }
        settings.previewDimensions = preview
        settings.embeddedThumbnailDimensions = thumbnail
        settings.rotationAngle = cameraOptions.rotation.degrees ?? 0
        settings.bracketedSettings = bracket.members
        settings.focus = focus.request
        settings.photoQualityPrioritization = qualityPrioritization
        return settings
    }

    /// Captures one request and saves every photo it delivers (RAW + processed: two; a bracket:
    /// one per member, to `paths[sequenceCount - 1]`). Each photo is reported when its files are
    /// final, and a reported file is never taken back: as Apple delivers RAW and processed (and
    /// each member) as photos of their own, a later photo's failure leaves the earlier ones.
    @discardableResult
    func capture(_ settings: PhotoSettings, to paths: [OutputPaths], with output: PhotoOutput, device: CaptureDevice,
                 timelapse: TimelapseReport? = nil, smartFraming: SmartFramingReport? = nil) async throws(PhotoCaptureError) -> [String] {
        var created: [String] = []
        do throws(PhotoCaptureError) {
            for try await photo in try output.capturePhotos(with: settings) {
                created += try save(photo, to: paths.count == 1 ? paths[0] : paths[photo.sequenceCount - 1], device: device,
                                    timelapse: timelapse, smartFraming: smartFraming)
                reportProgress(of: photo)
            }
        } catch {
            noteUnrestoredControls(after: error, of: settings)
            throw error.attributed(to: settings.uniqueID)
        }
        return created
    }

    /// Writes `photo` (and its preview) and reports it; returns the files written.
    private func save(_ photo: CapturePhoto, to paths: OutputPaths, device: CaptureDevice,
                      timelapse: TimelapseReport?, smartFraming: SmartFramingReport?) throws(PhotoCaptureError) -> [String] {
        let path = photo.isRawPhoto ? paths.raw ?? paths.photo : paths.photo
        try photo.write(to: path, overwrite: overwrite)
        var previewPath: String?
        if let previewBuffer = photo.previewPixelBuffer, let target = paths.preview {
            do {
                let preview = try previewBuffer.jpegData()
                try PhotoCaptureError.file { () throws(ImageFileError) in try AtomicFileWriter.write(preview, to: target, overwrite: overwrite) }
                previewPath = target
            } catch {
                // The photo is not reported yet: do not leave it without its preview.
                if !overwrite { unlink(path) }
                throw error.attributed(to: photo.resolvedSettings.uniqueID)
            }
        }
        if json {
            var report = PhotoReport(photo: photo, path: path, previewPath: previewPath, device: device.uniqueID)
            report.sensorRotationSource = cameraOptions.sensorRotation != nil ? "--sensor-rotation" : device.sensorRotationSource
            report.timelapse = timelapse
            report.smartFraming = smartFraming
            print(report.jsonLine())
        } else if let raw = photo.rawDetails {
            print("\(path): dng \(raw.frame.size) \(raw.frame.format) (\(raw.bitsPerSample)-bit), "
                  + "orientation \(raw.writtenOrientation.exifValue), RAW (never compensated)"
                  + (previewPath.map { ", preview \($0)" } ?? "")
                  + (photo.bracketSettings == nil ? "" : ", bracket \(Self.memberNumber(photo)): \(Self.exposureSummary(photo))"))
        } else {
            let r = photo.resolvedSettings
            print("\(path): \(r.format) \(r.photoDimensions), orientation \(r.writtenOrientation.exifValue), "
                  + "compensation \(r.isSensorOrientationCompensationApplied ? "applied" : "off")" + framingNote(r)
                  + (photo.encodingRoute == .developed ? ", developed from RAW" : "")
                  + (previewPath.map { ", preview \($0)" } ?? "")
                  + (FocusReport(r)?.note ?? "")
                  + (photo.bracketSettings == nil ? "" : ", bracket \(Self.memberNumber(photo)): \(Self.exposureSummary(photo))"))
        }
        return [path] + (previewPath.map { [$0] } ?? [])
    }

    func openCamera() throws(PhotoCaptureError) -> CaptureDevice {
        // A file's frame is there at once: no sensor cadence to wait for.
        if let replay = try cameraOptions.frameFile.camera(mounting: cameraOptions.flagMounting, framesPerSecond: 1000) {
            return replay
        }
        let camera: CaptureDevice
        switch cameraOptions.device {
        case "synthetic":
            camera = synthetic()
        case let path?:
            camera = try namedCamera(path, input: cameraOptions.input)
        case nil:
            camera = try defaultCamera { synthetic() }
        }
        guard camera.kind != .synthetic else { return camera }
        // Flags override what the device reports; --mirror alone keeps its rotation.
        if let override = cameraOptions.mountingOverride { return camera.overridingSensorMounting(override) }
        if cameraOptions.mirror {
            return camera.overridingSensorMounting(SensorMounting(rotation: camera.sensorMounting.rotation, isMirrored: true))
        }
        return camera
    }

    /// The synthetic sensor is mounted the way the flags say, so it reports that mounting.
    private func synthetic() -> CaptureDevice {
        CaptureDevice.synthetic(.init(sensorMounting: cameraOptions.flagMounting))
    }
}
