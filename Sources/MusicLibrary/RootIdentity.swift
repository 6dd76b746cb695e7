import Glibc
import ShuffleCore

/// The device and inode of a library root, taken from the open folder when a walk starts, to tell
/// later whether the path still leads to the same folder.
///
/// A stick that is unmounted (even lazily, `umount -l`) or pulled out leaves its mount point behind as a
/// different folder (the empty one underneath, on another device) or no folder at all; `holds()` then
/// answers false. Open descriptors into a lazily unmounted tree keep working, so only this comparison
/// notices such an unmount mid-walk.
public struct RootIdentity: Equatable, Sendable {
    /// `st_dev` of the root.
    public let device: UInt64
    /// `st_ino` of the root.
    public let inode: UInt64
    /// The root's path (absolute).
    public let path: PathBytes

    /// The identity of the folder open as `fd` (from `fstat`), which was opened from `path`.
    init?(fd: Int32, path: PathBytes) {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        self.path = path
    }

    /// The identity of the folder at `path` now (nil when it cannot be opened as a folder).
    public init?(path: PathBytes) {
        let fd = open(path.cString, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        self.init(fd: fd, path: path)
    }

    /// Whether `path` still leads (by a fresh `lstat`) to the same folder on the same device; nil when it
    /// does, else a reason for a person.
    public func problem() -> String? {
        var info = stat()
        guard lstat(path.cString, &info) == 0 else {
            return "\(path.display) is gone (\(Scanner.describe(errno))); the stick was probably unplugged"
        }
        guard (info.st_mode & S_IFMT) == S_IFDIR, UInt64(info.st_dev) == device, UInt64(info.st_ino) == inode else {
            return "\(path.display) is no longer the folder that was being indexed; the stick was probably unplugged"
        }
        return nil
    }
}
