/// When the flash fires.
public enum FlashMode: String, CaseIterable, Hashable, Sendable {
    /// Never.
    case off
    /// Always; rejected on devices without a flash.
    case on
    /// When the scene needs it; resolves to off on devices without a flash.
    case auto
}
