import Imaging

extension TemporaryDirectory {
    /// Writes `picture` laid out as one camera frame of `format` (FrameBuilder's layout, as a
    /// frame-file camera reads it) to the file `name` in the folder; that file's path.
    public func writeFrame(of picture: RGBImage, format: FramePixelFormat, named name: String) throws -> String {
        let frame = try FrameBuilder.frame(from: picture, format: format)
        return try write(frame.storage.withUnsafeBytes { [UInt8]($0) }, named: name)
    }
}
