/// How sensor mounting is handled in processed photos (never in RAW: a DNG's data is never
/// turned, whatever the mode).
///
/// The raw values are the spellings photocap's reports use: `sensor`, `none`, `upright`. The
/// mode without compensation is ``off`` in Swift, not `none`, so that assigning `.none` can never
/// mean `nil` (see ``PhotoSettings/orientationCompensation``).
public enum OrientationCompensation: String, CaseIterable, Hashable, Sendable {
    /// The pixels are turned to undo the sensor's mounting; the metadata carries only how the
    /// device was held. The default, as on Apple's photo output.
    case sensor
    /// Pixels stay as the sensor delivered them; the metadata carries the whole correction.
    /// The fast path; `isCameraSensorOrientationCompensationEnabled = false` in Apple's terms.
    case off = "none"
    /// Everything is applied to the pixels and the metadata says "normal" (1), for consumers that
    /// ignore orientation metadata.
    case upright

    /// Not a mode: the mode without compensation is ``off``. Declared so that `.none` is a
    /// compile-time error naming it, never `Optional.none`.
    @available(*, unavailable, renamed: "off", message: "the mode without compensation is .off")
    public static var none: OrientationCompensation { .off }
}
