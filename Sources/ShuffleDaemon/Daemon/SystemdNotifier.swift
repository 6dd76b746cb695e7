import Glibc
import LibLinux

/// Talks to systemd over `$NOTIFY_SOCKET` (sd_notify(3)'s protocol, written by hand: one datagram per
/// message on a Unix socket, `@` meaning the abstract namespace). No libsystemd, so the binary has
/// one dependency fewer and works the same without systemd (the variable is simply absent).
final class SystemdNotifier {
    private let fd: Int32
    private var address: sockaddr_un
    private let length: socklen_t
    /// Half of `$WATCHDOG_USEC`: how often to send `WATCHDOG=1`; nil when no watchdog.
    let watchdogInterval: Duration?

    /// Reads `$NOTIFY_SOCKET` and `$WATCHDOG_USEC` (honouring `$WATCHDOG_PID`); nil when not under systemd.
    init?(environment: [String: String] = Environment.all) {
        guard let path = environment["NOTIFY_SOCKET"], !path.isEmpty,
            path.hasPrefix("/") || path.hasPrefix("@")
        else { return nil }
        var bytes = Array(path.utf8)
        if bytes[0] == UInt8(ascii: "@") { bytes[0] = 0 }  // abstract socket: leading NUL
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else { return nil }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        self.fd = fd
        self.address = address
        self.length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count)
        var interval: Duration?
        if let text = environment["WATCHDOG_USEC"], let usec = Int64(text), usec > 0 {
            let forUs = environment["WATCHDOG_PID"].map { Int32($0) == getpid() } ?? true
            if forUs { interval = .microseconds(usec) / 2 }
        }
        watchdogInterval = interval
    }

    /// Sends one message such as `READY=1\nSTATUS=playing`. Failures are ignored: systemd may be gone.
    func send(_ message: String) {
        var target = address
        let bytes = Array(message.utf8)
        withUnsafePointer(to: &target) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                _ = bytes.withUnsafeBytes { buffer in
                    sendto(fd, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL), socketAddress, length)
                }
            }
        }
    }

    deinit { close(fd) }
}
