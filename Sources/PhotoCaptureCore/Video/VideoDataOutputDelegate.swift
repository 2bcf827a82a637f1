/// Receives the frames of a ``VideoDataOutput``, like `AVCaptureVideoDataOutputSampleBufferDelegate`.
///
/// Calls come one at a time on the output's own queue. Time spent here delays only this
/// output's next frame: with ``VideoDataOutput/alwaysDiscardsLateVideoFrames`` the frames that
/// arrive meanwhile are dropped (counted), never the camera's stream or a photo.
public protocol VideoDataOutputDelegate: AnyObject, Sendable {
    /// A new frame.
    func videoDataOutput(_ output: VideoDataOutput, didOutput frame: VideoFrame)
    /// Frames were dropped because this output was busy; `total` counts them since it was added.
    func videoDataOutput(_ output: VideoDataOutput, didDropFrames count: Int, total: Int)
    /// The stream ended with `error` (the camera vanished, say); frames resume if the session
    /// is started again.
    func videoDataOutput(_ output: VideoDataOutput, didFailWith error: PhotoCaptureError)
}

extension VideoDataOutputDelegate {
    /// Does nothing.
    public func videoDataOutput(_ output: VideoDataOutput, didDropFrames count: Int, total: Int) {}
    /// Does nothing.
    public func videoDataOutput(_ output: VideoDataOutput, didFailWith error: PhotoCaptureError) {}
}
