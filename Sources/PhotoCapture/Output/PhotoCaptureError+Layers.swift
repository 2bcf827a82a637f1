import Codecs
import Imaging

extension PhotoCaptureError {
    /// `body`'s value; a codec error becomes ``Code/encoding(_:)``, keeping its type. Work that
    /// calls both layers wraps each call in its own, so no error arrives here untyped.
    static func encoding<T>(_ body: () throws(CodecError) -> T) throws(PhotoCaptureError) -> T {
        do { return try body() } catch { throw PhotoCaptureError(.encoding(error)) }
    }

    /// `body`'s value; a codec error reading or rewriting a file becomes
    /// ``Code/imageFileDamaged(_:)``, keeping its type.
    static func damagedFile<T>(_ body: () throws(CodecError) -> T) throws(PhotoCaptureError) -> T {
        do { return try body() } catch { throw PhotoCaptureError(.imageFileDamaged(error)) }
    }

    /// `body`'s value; an imaging error becomes ``Code/imaging(_:)``, keeping its type.
    static func imaging<T>(_ body: () throws(ImagingError) -> T) throws(PhotoCaptureError) -> T {
        do { return try body() } catch { throw PhotoCaptureError(.imaging(error)) }
    }
}
