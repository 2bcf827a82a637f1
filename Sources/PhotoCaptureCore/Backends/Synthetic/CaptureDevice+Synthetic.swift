import Codecs
import Imaging

extension CaptureDevice {
    /// How the synthetic camera is built.
    public struct SyntheticConfiguration: Sendable, Equatable {
        /// How the simulated sensor is mounted: its frames show the scene turned and mirrored
        /// accordingly, and the device reports this mounting, as a real camera would.
        public var sensorMounting: SensorMounting
        /// The largest frame size (sensor orientation); any even size up to it is offered.
        public var maximumSize: PixelSize
        /// Frames per second of the simulated stream.
        public var framesPerSecond: Int
        /// The exposure controls and their model (see ``SyntheticExposureConfiguration``).
        public var exposure = SyntheticExposureConfiguration()
        /// The simulated lens and its focus controls (see ``SyntheticLensConfiguration``); nil
        /// makes a fixed-focus camera without focus controls.
        public var lens: SyntheticLensConfiguration? = SyntheticLensConfiguration()
        /// A scene that changes over time instead of the still ``SyntheticScene``; nil by default.
        public var script: SyntheticSceneScript?

        /// A 4032x3024 (12 MP) sensor, upright, at 30 frames per second.
        public init(sensorMounting: SensorMounting = .upright,
                    maximumSize: PixelSize = PixelSize(width: 4032, height: 3024), framesPerSecond: Int = 30) {
            self.sensorMounting = sensorMounting
            self.maximumSize = maximumSize
            self.framesPerSecond = framesPerSecond
        }
    }

    /// Pixel formats the synthetic camera delivers, in order of preference: YUYV, NV12, RGB24,
    /// MJPEG, then Bayer in every order at 16, 12, 10 and 8 bits, then MIPI CSI-2 packed Bayer
    /// at 12 and 10 bits (`pRCC`…, `pRAA`…).
    public static let syntheticPixelFormats: [FramePixelFormat] = [.yuyv, .nv12, .rgb24, .mjpeg]
        + [16, 12, 10, 8].flatMap { bits in FramePixelFormat.BayerPattern.allCases.map { FramePixelFormat.bayer($0, bits: bits)! } }
        + [12, 10].flatMap { bits in FramePixelFormat.allCases.filter { $0.isCSI2Packed && $0.bitsPerSample == bits } }

    /// The built-in synthetic camera: deterministic, asymmetric frames of ``SyntheticScene`` in
    /// YUYV, NV12, RGB24 and MJPEG (as a UVC webcam sends it: quality 90, no Huffman tables) at
    /// any even size up to the configured maximum — and in Bayer formats as a simulated sensor
    /// with a known response sees it (``syntheticRawCalibration``), for RAW capture. Its simulated
    /// lens (``SyntheticConfiguration/lens``) blurs the picture when it is out of focus. Processed
    /// requests that name no format get NV12; RAW requests get RGGB 16-bit.
    public static func synthetic(_ configuration: SyntheticConfiguration = SyntheticConfiguration()) -> CaptureDevice {
        let mounting = configuration.sensorMounting
        let sizes = FrameSizes.stepwise(minimum: PixelSize(width: 16, height: 16),
                                        maximum: configuration.maximumSize, step: PixelSize(width: 2, height: 2))
        let exposure = SyntheticExposureControls(configuration.exposure, framesPerSecond: configuration.framesPerSecond)
        let lens = configuration.lens.map { SyntheticLens($0, framesPerSecond: configuration.framesPerSecond) }
        let source = StillFrameSource(framesPerSecond: configuration.framesPerSecond, exposure: exposure, lens: lens,
                                      script: configuration.script) { (format, size, factor, time, defocus) throws(PhotoCaptureError) in
            // The sensor sees the upright scene through its mounting: undoing the mounting's
            // compensation gives what it delivers.
            let uprightSize = mounting.compensation.apply(to: size)
            let scene = configuration.script?.render(time, uprightSize) ?? SyntheticScene.image(size: uprightSize)
            let sharp = SyntheticExposure.expose(scene, by: factor)
            let upright = SyntheticDefocus.blurred(sharp, radius: SyntheticDefocus.radius(defocus: defocus, size: uprightSize))
            let delivered = upright.transformed(by: mounting.compensation.inverse)
            if format == .mjpeg { return try mjpegFrame(delivered) }
            do throws(ImagingError) {
                if format.isBayer { return try syntheticBayerFrame(delivered, format: format) }
                return try FrameBuilder.frame(from: delivered, format: format)
            } catch {
                throw PhotoCaptureError(.imaging(error))
            }
        }
        return CaptureDevice(
            uniqueID: "synthetic", localizedName: "photocap synthetic camera", kind: .synthetic,
            formats: syntheticPixelFormats.map { Format(pixelFormat: $0, sizes: sizes) },
            sensorMounting: mounting, rawCalibration: syntheticRawCalibration, source: source)
    }

    private static func mjpegFrame(_ image: RGBImage) throws(PhotoCaptureError) -> Frame {
        let planes = try PhotoCaptureError.imaging { () throws(ImagingError) in try image.planarImage() }
        let jpeg = try PhotoCaptureError.encoding { () throws(CodecError) in
            try JPEGFile.removingHuffmanTables(try JPEGEncoder().encode(planes, quality: 90))
        }
        return try PhotoCaptureError.imaging { () throws(ImagingError) in
            try Frame(format: .mjpeg, size: image.size, storage: FrameStorage(copying: jpeg))
        }
    }
}
