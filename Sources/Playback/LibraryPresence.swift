internal import Glibc
import ShuffleCore

/// Whether the library being played is still there: its root folder can be `stat`ed and lies on the same
/// device (file system) as when playing began. A pulled stick fails the first test once its folder is gone,
/// and the second once it is unmounted (the mount point is then a plain folder of the root file system).
///
/// The engine asks before holding a failed track against the file: a file is marked unplayable only while
/// its library is present, so a stick pulled out mid-play never leaves its tracks marked broken.
struct LibraryPresence: Sendable {
    /// The library root (absolute).
    let root: PathBytes
    /// `st_dev` of the root when playing began; nil when it could not be read (then only existence counts).
    private let device: UInt64?

    /// Watches `root`; nil when there is no root (then presence cannot be judged and the engine trusts
    /// every failure).
    init?(root: PathBytes?) {
        guard let root, !root.bytes.isEmpty else { return nil }
        self.root = root
        device = Self.device(of: root)
    }

    /// Whether the root is still a folder on the same device as at the start.
    var isPresent: Bool {
        guard let now = Self.device(of: root) else { return false }
        return device == nil || device == now
    }

    /// `st_dev` of `path` when it is a folder that can be `stat`ed, else nil.
    private static func device(of path: PathBytes) -> UInt64? {
        var info = stat()
        guard stat(path.cString, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { return nil }
        return UInt64(info.st_dev)
    }
}
