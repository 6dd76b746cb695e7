internal import CLinux

/// Changes to folders as a file descriptor: the event loop polls it, nothing wakes while nothing changes.
/// Wraps `inotify_init1(2)` and `inotify_add_watch(2)`.
public final class INotify {
    /// What to hear about in a watched folder.
    public struct Changes: OptionSet, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        /// An entry was created in the folder (`IN_CREATE`).
        public static let created = Changes(rawValue: UInt32(IN_CREATE))
        /// An entry was deleted from it (`IN_DELETE`).
        public static let deleted = Changes(rawValue: UInt32(IN_DELETE))
        /// An entry was renamed into or out of the folder (`IN_MOVED_TO`, `IN_MOVED_FROM`).
        public static let moved = Changes(rawValue: UInt32(IN_MOVED_TO | IN_MOVED_FROM))
        /// An entry's owner, group or mode changed (`IN_ATTRIB`): udev handing a device node over.
        public static let attributes = Changes(rawValue: UInt32(IN_ATTRIB))
    }

    /// The descriptor to poll for `POLLIN`.
    public let descriptor: Int32
    /// The watches, by the path they were added for.
    private var watches: [String: Int32] = [:]

    /// Creates the instance (non-blocking, close-on-exec).
    public init() throws(LinuxError) {
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { throw LinuxError.current("inotify_init1") }
        descriptor = fd
    }

    /// Watches `path` (a folder) for `changes`; adding it again replaces what is watched.
    public func watch(_ path: String, for changes: Changes) throws(LinuxError) {
        let wd = inotify_add_watch(descriptor, path, changes.rawValue)
        guard wd >= 0 else { throw LinuxError.current("inotify_add_watch \(path)") }
        watches[path] = wd
    }

    /// Whether `path` is watched.
    public func isWatching(_ path: String) -> Bool { watches[path] != nil }

    /// Reads every pending event and returns the names they concern (the entries of the watched folders), or
    /// an empty list when none was pending. A watched folder that was removed stops being watched.
    public func take() -> [String] {
        var names: [String] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            var offset = 0
            // struct inotify_event { int wd; uint32_t mask, cookie, len; char name[len]; }: 16 bytes, then the name.
            while offset + 16 <= count {
                func word(_ at: Int) -> UInt32 {
                    buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: at, as: UInt32.self) }
                }
                let wd = Int32(bitPattern: word(offset))
                let mask = word(offset + 4)
                let length = Int(word(offset + 12))
                let start = offset + 16
                guard start + length <= count else { break }
                let name = buffer[start..<(start + length)].prefix { $0 != 0 }
                names.append(String(decoding: name, as: UTF8.self))
                if mask & UInt32(IN_IGNORED) != 0 { watches = watches.filter { $0.value != wd } }
                offset = start + length
            }
        }
        return names
    }

    deinit { close(descriptor) }
}
