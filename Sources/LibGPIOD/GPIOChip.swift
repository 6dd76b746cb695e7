internal import CGPIOD

#if canImport(Glibc)
    import Glibc
#endif

/// An open GPIO chip (`/dev/gpiochipN`). Wraps `struct gpiod_chip`.
///
/// Lines requested from it keep it open; it closes (`gpiod_chip_close`, which also releases its
/// lines) when the last reference goes.
public final class GPIOChip {
    private let raw: OpaquePointer
    /// The kernel's name, for example "gpiochip0". Wraps `gpiod_chip_name` (1.6) or `gpiod_chip_info_get_name` (2.x).
    public let name: String
    /// The driver's label, for example "pinctrl-bcm2711". Wraps `gpiod_chip_label` or `gpiod_chip_info_get_label`.
    public let label: String
    /// The number of lines. Wraps `gpiod_chip_num_lines` or `gpiod_chip_info_get_num_lines`.
    public let lineCount: Int

    private init(raw: OpaquePointer, path: String) throws(GPIOError) {
        var name = [CChar](repeating: 0, count: 64)
        var label = [CChar](repeating: 0, count: 64)
        var lines: UInt32 = 0
        guard shim_gpiod_chip_describe(raw, &name, name.count, &label, label.count, &lines) == 0 else {
            let error = GPIOError.lastErrno("gpiod_chip_get_info", path)
            gpiod_chip_close(raw)
            throw error
        }
        self.raw = raw
        self.name = GPIOChip.text(name)
        self.label = GPIOChip.text(label)
        self.lineCount = Int(lines)
    }

    deinit { gpiod_chip_close(raw) }

    /// The text of a NUL-terminated buffer the shim filled.
    private static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Opens the chip at `path` ("/dev/gpiochip0"). Wraps `gpiod_chip_open`.
    public static func open(path: String) throws(GPIOError) -> GPIOChip {
        guard let raw = gpiod_chip_open(path) else { throw .lastErrno("gpiod_chip_open", path) }
        return try GPIOChip(raw: raw, path: path)
    }

    /// The chip whose label or name is `labelOrName`: every `/dev/gpiochip*` is opened in turn
    /// (never a hard-coded number). Chips that cannot be opened are skipped; if the wanted one is
    /// not found, the error lists what was found and why others failed.
    public static func find(labelOrName: String, devices: String = "/dev") throws(GPIOError) -> GPIOChip {
        var seen: [String] = []
        var failures: [GPIOError] = []
        for path in chipPaths(in: devices) {
            let chip: GPIOChip
            do { chip = try open(path: path) } catch {
                failures.append(error)
                continue
            }
            if chip.label == labelOrName || chip.name == labelOrName { return chip }
            seen.append("\(chip.name) (\(chip.label))")
        }
        if let denied = failures.first(where: \.isPermissionDenied) { throw denied }
        let found = seen.isEmpty ? "no GPIO chips" : "only " + seen.joined(separator: ", ")
        let unreadable = failures.isEmpty ? "" : "; could not open " + failures.map(\.context).joined(separator: ", ")
        throw GPIOError(function: "find chip", code: ENODEV, context: "\(labelOrName): found \(found)\(unreadable)")
    }

    /// Every `gpiochip*` character device in `devices`, sorted by name.
    public static func chipPaths(in devices: String = "/dev") -> [String] {
        guard let dir = opendir(devices) else { return [] }
        defer { closedir(dir) }
        var paths: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.hasPrefix("gpiochip") { paths.append("\(devices)/\(name)") }
        }
        return paths.sorted()
    }

    /// Requests line `offset` for both-edge events. Wraps `gpiod_line_request_both_edges_events_flags` (1.6)
    /// or `gpiod_chip_request_lines` with both-edge detection (2.x).
    ///
    /// - Parameters:
    ///   - consumer: the name other programs see as the line's user (`gpioinfo`).
    ///   - activeLow: report a low level as active (rising edge = pressed for a button to ground).
    ///   - bias: the bias to request (kernel 5.5 or later).
    public func requestEdges(
        offset: Int, consumer: String, activeLow: Bool, bias: GPIOBias
    ) throws(GPIOError) -> EdgeLine {
        let context = "\(label) line \(offset)"
        guard offset >= 0, offset < lineCount else {
            throw GPIOError(
                function: "gpiod_chip_get_line", code: EINVAL, context: "\(context) (the chip has \(lineCount) lines)")
        }
        guard let request = shim_gpiod_request_edges(raw, UInt32(offset), consumer, activeLow, bias.shimBias) else {
            let error = GPIOError.lastErrno("request both-edge events", context)
            if error.isBusy {
                var user = [CChar](repeating: 0, count: 64)
                shim_gpiod_line_consumer(raw, UInt32(offset), &user, user.count)
                let name = GPIOChip.text(user)
                if !name.isEmpty {
                    throw GPIOError(
                        function: error.function, code: error.code, context: "\(context), used by '\(name)'")
                }
            }
            throw error
        }
        return EdgeLine(chip: self, request: request, offset: offset)
    }
}

/// The bias of a requested line.
public enum GPIOBias: Sendable {
    /// Leave it as it is.
    case asIs
    /// No pull resistor.
    case disabled
    /// The internal pull-up.
    case pullUp
    /// The internal pull-down.
    case pullDown

    var shimBias: shim_gpiod_bias {
        switch self {
        case .asIs: SHIM_GPIOD_BIAS_AS_IS
        case .disabled: SHIM_GPIOD_BIAS_DISABLED
        case .pullUp: SHIM_GPIOD_BIAS_PULL_UP
        case .pullDown: SHIM_GPIOD_BIAS_PULL_DOWN
        }
    }
}
