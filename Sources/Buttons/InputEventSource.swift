import ShuffleCore

#if canImport(Glibc)
    import Glibc
#endif

/// Buttons declared to the kernel with the `gpio-keys` overlay, read from `/dev/input/event*`:
/// `EV_KEY` press and release with the event timestamps, mapped by key code.
public final class InputEventSource: ButtonSource {
    private var devices: [Int32: String] = [:]
    private let buttons: [Int: ButtonName]
    /// "input button@11, button@13".
    public let name: String
    /// True once every device has ended (unplugged, or the end of a recorded file).
    public private(set) var isFinished = false

    /// The descriptors of the open devices.
    public var fileDescriptors: [Int32] { devices.keys.sorted() }

    /// `struct input_event`: a `struct timeval` of two longs, then type, code (u16) and value (s32).
    static let recordSize = 2 * MemoryLayout<Int>.size + 8
    static let evKey: UInt16 = 1
    /// `EVIOCSCLOCKID`, `_IOW('E', 0xa0, int)`: stamp this device's events with `CLOCK_MONOTONIC`.
    static let setClockRequest: UInt = 0x4004_45a0

    /// Reads the devices at `paths` (device nodes, or files of recorded events), mapping `board`'s key codes.
    public init(paths: [String], board: BoardConfig) throws(ButtonSourceError) {
        var map: [Int: ButtonName] = [:]
        for button in board.buttons { if let code = button.keyCode { map[code] = button.name } }
        buttons = map
        name = "input " + paths.joined(separator: ", ")
        for path in paths {
            let fd = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
            guard fd >= 0 else {
                let code = errno
                for open in devices.keys { close(open) }
                let denied = code == EACCES || code == EPERM
                throw ButtonSourceError(
                    source: "input device \(path)", problem: String(cString: strerror(code)),
                    advice: denied
                        ? "Add the user to the input group (sudo adduser $USER input) or run as root"
                        : "Is the gpio-key overlay loaded? (cat /proc/bus/input/devices)")
            }
            // Regular files (recorded events) refuse this; devices then share the GPIO clock.
            var clock = CLOCK_MONOTONIC
            _ = ioctl(fd, Self.setClockRequest, &clock)
            devices[fd] = path
        }
    }

    deinit { for fd in devices.keys { close(fd) } }

    /// Opens every `/dev/input/event*` whose device name contains `board.inputDevice`.
    public static func open(board: BoardConfig, sysfs: String = "/sys/class/input") throws(ButtonSourceError)
        -> InputEventSource
    {
        let wanted = board.inputDevice ?? ""
        var paths: [String] = []
        var seen: [String] = []
        if let dir = opendir(sysfs) {
            while let entry = readdir(dir) {
                let node = withUnsafeBytes(of: entry.pointee.d_name) {
                    String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
                }
                guard node.hasPrefix("event") else { continue }
                let deviceName = readLine("\(sysfs)/\(node)/device/name") ?? ""
                seen.append("\(node) (\(deviceName))")
                if deviceName.contains(wanted) { paths.append("/dev/input/\(node)") }
            }
            closedir(dir)
        }
        guard !paths.isEmpty else {
            throw ButtonSourceError(
                source: "input devices named '\(wanted)'",
                problem:
                    "none found (\(seen.isEmpty ? "no input devices" : "found " + seen.sorted().joined(separator: ", ")))",
                advice: "Is the gpio-key overlay in config.txt? (see board/README.md)")
        }
        return try InputEventSource(paths: paths.sorted(), board: board)
    }

    /// Reads the key events pending on one device.
    public func readEvents(ready descriptor: Int32) throws(ButtonSourceError) -> [ButtonEdge] {
        guard let path = devices[descriptor] else { return [] }
        var buffer = [UInt8](repeating: 0, count: Self.recordSize * 64)
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count < 0 {
            if errno == EAGAIN || errno == EINTR { return [] }
            let problem = String(cString: strerror(errno))
            end(descriptor)
            throw ButtonSourceError(source: "input device \(path)", problem: problem, advice: "Was the device removed?")
        }
        if count == 0 {
            end(descriptor)
            return []
        }
        return Self.decode(buffer.prefix(count - count % Self.recordSize), keys: buttons)
    }

    private func end(_ descriptor: Int32) {
        close(descriptor)
        devices[descriptor] = nil
        isFinished = devices.isEmpty
    }

    /// Decodes whole `struct input_event` records; key presses and releases of mapped codes become edges.
    static func decode(_ bytes: ArraySlice<UInt8>, keys: [Int: ButtonName]) -> [ButtonEdge] {
        var edges: [ButtonEdge] = []
        let long = MemoryLayout<Int>.size
        var start = bytes.startIndex
        while start + recordSize <= bytes.endIndex {
            func integer(_ offset: Int, _ size: Int) -> Int64 {
                var value: UInt64 = 0
                for index in (0..<size).reversed() { value = value << 8 | UInt64(bytes[start + offset + index]) }
                let shift = UInt64(64 - size * 8)
                return Int64(bitPattern: value << shift) >> Int64(shift)  // sign-extend
            }
            let seconds = integer(0, long)
            let micros = integer(long, long)
            let type = UInt16(truncatingIfNeeded: integer(2 * long, 2))
            let code = Int(UInt16(truncatingIfNeeded: integer(2 * long + 2, 2)))
            let value = integer(2 * long + 4, 4)
            start += recordSize
            // value 2 is the keyboard's auto-repeat: the recogniser does its own hold-repeat.
            guard type == evKey, value == 0 || value == 1, let button = keys[code] else { continue }
            edges.append(
                ButtonEdge(button, value == 1 ? .press : .release, at: .seconds(seconds) + .microseconds(micros)))
        }
        return edges
    }

    static func readLine(_ path: String) -> String? {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        return String(decoding: buffer.prefix(count), as: UTF8.self).split(separator: "\n").first.map(String.init)
    }
}
