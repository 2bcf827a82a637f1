/// A tracked face in the CLI's JSON: its ID, its bounds in metadata coordinates (normalised to
/// the upright picture after the current crop, origin top-left) and the analysed frame's
/// timestamp (CLOCK_MONOTONIC nanoseconds).
package struct FaceReport: Encodable {
    package let id: Int
    package let x: Double, y: Double, width: Double, height: Double
    package let timestamp: UInt64

    package init(id: Int, x: Double, y: Double, width: Double, height: Double, timestamp: UInt64) {
        (self.id, self.x, self.y, self.width, self.height, self.timestamp) = (id, x, y, width, height, timestamp)
    }
}
