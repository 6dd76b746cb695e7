import Glibc
import ShuffleCore

/// Walks a folder tree with POSIX calls and reports every regular file with its size and time.
///
/// - Paths are bytes (`PathBytes`), never assumed to be UTF-8.
/// - Symbolic links are never followed, neither to files nor to folders: a link cannot lead out of
///   the tree or into a loop, and a stick's content is what is physically on it. Each folder is
///   opened with `openat(…, O_NOFOLLOW | O_DIRECTORY)` relative to its parent, so a folder swapped
///   for a link mid-walk is not followed either.
/// - Hidden entries (names starting with `.`: `.Trashes`, `.Spotlight-V100`, `._` AppleDouble files)
///   and the system folders `System Volume Information`, `$RECYCLE.BIN` and `lost+found` are skipped.
/// - A folder that cannot be opened for a lasting reason (EACCES, ELOOP, too deep) is skipped with a
///   warning naming it; the walk goes on and is still complete.
/// - A sign that the stick is going away makes the walk **incomplete** (`WalkOutcome.incomplete`): an
///   I/O error (EIO, ENODEV, ENXIO, ESTALE) anywhere, ENOENT on a folder listed a moment ago, a folder
///   that could not be read to its end, or the root no longer being the same folder on the same device
///   (checked before every folder and at the end). An incomplete walk stops as soon as the root is gone.
public struct Scanner {
    /// One regular file found by the walk.
    public struct Entry: Sendable, Equatable {
        /// The path relative to the root.
        public var path: PathBytes
        /// Size in bytes.
        public var size: Int64
        /// Modification time in nanoseconds since the epoch.
        public var mtimeNs: Int64
    }

    /// Folder names skipped wherever they appear (compared without regard to ASCII case).
    public static let skippedFolderNames: Set<String> = ["system volume information", "$recycle.bin", "lost+found"]

    /// The deepest folder nesting walked; deeper folders are skipped with a warning.
    public static let maximumDepth = 64

    /// The root folder.
    public let root: PathBytes
    /// Where warnings go (one line each, naming the path).
    public let warn: (String) -> Void
    /// Asked between files and folders; `true` stops the walk as `.cancelled`. Must be cheap (an atomic load).
    public var isCancelled: () -> Bool = { false }
    /// Test seam at the hardware edge: called with a folder's path relative to the root just before the
    /// walk opens it (never for the root). Tests use it to make a folder or the whole stick vanish
    /// mid-walk; production leaves it nil.
    public var beforeEnteringFolder: ((PathBytes) -> Void)?

    /// Creates a scanner of `root`.
    public init(root: PathBytes, warn: @escaping (String) -> Void) {
        self.root = root
        self.warn = warn
    }

    /// The walk's running state: the root's identity and the first reason it stopped short.
    private struct State {
        let identity: RootIdentity
        var outcome = WalkOutcome.complete
        /// Set when going on is pointless: the root is gone, or the run was cancelled.
        var stop = false
    }

    /// Walks the tree, calling `visit` for every regular file, and says whether the whole tree was read.
    /// Throws only when the root itself cannot be opened.
    @discardableResult
    public func walk(_ visit: (Entry) -> Void) throws(LibraryError) -> WalkOutcome {
        let fd = open(root.cString, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            throw .notAFolder(path: root.display, reason: code == ENOTDIR ? "not a folder" : Self.describe(code))
        }
        guard let identity = RootIdentity(fd: fd, path: root) else {
            let code = errno
            close(fd)
            throw .notAFolder(path: root.display, reason: Self.describe(code))
        }
        var state = State(identity: identity)
        walkFolder(fd: fd, relative: PathBytes([]), depth: 0, &state, visit)
        if !state.stop, let problem = identity.problem() { state.outcome.record(.incomplete(reason: problem)) }
        if case .incomplete(let reason) = state.outcome {
            warn("the walk of \(root.display) did not finish (\(reason)); nothing will be removed from the index")
        }
        return state.outcome
    }

    /// Errors that mean the device is going away rather than one entry being unreadable.
    static func meansDeviceGone(_ code: Int32) -> Bool {
        code == EIO || code == ENODEV || code == ENXIO || code == ESTALE
    }

    /// Records that the walk is incomplete, and stops it when the root is no longer there.
    private func fail(_ reason: String, _ state: inout State) {
        warn(reason)
        state.outcome.record(.incomplete(reason: reason))
        if let problem = state.identity.problem() {
            state.outcome.record(.incomplete(reason: problem))
            state.stop = true
        }
    }

    private func checkCancelled(_ state: inout State) -> Bool {
        guard isCancelled() else { return false }
        state.outcome = .cancelled
        state.stop = true
        return true
    }

    /// Walks the open folder `fd` (closing it), whose path relative to the root is `relative`.
    private func walkFolder(fd: Int32, relative: PathBytes, depth: Int, _ state: inout State, _ visit: (Entry) -> Void)
    {
        guard let directory = fdopendir(fd) else {
            fail("cannot read \(root.appending(relative).display): \(Self.describe(errno))", &state)
            close(fd)
            return
        }
        defer { closedir(directory) }
        var subfolders: [PathBytes] = []
        while !state.stop {
            if checkCancelled(&state) { return }
            errno = 0
            guard let entry = readdir(directory) else {
                if errno != 0 {
                    fail("stopped reading \(root.appending(relative).display): \(Self.describe(errno))", &state)
                }
                break
            }
            let name = Self.name(of: entry)
            guard !name.isEmpty, name[0] != UInt8(ascii: ".") else { continue }  // ".", "..", hidden
            if entry.pointee.d_type == UInt8(DT_LNK) { continue }
            var info = stat()
            let statResult = withUnsafePointer(to: &entry.pointee.d_name) { namePointer in
                namePointer.withMemoryRebound(to: CChar.self, capacity: name.count + 1) {
                    fstatat(dirfd(directory), $0, &info, AT_SYMLINK_NOFOLLOW)
                }
            }
            let path = relative.appending(PathBytes(name))
            guard statResult == 0 else {
                let code = errno
                if Self.meansDeviceGone(code) {
                    fail("cannot read \(root.appending(path).display): \(Self.describe(code))", &state)
                } else {
                    // A file deleted between readdir and stat is simply not there; make sure the stick still is.
                    if code == ENOENT, let problem = state.identity.problem() {
                        state.outcome.record(.incomplete(reason: problem))
                        state.stop = true
                    }
                    warn("skipping \(root.appending(path).display): \(Self.describe(code))")
                }
                continue
            }
            switch info.st_mode & S_IFMT {
            case S_IFREG:
                let mtime = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
                visit(Entry(path: path, size: Int64(info.st_size), mtimeNs: mtime))
            case S_IFDIR:
                let lowered = String(decoding: name, as: UTF8.self).lowercased()
                if !Self.skippedFolderNames.contains(lowered) { subfolders.append(path) }
            default:
                continue  // symbolic links, devices, sockets, FIFOs
            }
        }
        for folder in subfolders {
            if state.stop || checkCancelled(&state) { return }
            guard depth + 1 < Self.maximumDepth else {
                warn("skipping \(root.appending(folder).display): folders nested deeper than \(Self.maximumDepth)")
                continue
            }
            beforeEnteringFolder?(folder)
            // One lstat per folder: a stick unmounted mid-walk stops the walk here, not at the end.
            if let problem = state.identity.problem() {
                state.outcome.record(.incomplete(reason: problem))
                state.stop = true
                return
            }
            let name = Array(folder.bytes.split(separator: UInt8(ascii: "/")).last ?? [])
            let child = (name.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer {
                openat(dirfd(directory), $0.baseAddress!, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            }
            guard child >= 0 else {
                let code = errno
                if code == ENOENT || Self.meansDeviceGone(code) {
                    // Listed a moment ago: the folder (or the stick) went away under the walk.
                    fail("cannot open \(root.appending(folder).display): \(Self.describe(code))", &state)
                } else {
                    warn("skipping \(root.appending(folder).display): \(Self.describe(code))")
                }
                continue
            }
            walkFolder(fd: child, relative: folder, depth: depth + 1, &state, visit)
        }
    }

    private static func name(of entry: UnsafeMutablePointer<dirent>) -> [UInt8] {
        withUnsafeBytes(of: &entry.pointee.d_name) { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            let length = bytes.firstIndex(of: 0) ?? bytes.count
            return Array(bytes[..<length])
        }
    }

    /// `strerror` text for `code`.
    static func describe(_ code: Int32) -> String { String(cString: strerror(code)) }
}
