import Imaging

extension LumaPicture {
    /// What a detector's C call finds in this picture, at most `capacity` results, or the
    /// message it failed with as the error. `detect` gets the packed rows (the stride is the
    /// width), a buffer for the results and one for the message: one wrapper for every
    /// detector, so each sizes its buffers, passes the picture and checks the count alike.
    func detections<Found>(capacity: Int = 256, empty: Found, messageCapacity: Int,
                           _ detect: (_ luma: UnsafePointer<UInt8>?, _ width: Int32, _ height: Int32, _ stride: Int32,
                                      _ results: UnsafeMutablePointer<Found>?, _ capacity: Int32,
                                      _ message: UnsafeMutablePointer<CChar>?, _ messageCapacity: Int) -> Int32)
        throws(FaceDetectionError) -> ArraySlice<Found> {
        var found = [Found](repeating: empty, count: capacity)
        var message = [CChar](repeating: 0, count: messageCapacity)
        let count = pixels.withUnsafeBufferPointer { luma in
            found.withUnsafeMutableBufferPointer { results in
                message.withUnsafeMutableBufferPointer { text in
                    detect(luma.baseAddress, Int32(size.width), Int32(size.height), Int32(size.width),
                           results.baseAddress, Int32(capacity), text.baseAddress, messageCapacity)
                }
            }
        }
        guard count >= 0 else { throw .detectionFailed(message: String(cMessage: message)) }
        return found.prefix(Int(min(count, Int32(capacity))))
    }
}
