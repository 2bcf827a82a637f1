import Imaging

/// One frame of a ``VideoDataOutput``: the picture upright, cropped to the device's aspect ratio
/// and zoom (unless the output ``VideoDataOutput/deliversWholeFieldOfView``) and scaled, in the output's pixel format — like the pixel buffer of a sample buffer
/// that `AVCaptureVideoDataOutput` delivers.
public struct VideoFrame: Sendable {
    /// The camera's sequence number of the frame.
    public let sequence: UInt64
    /// When the frame's exposure started (CLOCK_MONOTONIC nanoseconds), as photos report it.
    public let timestamp: UInt64
    /// How the pixels are laid out in ``planes``.
    public let pixelFormat: VideoDataOutput.PixelFormat
    /// Width and height of the picture.
    public let size: PixelSize
    /// The planes: Y, Cb, Cr for ``VideoDataOutput/PixelFormat/i420``; Y and interleaved CbCr
    /// for ``VideoDataOutput/PixelFormat/nv12``; one BGRA plane for
    /// ``VideoDataOutput/PixelFormat/bgra``. Full-range BT.601 (JFIF) Y'CbCr, as photos.
    public let planes: [Plane]
    /// What was done to the camera's frame to make this picture.
    public let orientation: Orientation
    /// The part of the whole upright picture (the camera's full frame turned upright) this
    /// picture shows: ``NormalizedRect/whole`` unless it was cropped, by the conversion or by
    /// the driver. A face at `rect` in this picture is at `rect.absolute(in: fieldOfView)` in
    /// the whole one.
    public let fieldOfView: NormalizedRect

    /// One plane of a video frame, rows without padding.
    public struct Plane: Sendable {
        /// Width and height in samples (a CbCr pair counts as one).
        public let size: PixelSize
        /// Bytes per row.
        public let bytesPerRow: Int
        /// The rows, one after another.
        public let bytes: [UInt8]
    }
}
