import FoundationEssentials
import Glibc

/// Whether another process holds a media-controller device. libcamera locks a pipeline's media
/// devices (`lockf`) while one of its cameras is acquired, and a pipeline handler that finds its
/// links in use cannot set the pipeline up: another process then does not list that camera at
/// all. A camera id libcamera does not know, while such a lock is held, is a busy camera, not a
/// missing one.
enum MediaDeviceLocks {
    /// True when a `media*` node in `folder` is locked by another process.
    static func heldByAnotherProcess(in folder: String = "/dev") -> Bool {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.contains { name in
            guard name.hasPrefix("media"), Int(name.dropFirst(5)) != nil else { return false }
            let descriptor = open(folder + "/" + name, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
            guard descriptor >= 0 else { return false }
            defer { close(descriptor) }
            // F_GETLK reports a lock that would conflict with a write lock on the whole file;
            // this process's own locks never conflict with it.
            var lock = flock()
            lock.l_type = Int16(F_WRLCK)
            lock.l_whence = Int16(SEEK_SET)
            return fcntl(descriptor, F_GETLK, &lock) == 0 && lock.l_type != Int16(F_UNLCK)
        }
    }
}
