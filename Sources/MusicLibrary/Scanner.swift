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
/// - A folder that cannot be opened or a file that vanished (EACCES, ENOENT, EIO…) is skipped with a
///   warning naming it; the walk goes on.
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

    /// Creates a scanner of `root`.
    public init(root: PathBytes, warn: @escaping (String) -> Void) {
        self.root = root
        self.warn = warn
    }

    /// Walks the tree, calling `visit` for every regular file. Throws only when the root itself cannot be opened.
    public func walk(_ visit: (Entry) -> Void) throws(LibraryError) {
        let fd = root.withCString { open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard fd >= 0 else {
            let code = errno
            throw .notAFolder(path: root.display, reason: code == ENOTDIR ? "not a folder" : Self.describe(code))
        }
        walkFolder(fd: fd, relative: PathBytes([]), depth: 0, visit)
    }

    /// Walks the open folder `fd` (closing it), whose path relative to the root is `relative`.
    private func walkFolder(fd: Int32, relative: PathBytes, depth: Int, _ visit: (Entry) -> Void) {
        guard let directory = fdopendir(fd) else {
            warn("skipping \(root.appending(relative).display): \(Self.describe(errno))")
            close(fd)
            return
        }
        defer { closedir(directory) }
        var subfolders: [PathBytes] = []
        while true {
            errno = 0
            guard let entry = readdir(directory) else {
                if errno != 0 { warn("stopped reading \(root.appending(relative).display): \(Self.describe(errno))") }
                break
            }
            let name = Self.name(of: entry)
            guard !name.isEmpty, name[0] != UInt8(ascii: ".") else { continue }  // ".", "..", hidden
            let type = entry.pointee.d_type
            if type == UInt8(DT_LNK) { continue }
            var info = stat()
            let statResult = name.withUnsafeBufferPointer { buffer in
                (buffer.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer {
                    fstatat(dirfd(directory), $0.baseAddress!, &info, AT_SYMLINK_NOFOLLOW)
                }
            }
            let path = relative.appending(PathBytes(name))
            guard statResult == 0 else {
                warn("skipping \(root.appending(path).display): \(Self.describe(errno))")
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
            guard depth + 1 < Self.maximumDepth else {
                warn("skipping \(root.appending(folder).display): folders nested deeper than \(Self.maximumDepth)")
                continue
            }
            let name = Array(folder.bytes.split(separator: UInt8(ascii: "/")).last ?? [])
            let child = (name.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer {
                openat(dirfd(directory), $0.baseAddress!, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            }
            guard child >= 0 else {
                warn("skipping \(root.appending(folder).display): \(Self.describe(errno))")
                continue
            }
            walkFolder(fd: child, relative: folder, depth: depth + 1, visit)
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
