import Foundation
import ShuffleCore

/// What is really on disk under a library root, by bytes: names need not be UTF-8, so this walks with
/// `opendir`/`readdir`/`lstat` rather than `FileManager`.
public enum LibraryFiles {
    /// Files the generators write for the tests themselves, not part of the "stick".
    public static let bookkeeping: Set<PathBytes> = [PathBytes(Manifest.fileName), PathBytes(".mutations.tsv")]

    /// Every regular file under `root`, relative and sorted by bytes, without the generators' bookkeeping
    /// files at the top. Symbolic links are listed but not followed.
    public static func list(root: PathBytes) throws -> [PathBytes] {
        var found: [PathBytes] = []
        try walk(root: root, relative: PathBytes([]), into: &found)
        return found.filter { !bookkeeping.contains($0) }.sorted()
    }

    /// `list(root:)` for a URL.
    public static func list(root: URL) throws -> [PathBytes] { try list(root: PathBytes(root.path)) }

    /// The whole contents of the file at `path`.
    public static func contents(of path: PathBytes) throws -> Data {
        let fd = open(path.cString, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw TestSupportError("cannot open \(path.display): \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw TestSupportError("cannot read \(path.display): \(String(cString: strerror(errno)))")
            }
            if count == 0 { return data }
            data.append(contentsOf: buffer[0..<count])
        }
    }

    /// `stat` of the file at `path` (size and modification time), without following a final symlink.
    public static func status(of path: PathBytes) throws -> (size: Int64, mtime: Int64) {
        var info = stat()
        guard lstat(path.cString, &info) == 0 else {
            throw TestSupportError("cannot stat \(path.display): \(String(cString: strerror(errno)))")
        }
        return (Int64(info.st_size), Int64(info.st_mtim.tv_sec))
    }

    private static func walk(root: PathBytes, relative: PathBytes, into found: inout [PathBytes]) throws {
        let directory = relative.bytes.isEmpty ? root : root.appending(relative)
        guard let handle = opendir(directory.cString) else {
            throw TestSupportError("cannot open folder \(directory.display): \(String(cString: strerror(errno)))")
        }
        defer { closedir(handle) }
        var names: [[UInt8]] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
            if name == [UInt8(ascii: ".")] || name == [UInt8(ascii: "."), UInt8(ascii: ".")] { continue }
            names.append(name)
        }
        for name in names {
            let child = relative.appending(PathBytes(name))
            var info = stat()
            guard lstat(root.appending(child).cString, &info) == 0 else { continue }
            if info.st_mode & S_IFMT == S_IFDIR {
                try walk(root: root, relative: child, into: &found)
            } else {
                found.append(child)
            }
        }
    }
}
