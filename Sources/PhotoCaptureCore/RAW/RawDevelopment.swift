import Codecs
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import Imaging

/// Develops DNG files into processed photos through the capture pipeline: LibRaw opens the DNG
/// (from memory, or a file from its descriptor) and develops it (demosaic, white balance as
/// shot, the camera's colour matrix to sRGB), then the photo is converted, oriented and encoded exactly as a captured one. A picture
/// past ``largestWholeDevelopment`` is developed in bands by the conversion pass instead.
///
/// The orientation follows the settings' compensation mode like any processed photo. photocap's
/// DNGs record, in their XMP, how their Orientation tag splits into the sensor's mounting and
/// how the device was held, so `.sensor` turns the pixels to undo the mounting and writes the
/// device part as metadata, exactly as a processed photo of the capture would have been. A DNG
/// without that record is treated as taken with an upright sensor: its Orientation is how the
/// device was held (a mirror in it is taken as the sensor's).
///
/// The DNG's ``PhotoMetadata`` (location, artist, copyright, description, comment, and its XMP
/// without photocap's orientation record, when ``PhotoMetadata/validateXMP(_:)`` accepts it) is
/// carried into the developed photo; a field the settings' ``PhotoSettings/metadata`` sets wins. So are
/// its camera (`Make`, `Model`) and exposure (`ExposureTime`, `FNumber`, ISO, `FocalLength`,
/// `ExposureBiasValue`). A DNG whose raw data is missing or truncated is refused.
public enum RawDevelopment {
    /// The processed photo of `dng`, as `settings` ask: format (JPEG, HEIC, TIFF or
    /// uncompressed), quality, HEIC speed, preview and thumbnail, compensation mode.
    ///
    /// The DNG decides the rest: its size, and how the device was held (`rotationAngle` of
    /// `settings` is ignored). `name` names the file in errors. Throws
    /// ``PhotoCaptureError/Code/unreadableRaw(path:error:)`` for a file that is not a DNG or is
    /// truncated, before anything is developed.
    public static func developPhoto(fromDNG dng: Data, settings: PhotoSettings,
                                    name: String = "DNG") throws(PhotoCaptureError) -> CapturePhoto {
        try developPhoto(fromDNG: [UInt8](dng), settings: settings, name: name)
    }

    /// ``developPhoto(fromDNG:settings:name:)`` of the file's bytes, which it takes: LibRaw
    /// lets go of them once it has the sensor data, so a caller that keeps no other reference
    /// (`photocap develop`) does not hold the file beside the development.
    ///
    /// A picture of more than `largestWhole` pixels (``largestWholeDevelopment`` unless a test
    /// says otherwise) is developed in bands where its filter layout allows.
    package static func developPhoto(fromDNG bytes: consuming [UInt8], settings: PhotoSettings, name: String = "DNG",
                                     largestWhole: Int = largestWholeDevelopment) throws(PhotoCaptureError) -> CapturePhoto {
        let id = settings.uniqueID
        try checkDevelopable(settings)
        let info = try dngInfo(bytes, name: name, uniqueID: id)
        // Handed on, not copied: LibRaw lets go of it once it has the sensor data.
        var file: [UInt8]? = consume bytes
        let (frame, time) = try developedFrame(largestWhole: largestWhole, uniqueID: id) { () throws(CodecError) in
            try RAWDeveloper(data: file.take()!)
        }
        return try developPhoto(consume frame, developedIn: time, of: info, settings: settings, name: name)
    }

    /// ``developPhoto(fromDNG:settings:name:largestWhole:)`` of the DNG at `path`, which is read
    /// for its metadata and let go of, then given to LibRaw by its descriptor: LibRaw reads it
    /// a buffer at a time as it unpacks, so the file is never held beside the sensor data (for
    /// a 16-bit DNG, 2 bytes a pixel each). Where the descriptor cannot be given to LibRaw, the
    /// file is read again and handed over in memory.
    package static func developPhoto(fromDNGAt path: String, settings: PhotoSettings, name: String = "DNG",
                                     largestWhole: Int = largestWholeDevelopment) throws(PhotoCaptureError) -> CapturePhoto {
        let id = settings.uniqueID
        try checkDevelopable(settings)
        func unreadable(_ error: FileReadError) -> PhotoCaptureError {
            PhotoCaptureError(.unreadableRaw(path: name, error: .file(error)), uniqueID: id)
        }
        let descriptor: Int32
        do { (descriptor, _) = try InputFile.openRegular(path) } catch { throw unreadable(error) }
        defer { close(descriptor) }
        func contents() throws(PhotoCaptureError) -> [UInt8] {
            do { return try InputFile.read(descriptor: descriptor, path: path) } catch { throw unreadable(error) }
        }
        let info = try dngInfo(try contents(), name: name, uniqueID: id)
        let (frame, time) = try developedFrame(largestWhole: largestWhole, uniqueID: id) { () throws(CodecError) in
            if let developer = try RAWDeveloper(descriptor: descriptor) { return developer }
            let bytes: [UInt8]
            do throws(FileReadError) { bytes = try InputFile.read(descriptor: descriptor, path: path) } catch { throw .file(error) }
            return try RAWDeveloper(data: bytes)
        }
        return try developPhoto(consume frame, developedIn: time, of: info, settings: settings, name: name)
    }

    /// Refuses settings no development can meet: RAW output, or no processed format.
    private static func checkDevelopable(_ settings: PhotoSettings) throws(PhotoCaptureError) {
        guard settings.format.isProcessed, !settings.isRawPhotoRequested else {
            throw PhotoCaptureError(.developmentFormatUnsupported(settings.format), uniqueID: settings.uniqueID)
        }
    }

    /// The photo of a DNG whose metadata is `info`, from its developed `frame` (taken: the
    /// processor lets go of it, and of the sensor data a banded frame holds, once it is
    /// converted, before the encode) and the time its development took.
    private static func developPhoto(_ frame: consuming Frame, developedIn developmentTime: Double, of info: DNGFileInfo,
                                     settings: PhotoSettings, name: String) throws(PhotoCaptureError) -> CapturePhoto {
        let processor = PhotoProcessor(encoders: EncoderPool())
        let written = info.xmp.flatMap(RawOrientationRecord.init(xmp:))
        let record = RawOrientationRecord.of(written, orientation: info.orientation)
        let cameraName = info.model ?? info.uniqueCameraModel ?? "DNG"
        var request = settings  // the same uniqueID: the development answers this request
        request.rotationAngle = record.rotationAngle
        (request.framePixelFormat, request.maxPhotoDimensions) = (.rgb24, nil)
        // Another tool's packet may be malformed or too large for photocap to write: left out
        // then, never a reason to refuse the development.
        let carriedXMP = RawOrientationRecord.appPacket(in: info.xmp).flatMap { (packet) -> String? in
            (try? PhotoMetadata.validateXMP(packet)).map { packet }
        }
        request.metadata = settings.metadata.filling(from: info.suppliedMetadata, xmp: carriedXMP)
        let resolved = try resolve(request, for: frame, mounting: record.mounting, cameraName: cameraName, name: name)
        // The DNG's camera (Make, Model) and exposure go into the photo, not photocap's own.
        var photo = try processor.process(consume frame, resolved: resolved, cameraName: cameraName,
                                          captureDate: captureDate(of: info) ?? Date(), sourceCamera: info.cameraTags)
        photo.timings.development = developmentTime
        photo.encodingRoute = .developed
        return photo
    }

    /// `request` resolved for the developed image as a camera with one frame, `frame`, mounted
    /// as `mounting` says. The camera, and the copy of the frame its source holds, are let go
    /// of on return, so that the processor holds the frame's last copy.
    private static func resolve(_ request: PhotoSettings, for frame: Frame, mounting: SensorMounting, cameraName: String,
                                name: String) throws(PhotoCaptureError) -> ResolvedPhotoSettings {
        let device = CaptureDevice(uniqueID: "dng:\(name)", localizedName: cameraName, kind: .frameFile,
                                   formats: [.init(pixelFormat: .rgb24, sizes: .discrete([frame.size]))],
                                   sensorMounting: mounting, source: StillFrameSource { (_, _, _, _, _) throws(PhotoCaptureError) in frame })
        return try SettingsResolver(device: device, defaultCompensation: .sensor).resolve(request)
    }

    /// The largest picture, in pixels, developed whole by LibRaw (AHD demosaic). LibRaw holds
    /// the sensor data, a 16-bit four-channel copy and the 8-bit result at once: a larger
    /// picture is developed in bands instead, by the conversion pass (LibRaw's black levels,
    /// white balance, white level and colour matrix; Malvar–He–Cutler's demosaic), beside the
    /// sensor data alone. A RAW file whose filter layout is not a 2×2 Bayer tile is developed
    /// whole at any size.
    public static let largestWholeDevelopment = 64_000_000

    /// The bytes a development of a picture of `size` holds at once per pixel, the file read
    /// and the photo encoded included: 18 when LibRaw develops it whole (x265's lookahead makes
    /// a HEIC the largest), 6 in bands (what each format was measured to hold is in the
    /// Performance article).
    /// For a memory check before anything is read (``PixelBudget/MemoryCheck``).
    public static func bytesPerPixel(developing size: PixelSize) -> Int {
        size.area > largestWholeDevelopment ? 6 : wholeDevelopmentBytesPerPixel
    }

    /// ``bytesPerPixel(developing:)`` of a picture LibRaw develops whole.
    private static let wholeDevelopmentBytesPerPixel = 18

    /// The developed image as a frame, and the time LibRaw took: developed whole by LibRaw
    /// (its image let go of on return, before the photo is made from the frame), or, past
    /// `largestWhole` pixels, the sensor data as a CFA frame that the conversion pass develops.
    private static func developedFrame(largestWhole: Int, uniqueID id: Int64,
                                       opening open: () throws(CodecError) -> RAWDeveloper) throws(PhotoCaptureError) -> (frame: Frame, time: Double) {
        let start = ContinuousClock.now
        let image: RGBImage
        do throws(CodecError) {
            let developer = try open()
            if developer.imageSize.area > largestWhole {
                if let frame = developer.bandedFrame() { return (frame, (ContinuousClock.now - start).seconds) }
                // Checked for bands from the header: LibRaw takes more.
                try PixelBudget.check(developer.imageSize, declaredBy: "RAW", holding: wholeDevelopmentBytesPerPixel)
            }
            image = try developer.develop()
        } catch {
            throw PhotoCaptureError(.rawDevelopmentFailed(error), uniqueID: id)
        }
        let time = (ContinuousClock.now - start).seconds
        do {
            return (try Frame(format: .rgb24, size: image.size, storage: FrameStorage(copying: image.pixels)), time)
        } catch {
            throw PhotoCaptureError(.imaging(error), uniqueID: id)
        }
    }

    /// Checks, without developing anything, that `dng` is a complete DNG file with a CFA image;
    /// throws ``PhotoCaptureError/Code/unreadableRaw(path:error:)`` naming `name` otherwise.
    public static func validate(_ dng: Data, name: String = "DNG") throws(PhotoCaptureError) {
        try validate([UInt8](dng), name: name)
    }

    /// ``validate(_:name:)`` of the file's bytes.
    package static func validate(_ bytes: [UInt8], name: String = "DNG") throws(PhotoCaptureError) {
        _ = try dngInfo(bytes, name: name, uniqueID: nil)
    }

    /// Refuses a DNG whose CFA image is past the pixel budget (`PixelBudget`) from its
    /// directories alone, read with `pread` before the file is read whole (a 16-bit
    /// 16384x16384 DNG is 0.5 GB, which development reads and copies before LibRaw's own
    /// check): throws
    /// ``PhotoCaptureError/Code/rawDevelopmentFailed(_:)`` as that check does. A file that cannot
    /// be opened, or whose directories do not say, is left to the full read, which names why.
    public static func checkPixelBudget(ofFileAt path: String) throws(PhotoCaptureError) {
        guard let size = declaredSize(ofFileAt: path) else { return }
        do throws(CodecError) { try PixelBudget.check(size, declaredBy: "RAW") } catch { throw PhotoCaptureError(.rawDevelopmentFailed(error)) }
    }

    /// The size of the CFA image a DNG's directories declare, read with `pread` without reading
    /// the file whole; nil when the file cannot be opened or its directories do not say.
    public static func declaredSize(ofFileAt path: String) -> PixelSize? {
        let declared = try? InputFile.withOpenFile(path) { descriptor, size in DNGHeader.cfaSize(descriptor: descriptor, fileSize: size) }
        return declared ?? nil
    }

    private static func dngInfo(_ bytes: [UInt8], name: String, uniqueID: Int64?) throws(PhotoCaptureError) -> DNGFileInfo {
        do {
            return try DNGFileInfo(data: bytes)
        } catch {
            throw PhotoCaptureError(.unreadableRaw(path: name, error: error), uniqueID: uniqueID)
        }
    }

    /// DateTimeOriginal (with OffsetTimeOriginal when present) of a DNG's EXIF.
    private static func captureDate(of dng: DNGFileInfo) -> Date? {
        EXIFTimestamp.date(dateTime: dng.dateTimeOriginal, subseconds: nil, offset: dng.offsetTimeOriginal)
    }
}
