/// One line of `/proc/self/mountinfo`: what is mounted where.
public struct MountEntry: Equatable, Sendable {
    /// The kernel's mount id (first field).
    public var id: Int
    /// Where it is mounted (octal escapes such as `\040` decoded).
    public var mountPoint: PathBytes
    /// The filesystem type (`vfat`, `exfat`, `ext4`, `tmpfs`).
    public var fsType: String
    /// The mount source: usually a device such as `/dev/sda1`, else whatever was given (`tmpfs`).
    public var source: PathBytes
    /// The `major:minor` of the filesystem's device.
    public var device: String
    /// The root of the mount within its filesystem (`/` unless a bind mount of a subfolder).
    public var root: PathBytes

    /// Creates an entry.
    public init(id: Int, mountPoint: PathBytes, fsType: String, source: PathBytes, device: String, root: PathBytes) {
        self.id = id
        self.mountPoint = mountPoint
        self.fsType = fsType
        self.source = source
        self.device = device
        self.root = root
    }
}

/// Parses `/proc/self/mountinfo` and picks the mounts that are libraries.
public enum MountTable {
    /// Parses the whole file; malformed lines are skipped (the kernel writes it, but be safe).
    public static func parse(_ bytes: [UInt8]) -> [MountEntry] {
        bytes.split(separator: UInt8(ascii: "\n")).compactMap { parseLine(Array($0)) }
    }

    /// Parses one line: `ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS [OPTIONAL...] - FSTYPE SOURCE SUPEROPTIONS`.
    public static func parseLine(_ line: [UInt8]) -> MountEntry? {
        let fields = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: true).map { Array($0) }
        guard fields.count >= 10, let id = Int(String(decoding: fields[0], as: UTF8.self)),
            let dash = fields[6...].firstIndex(of: [UInt8(ascii: "-")]), dash + 2 < fields.count
        else { return nil }
        return MountEntry(
            id: id, mountPoint: PathBytes(unescape(fields[4])),
            fsType: String(decoding: unescape(fields[dash + 1]), as: UTF8.self),
            source: PathBytes(unescape(fields[dash + 2])),
            device: String(decoding: fields[2], as: UTF8.self), root: PathBytes(unescape(fields[3])))
    }

    /// Decodes the kernel's `\ooo` octal escapes (space, tab, newline, backslash).
    public static func unescape(_ field: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(field.count)
        var index = 0
        while index < field.count {
            let byte = field[index]
            if byte == UInt8(ascii: "\\"), index + 3 < field.count,
                let value = octal(field[(index + 1)..<(index + 4)])
            {
                out.append(value)
                index += 4
            } else {
                out.append(byte)
                index += 1
            }
        }
        return out
    }

    private static func octal(_ digits: ArraySlice<UInt8>) -> UInt8? {
        guard digits.count == 3 else { return nil }
        var value = 0
        for digit in digits {
            guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "7") else { return nil }
            value = value * 8 + Int(digit - UInt8(ascii: "0"))
        }
        return value <= 255 ? UInt8(value) : nil
    }

    /// The mounts strictly below one of `roots` (a mount *at* a root is not a stick), the newest mount
    /// of each mount point only (a later mount hides an earlier one), in mount-table order.
    public static func libraries(in entries: [MountEntry], roots: [PathBytes]) -> [MountEntry] {
        var latest: [PathBytes: Int] = [:]
        for (index, entry) in entries.enumerated() { latest[entry.mountPoint] = index }
        return entries.enumerated().compactMap { index, entry in
            guard latest[entry.mountPoint] == index else { return nil }
            return roots.contains { isStrictlyBelow(entry.mountPoint, $0) } ? entry : nil
        }
    }

    /// Whether `path` lies inside `root` (`/media/x` inside `/media` or `/media/`), not equal to it.
    public static func isStrictlyBelow(_ path: PathBytes, _ root: PathBytes) -> Bool {
        var base = root.bytes
        while base.count > 1, base.last == UInt8(ascii: "/") { base.removeLast() }
        if base == [UInt8(ascii: "/")] { return path.bytes.count > 1 && path.bytes.first == UInt8(ascii: "/") }
        guard path.bytes.count > base.count + 1, path.bytes.starts(with: base) else { return false }
        return path.bytes[base.count] == UInt8(ascii: "/")
    }
}
