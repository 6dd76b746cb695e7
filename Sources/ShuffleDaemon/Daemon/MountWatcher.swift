import Glibc
import ShuffleCore

/// Watches `/proc/self/mountinfo`: the kernel flags `POLLPRI | POLLERR` on it whenever the mount table
/// changes, and the watcher re-reads it to report which library mounts appeared and disappeared.
struct MountWatcher: ~Copyable {
    /// The descriptor to poll for `POLLPRI`.
    let descriptor: Int32
    private let path: String
    private var roots: [PathBytes]
    private(set) var current: [MountEntry]

    /// Opens the mount table; `roots` are the library roots.
    init(roots: [String], path: String = "/proc/self/mountinfo") throws(DaemonError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw DaemonError("cannot read the mount table \(path): \(String(cString: strerror(errno)))")
        }
        // Every property is set after the last `throw`: Swift 6.0 to 6.2 crash on a `~Copyable` init with a
        // `deinit` that throws with a defaulted property set ("SIL memory lifetime failure").
        descriptor = fd
        self.path = path
        self.roots = roots.map { PathBytes($0) }
        current = []
    }

    /// Replaces the library roots (after SIGHUP); the next `refresh` reports the difference.
    mutating func setRoots(_ roots: [String]) { self.roots = roots.map { PathBytes($0) } }

    /// Re-reads the table; returns the library mounts that appeared and the mount points that went away.
    mutating func refresh() -> (appeared: [MountEntry], gone: [MountEntry]) {
        let entries = MountTable.libraries(in: MountTable.parse(readAll()), roots: roots)
        let before = Dictionary(current.map { ($0.mountPoint, $0) }, uniquingKeysWith: { $1 })
        let after = Dictionary(entries.map { ($0.mountPoint, $0) }, uniquingKeysWith: { $1 })
        // Same mount point but another mount (id) means the old one went and a new one came.
        let gone = current.filter { after[$0.mountPoint]?.id != $0.id }
        let appeared = entries.filter { before[$0.mountPoint]?.id != $0.id }
        current = entries
        return (appeared, gone)
    }

    private func readAll() -> [UInt8] {
        // mountinfo must be read from offset 0 each time; pread does that without seeking.
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16384)
        var offset: off_t = 0
        while true {
            let count = pread(descriptor, &buffer, buffer.count, offset)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            out.append(contentsOf: buffer.prefix(count))
            offset += off_t(count)
        }
        return out
    }

    deinit { close(descriptor) }
}
