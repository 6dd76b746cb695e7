import Glibc
import ShuffleCore

/// One kernel LED-class device (`/sys/class/leds/NAME`, or a folder laid out like one): reads what it
/// offers once, then writes its attributes. Knows no patterns; `LEDPlan` says what to write.
///
/// Writes open the attribute with `O_WRONLY | O_TRUNC`, as the shell's `echo VALUE > FILE` does, and
/// never create a file: sysfs attributes exist or they do not (a trigger's own ones appear when the
/// trigger is chosen). Not thread-safe: the daemon's event loop owns it.
public final class LEDDevice {
    /// The device folder.
    public let path: String
    /// What it offered and showed when opened.
    public let found: LEDDescription
    /// The trigger in force as far as this process knows (updated by each successful `trigger` write).
    public private(set) var trigger: String?

    private init(path: String, found: LEDDescription) {
        self.path = path
        self.found = found
        trigger = found.trigger
    }

    /// Opens the device at `path`: reads `trigger` (which must exist), `max_brightness` and `brightness`.
    public static func open(_ path: String) throws(LEDError) -> LEDDevice {
        let list = try read("\(path)/trigger")
        let found = LEDDescription(
            triggerList: list, maxBrightness: try? read("\(path)/max_brightness"),
            brightness: try? read("\(path)/brightness"))
        return LEDDevice(path: path, found: found)
    }

    /// Writes `value` and a newline to the attribute.
    public func write(_ write: LEDWrite) throws(LEDError) {
        let file = "\(path)/\(write.attribute)"
        let fd = Glibc.open(file, O_WRONLY | O_TRUNC | O_CLOEXEC)
        guard fd >= 0 else { throw LEDError(path: file, operation: "open", code: errno) }
        defer { close(fd) }
        let bytes = Array((write.value + "\n").utf8)
        // A sysfs attribute takes the whole value in one write(2); a short write is an error here.
        let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        guard written == bytes.count else {
            throw LEDError(path: file, operation: "write", code: written < 0 ? errno : EIO)
        }
        if write.attribute == "trigger" { trigger = write.value }
    }

    /// The text of an attribute (at most 64 KiB: a trigger list on a big kernel passes 4 KiB).
    static func read(_ file: String) throws(LEDError) -> String {
        let fd = Glibc.open(file, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw LEDError(path: file, operation: "open", code: errno) }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while bytes.count < 65_536 {
            let count = Glibc.read(fd, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw LEDError(path: file, operation: "read", code: errno) }
            if count == 0 { break }
            bytes += buffer.prefix(count)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
