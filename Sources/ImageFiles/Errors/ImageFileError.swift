#if canImport(Glibc)
import Glibc
#endif
import Codecs
import Imaging

/// Why an image file could not be turned upright or written: the file work of
/// ``ImageOrienter`` and ``AtomicFileWriter``.
///
/// The file's name is in the error where the error is about a path; an orienter working on
/// bytes (``ImageOrienter/upright(_:)``) leaves naming the file to its caller.
public struct ImageFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public let code: Code

    /// An error of kind `code`.
    public init(_ code: Code) {
        self.code = code
    }

    /// The kinds of failure.
    public enum Code: Sendable, Equatable {
        // Reading and turning.
        /// RAW files are never re-oriented: their Orientation tag is the correction.
        case rawNotReoriented
        /// The image file cannot be read (no such file, a folder, permission...).
        case unreadable(FileReadError)
        /// The image file's bytes cannot be decoded or turned; the codec error says why.
        case damaged(CodecError)
        /// Turning the decoded picture failed (its size is beyond the pixel budget, say).
        case imaging(ImagingError)
        /// JPEG/HEIC quality must be 1...100.
        case qualityOutOfRange(Int)
        /// A lossless turn was asked of a file that is not a JPEG.
        case losslessRequiresJPEG(ImageFileFormat)
        /// The lossless turn of the JPEG is not exact (the partial blocks at the edges would be
        /// lost); the codec layer's refusal says for which orientation, size and iMCU, typed.
        case losslessNotExact(LosslessTurnRefusal)

        // Writing.
        /// The target file exists and overwriting was not requested.
        case fileExists(path: String)
        /// Writing `path` failed in the system call `call` with `errno`; `attribute` names the
        /// extended attribute being copied, if that was the step.
        case writeFailed(path: String, call: String, errno: Errno, attribute: String? = nil)
        /// The folder `folder` that `path` would be written in does not exist.
        case folderMissing(path: String, folder: String)
        /// `path` is the file being read, which this work never writes over.
        case sameAsSource(path: String)
        /// A rewrite in place was asked of something that is not a regular file.
        case notARegularFile(path: String)
        /// An in-place rewrite was refused: the file has other hard links, which a replacement
        /// would detach (and rewriting the shared inode could leave it half-written).
        case hardLinked(path: String, links: Int)
        /// A URL given for a file is not a `file:` URL (it is quoted whole).
        case notAFileURL(String)
    }

    /// The lower layer's error this one carries, if any, typed.
    public var underlyingError: (any Error & Sendable)? {
        switch code {
        case .unreadable(let error): error
        case .damaged(let error): error
        case .imaging(let error): error
        case .losslessNotExact(let refusal): refusal
        default: nil
        }
    }

    /// One line for people.
    public var description: String {
        switch code {
        case .rawNotReoriented: "RAW files are never re-oriented: their Orientation tag is the correction"
        case .unreadable(let error): error.reason
        case .damaged(let error): error.description
        case .imaging(let error): "image conversion failed: \(error)"
        case .qualityOutOfRange(let quality): "quality \(quality) is out of range (1...100)"
        case .losslessRequiresJPEG(let format):
            "a lossless turn applies to JPEG files only; this is \(format.rawValue.uppercased())"
        case .losslessNotExact(let refusal): refusal.description
        case .fileExists(let path): "\(path) already exists (pass overwrite to replace it)"
        case .writeFailed(let path, let call, let errno, let attribute):
            "cannot write \(path): \(call) failed: " + (attribute.map { "extended attribute \($0): " } ?? "") + errno.message
        case .folderMissing(let path, let folder): "cannot write \(path): stat failed: folder \(folder) does not exist"
        case .sameAsSource(let path): "cannot write \(path): it is the file being read"
        case .notARegularFile(let path): "cannot write \(path): stat failed: not a regular file"
        case .hardLinked(let path, let links):
            "\(path) has \(links) hard links; rewriting it in place would break them, so it is left as it is "
                + "(write the result elsewhere, or copy the file first)"
        case .notAFileURL(let url): "\(url) is not a file URL (file:///...)"
        }
    }

    /// `body`'s value; a codec error reading or rewriting a file becomes ``Code/damaged(_:)``,
    /// keeping its type.
    static func damaged<T>(_ body: () throws(CodecError) -> T) throws(ImageFileError) -> T {
        do { return try body() } catch { throw ImageFileError(.damaged(error)) }
    }

    /// `body`'s value; an imaging error becomes ``Code/imaging(_:)``, keeping its type.
    static func imaging<T>(_ body: () throws(ImagingError) -> T) throws(ImageFileError) -> T {
        do { return try body() } catch { throw ImageFileError(.imaging(error)) }
    }
}
