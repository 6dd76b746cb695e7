import Glibc

/// The few file and process facts the daemon needs, straight from libc.
///
/// They replace FoundationEssentials' `FileManager`, `ProcessInfo` and `Data(contentsOf:)` in the
/// `shufflebox` executable: linked statically, FoundationEssentials was the largest part of the binary
/// that the daemon keeps in memory, for a dozen calls.
public enum FileSystem {
    /// Whether something exists at `path` (following symbolic links).
    public static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }

    /// Whether `path` is a folder (following symbolic links); false when it cannot be `stat`ed.
    public static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    /// Creates the folder `path` and any missing parents (`mkdir -p`) with `mode` (before the umask).
    /// An existing folder is fine; anything else in the way is an error.
    public static func createFolders(_ path: String, mode: mode_t = 0o755) throws(LinuxError) {
        guard !path.isEmpty, !isFolder(path) else { return }
        let parent = parentFolder(of: path)
        if !parent.isEmpty && parent != path { try createFolders(parent, mode: mode) }
        if mkdir(path, mode) != 0 && !(errno == EEXIST && isFolder(path)) {
            throw LinuxError.current("mkdir \(path)")
        }
    }

    /// The names in the folder `path` (without `.` and `..`), unsorted; nil when it cannot be read.
    public static func names(inFolder path: String) -> [String]? {
        guard let folder = opendir(path) else { return nil }
        defer { closedir(folder) }
        var names: [String] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// What kind of file is at a path.
    public enum Kind: Equatable, Sendable {
        case regular, folder, fifo, socket, device, link, other
    }

    /// The kind and size of what is at `path` (following symbolic links). Wraps `stat`.
    public static func kind(of path: String) throws(LinuxError) -> (kind: Kind, size: Int) {
        var info = stat()
        guard stat(path, &info) == 0 else { throw LinuxError.current("stat \(path)") }
        let kind: Kind
        switch info.st_mode & S_IFMT {
        case S_IFREG: kind = .regular
        case S_IFDIR: kind = .folder
        case S_IFIFO: kind = .fifo
        case S_IFSOCK: kind = .socket
        case S_IFCHR, S_IFBLK: kind = .device
        case S_IFLNK: kind = .link
        default: kind = .other
        }
        return (kind, Int(info.st_size))
    }

    /// The whole regular file at `path`, at most `limit` bytes (a larger file is an `EFBIG` error; a FIFO,
    /// device or folder is `EINVAL`, without waiting for a writer: it is opened non-blocking).
    public static func contents(of path: String, limit: Int = 1 << 20) throws(LinuxError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw LinuxError.current("open \(path)") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw LinuxError.current("fstat \(path)") }
        guard info.st_mode & S_IFMT == S_IFREG else { throw LinuxError(function: "read \(path)", code: EINVAL) }
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16384)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw LinuxError.current("read \(path)")
            }
            if count == 0 { return result }
            guard result.count + count <= limit else { throw LinuxError(function: "read \(path)", code: EFBIG) }
            result.append(contentsOf: chunk[..<count])
        }
    }

    /// The target of the symbolic link `path`, nil when it is not one.
    public static func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = buffer.withUnsafeMutableBufferPointer { out in
            guard let base = out.baseAddress else { return -1 }
            return readlink(path, base, out.count - 1)
        }
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The folder holding `path`, as `NSString.deletingLastPathComponent` has it: "/run/x/socket" gives
    /// "/run/x", "/socket" gives "/", a bare name gives "" (trailing slashes are ignored).
    public static func parentFolder(of path: String) -> String {
        var path = Substring(path)
        while path.count > 1 && path.hasSuffix("/") { path = path.dropLast() }
        guard let slash = path.lastIndex(of: "/") else { return "" }
        if slash == path.startIndex { return "/" }
        return String(path[..<slash])
    }
}

/// The process environment.
public enum Environment {
    /// Every variable, as `NAME=value` pairs read from `environ` (the first of a repeated name wins, as
    /// with `getenv`).
    public static var all: [String: String] {
        var result: [String: String] = [:]
        var cursor = environ
        while let entry = cursor.pointee {
            let text = String(cString: entry)
            if let equals = text.firstIndex(of: "="), result[String(text[..<equals])] == nil {
                result[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            cursor += 1
        }
        return result
    }

    /// The value of `name`, nil when unset.
    public static func value(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }

    /// The home folder of the user running this process, from the password database.
    public static var userHome: String? {
        guard let entry = getpwuid(getuid()), let home = entry.pointee.pw_dir else { return nil }
        return String(cString: home)
    }
}
