/// An OpenCV handle, guarded by its detector's lock.
struct UncheckedPointer: @unchecked Sendable {
    let pointer: OpaquePointer
}
