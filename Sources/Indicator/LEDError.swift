import Glibc

/// An LED-class attribute that could not be read or written: the file, what was tried, and errno.
public struct LEDError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The attribute file.
    public var path: String
    /// `open`, `read` or `write`.
    public var operation: String
    /// The errno value.
    public var code: Int32

    /// Creates an error.
    public init(path: String, operation: String, code: Int32) {
        self.path = path
        self.operation = operation
        self.code = code
    }

    /// Whether the device is not there at all (no such LED, or not an LED-class folder).
    public var isMissing: Bool { code == ENOENT || code == ENOTDIR }

    /// Whether the process may not write it (not root, not in the group udev gave it, or a read-only /sys).
    public var isPermission: Bool { code == EACCES || code == EPERM || code == EROFS }

    /// Whether /sys is mounted read-only (systemd's ProtectKernelTunables): no udev rule will change that.
    public var isReadOnly: Bool { code == EROFS }

    /// "cannot write /sys/class/leds/ACT/trigger: Permission denied".
    public var description: String { "cannot \(operation) \(path): \(String(cString: strerror(code)))" }
}
