/// How sensor mounting is handled in processed photos (never in RAW: a DNG's data is never
/// turned, whatever the mode).
public enum OrientationCompensation: String, CaseIterable, Hashable, Sendable {
    /// The pixels are turned to undo the sensor's mounting; the metadata carries only how the
    /// device was held. The default, as on Apple's photo output.
    case sensor
    /// Pixels stay as the sensor delivered them; the metadata carries the whole correction.
    /// The fast path.
    case none
    /// Everything is applied to the pixels and the metadata says "normal" (1), for consumers that
    /// ignore orientation metadata.
    case upright
}
