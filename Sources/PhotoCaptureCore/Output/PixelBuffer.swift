import Codecs
import FoundationEssentials
import Imaging
import Synchronization

/// Processed pixels delivered with a photo: full-range BT.601 Y'CbCr 4:2:0 in three planes
/// (JFIF's colour space), modelled on a `CVPixelBuffer` of a photo.
///
/// A JPEG photo without a preview, from a frame its camera keeps anyway (the frame-file and
/// synthetic cameras' pictures, not a V4L2 camera's buffer, which goes back to the camera), is
/// encoded band by band without its whole planes ever being in memory; its pixel buffer then
/// converts the frame, once, when its pixels are first asked for (some milliseconds at 12 MP),
/// and holds the frame until then. Its ``size`` is known without converting.
///
/// The pixel buffer of a photo delivered with an error is empty: size zero, no bytes, and
/// ``rgbImage()`` and ``jpegData(quality:)`` throw.
public struct PixelBuffer: Sendable {
    private let pixels: Pixels

    /// How a viewer turns these pixels to show them upright. A photo's pixel buffer and its
    /// preview keep the photo's stored orientation, so theirs is the orientation written into
    /// the photo's metadata (``CapturePhoto/writtenOrientation``); ``jpegData(quality:)``
    /// writes it as the EXIF Orientation tag, so that a saved preview shows as its photo does.
    public package(set) var orientation: Orientation = .up

    /// The planes (package-internal: their storage is mutable and pooled), converted now if
    /// they were deferred.
    package var image: PlanarImage { pixels.image }

    /// Width and height.
    public var size: PixelSize { pixels.size }

    /// The number of planes: 3 (Y, Cb, Cr), as `CVPixelBufferGetPlaneCount`.
    public var planeCount: Int { 3 }

    /// Width and height of plane 0 (Y), 1 (Cb) or 2 (Cr); the chroma planes are half the size,
    /// rounded up.
    public func size(ofPlane plane: Int) -> PixelSize {
        precondition((0..<planeCount).contains(plane), "a pixel buffer has planes 0, 1 and 2")
        return isEmpty ? PixelSize(width: 0, height: 0) : image.size(ofPlane: plane)
    }

    /// Bytes per row of plane 0, 1 or 2 (at least its width), as
    /// `CVPixelBufferGetBytesPerRowOfPlane`.
    public func bytesPerRow(ofPlane plane: Int) -> Int {
        precondition((0..<planeCount).contains(plane), "a pixel buffer has planes 0, 1 and 2")
        return isEmpty ? 0 : image.stride(ofPlane: plane)
    }

    /// Calls `body` with the bytes of plane 0, 1 or 2, rows `bytesPerRow(ofPlane:)` apart; the
    /// bytes are valid only inside `body`.
    public func withUnsafeBytes<Result, Failure: Error>(
        ofPlane plane: Int, _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let rows = size(ofPlane: plane).height
        guard rows > 0 else { return try body(UnsafeRawBufferPointer(start: nil, count: 0)) }
        let count = (rows - 1) * bytesPerRow(ofPlane: plane) + size(ofPlane: plane).width
        return try body(UnsafeRawBufferPointer(start: image.baseAddress(ofPlane: plane), count: count))
    }

    /// The pixels as packed RGB.
    public func rgbImage() throws(PhotoCaptureError) -> RGBImage {
        guard !isEmpty else { throw PhotoCaptureError(.imaging(.invalidSize(size))) }
        do {
            return try image.rgbImage()
        } catch {
            throw PhotoCaptureError(.imaging(error))
        }
    }

    /// The pixels as a JPEG file, for saving a preview: stored as they are, with an EXIF block
    /// holding their ``orientation`` unless it is `.up`, so the file shows as the photo does.
    public func jpegData(quality: Int = 85) throws(PhotoCaptureError) -> Data {
        guard (1...100).contains(quality) else { throw PhotoCaptureError(.qualityOutOfRange(quality)) }
        guard !isEmpty else { throw PhotoCaptureError(.imaging(.invalidSize(size))) }
        do throws(CodecError) {
            let jpeg = try JPEGEncoder().encode(image, quality: quality)
            guard orientation != .up else { return Data(jpeg) }
            let exif = try EXIFBuilder.tiffBlock(for: EXIFMetadata(orientation: orientation), thumbnailJPEG: nil)
            return Data(try JPEGFile.insertingEXIF(exif, into: jpeg))
        } catch {
            throw PhotoCaptureError(.encoding(error))
        }
    }
}

extension PixelBuffer {
    /// The pixels of `image`.
    package init(image: PlanarImage) {
        pixels = Pixels(.made(image), size: image.size)
    }

    /// The pixels `conversion` makes, converted when first asked for.
    package init(deferring conversion: FrameConversion) {
        pixels = Pixels(.deferred(conversion), size: conversion.size)
    }

    /// The same pixels, shown turned by `orientation`.
    func oriented(_ orientation: Orientation) -> PixelBuffer {
        var buffer = self
        buffer.orientation = orientation
        return buffer
    }

    /// No pixels: the pixel buffer of a photo delivered with an error.
    static let empty = PixelBuffer(pixels: Pixels(.none, size: PixelSize(width: 0, height: 0)))

    /// Whether this is the pixel buffer of a photo delivered with an error (its planes do not exist).
    var isEmpty: Bool { pixels.size.isEmpty }

    /// Whether the planes exist yet (false until a deferred conversion is first asked for).
    package var isMade: Bool { pixels.isMade }

    /// The planes, made or to be made once, shared by every copy of the pixel buffer.
    private final class Pixels: Sendable {
        enum State {
            case made(PlanarImage)
            case deferred(FrameConversion)
            /// A failed photo's: there are no planes (``PixelBuffer/isEmpty``).
            case none
        }
        let size: PixelSize
        private let state: Mutex<State>

        init(_ state: State, size: PixelSize) {
            self.state = Mutex(state)
            self.size = size
        }

        var isMade: Bool {
            state.withLock { state in
                if case .deferred = state { return false }
                return true
            }
        }

        var image: PlanarImage {
            state.withLock { state in
                switch state {
                case .made(let image):
                    return image
                case .none:
                    // The public accessors check ``PixelBuffer/isEmpty`` first.
                    preconditionFailure("a photo delivered with an error has no pixels")
                case .deferred(let conversion):
                    // The same conversion already ran band by band for the photo's encode; a
                    // failure here would be a broken invariant, not bad input.
                    do {
                        let image = try FrameConverter().convert(conversion)
                        state = .made(image)
                        return image
                    } catch {
                        preconditionFailure("converting a photo's pixels again failed: \(error)")
                    }
                }
            }
        }
    }

    /// The pixels of `rgb`, for a preview drawn on (the CLI's overlay) and then saved with
    /// ``jpegData(quality:)``; package-only, not part of the photo API.
    package init(rgb: RGBImage) throws(PhotoCaptureError) {
        do {
            self.init(image: try rgb.planarImage())
        } catch {
            throw PhotoCaptureError(.imaging(error))
        }
    }
}
