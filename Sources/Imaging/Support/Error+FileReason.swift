import FoundationEssentials
import Glibc

extension Error {
    /// Why a FileManager or Data file operation failed, in words: the C library's text for the
    /// POSIX error under it ("No such file or directory"). FoundationEssentials, all photocap
    /// loads, has no `localizedDescription`.
    package var fileErrorReason: String {
        if let posix = self as? POSIXError { return String(cString: strerror(posix.code.rawValue)) }
        guard let cocoa = self as? CocoaError else { return "\(self)" }
        if let posix = cocoa.userInfo["NSUnderlyingError"] as? POSIXError { return String(cString: strerror(posix.code.rawValue)) }
        switch cocoa.code {
        case .fileNoSuchFile, .fileReadNoSuchFile: return String(cString: strerror(ENOENT))
        case .fileReadNoPermission, .fileWriteNoPermission: return String(cString: strerror(EACCES))
        case .fileWriteFileExists: return String(cString: strerror(EEXIST))
        case .fileWriteOutOfSpace: return String(cString: strerror(ENOSPC))
        default: return "file error \(cocoa.code.rawValue)"
        }
    }
}
