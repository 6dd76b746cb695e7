import Glibc
import LibLinux
import ShuffleCore

/// Names a mounted stick so it is recognised next time: `uuid:<fs uuid>` from `/dev/disk/by-uuid`,
/// else `label:<label>` from `/dev/disk/by-label`, else `path:<mount point>`.
enum VolumeIdentity {
    /// The identity of `entry`, looking its source device up under `devRoot` (`/dev/disk` normally).
    static func identify(_ entry: MountEntry, devRoot: String = "/dev/disk") -> String {
        let source = entry.source.display
        if source.hasPrefix("/") {
            let device = resolve(source)
            if let uuid = link(in: devRoot + "/by-uuid", pointingTo: device) { return "uuid:" + uuid }
            if let label = link(in: devRoot + "/by-label", pointingTo: device) { return "label:" + decodeLabel(label) }
        }
        return "path:" + entry.mountPoint.display
    }

    /// The name of the symlink in `folder` that resolves to `device`, if any.
    private static func link(in folder: String, pointingTo device: String) -> String? {
        guard let names = FileSystem.names(inFolder: folder) else { return nil }
        return names.sorted().first { resolve(folder + "/" + $0) == device }
    }

    private static func resolve(_ path: String) -> String {
        guard let real = realpath(path, nil) else { return path }
        defer { free(real) }
        return String(cString: real)
    }

    /// udev escapes unsafe bytes in labels as `\xHH` (a space is `\x20`).
    static func decodeLabel(_ name: String) -> String {
        var bytes: [UInt8] = []
        var scalars = Array(name.utf8)[...]
        while let byte = scalars.first {
            if byte == UInt8(ascii: "\\"), scalars.count >= 4, scalars.dropFirst().first == UInt8(ascii: "x"),
                let value = UInt8(String(decoding: scalars.dropFirst(2).prefix(2), as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                scalars = scalars.dropFirst(4)
            } else {
                bytes.append(byte)
                scalars = scalars.dropFirst()
            }
        }
        return PathBytes(bytes).display
    }
}
