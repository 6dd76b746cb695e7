public import ShuffleCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The cover picture file in a folder of the stick (MPD's `albumart`): `cover`, `folder`, `front` or `album`,
/// in that order, as JPEG, PNG, WebP, GIF or BMP, whatever the letters' case (`Folder.jpg` is what Windows
/// writes). MPD itself looks only for `cover.*`; a stick filled by Windows Media Player or a CD ripper has
/// the others.
public enum FolderCover {
    /// Base names, best first.
    static let names = ["cover", "folder", "front", "album"]
    /// Extensions, best first.
    static let extensions = ["jpg", "jpeg", "png", "webp", "gif", "bmp"]
    /// The most entries of one folder looked at (a hostile stick can hold a folder of a million names).
    static let maxEntries = 20_000

    /// Where a name ranks as a cover (lower is better), nil when it is none.
    public static func rank(_ name: String) -> Int? {
        let lower = name.lowercased()
        guard let dot = lower.lastIndex(of: ".") else { return nil }
        guard let base = names.firstIndex(of: String(lower[..<dot])),
            let ext = extensions.firstIndex(of: String(lower[lower.index(after: dot)...]))
        else { return nil }
        return base * extensions.count + ext
    }

    /// The path and size of the best cover file in `folder`, nil when there is none (or it cannot be read).
    public static func find(in folder: PathBytes) -> (path: PathBytes, size: Int)? {
        guard let directory = opendir(folder.cString) else { return nil }
        defer { closedir(directory) }
        var best: (rank: Int, name: [UInt8])?
        var seen = 0
        while seen < maxEntries, let entry = readdir(directory) {
            seen += 1
            let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix(while: { $0 != 0 })) }
            guard name.count <= 16, let rank = rank(String(decoding: name, as: UTF8.self)) else { continue }
            if best.map({ rank < $0.rank }) ?? true { best = (rank, name) }
        }
        guard let best else { return nil }
        let path = folder.appending(PathBytes(best.name))
        var info = stat()
        guard lstat(path.cString, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return (path, Int(info.st_size))
    }

    /// Up to `count` bytes of the file at `path` from `offset`; nil when they cannot be read.
    public static func chunk(of path: PathBytes, from offset: Int, count: Int) -> [UInt8]? {
        FileChunk.read(path: path, at: offset, count: count)
    }
}
