import Glibc
import ShuffleCore

/// A blocking MPD client of the daemon's socket, for `status` and `ctl`.
final class ControlClient {
    private let fd: Int32
    private var pending: [UInt8] = []

    /// Why talking to the daemon failed.
    enum Failure: Error {
        /// Nothing listens at the path.
        case notRunning(String)
        /// The daemon answered with an error (`ACK`).
        case refused(String)
        /// The connection broke.
        case broken(String)
    }

    /// Connects to `path` and reads the greeting.
    init(path: String) throws(Failure) {
        guard var address = ControlServer.unixAddress(path) else { throw .notRunning(path) }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .notRunning(path) }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else {
            close(fd)
            throw .notRunning(path)
        }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        self.fd = fd
        guard let greeting = try readLine(), greeting.hasPrefix("OK MPD") else {
            throw .broken("no MPD greeting from \(path)")
        }
    }

    deinit { close(fd) }

    /// Whether something answers at `path` (used to refuse starting a second daemon).
    static func isAnswering(_ path: String) -> Bool {
        (try? ControlClient(path: path)) != nil
    }

    /// Sends one command and returns its `key: value` pairs, throwing on `ACK`.
    func command(_ line: String) throws(Failure) -> [(String, String)] {
        let bytes = Array((line + "\n").utf8)
        let sent = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard sent == bytes.count else { throw .broken("the daemon closed the connection") }
        var pairs: [(String, String)] = []
        while true {
            guard let reply = try readLine() else { throw .broken("the daemon closed the connection") }
            if reply == "OK" { return pairs }
            if reply.hasPrefix("ACK ") {
                let message = reply.split(separator: "}", maxSplits: 1).last.map { SearchText.trimmed($0) }
                throw .refused(message ?? reply)
            }
            if let colon = reply.firstIndex(of: ":") {
                let value = reply[reply.index(after: colon)...].drop { $0 == " " }
                pairs.append((String(reply[..<colon]), String(value)))
            }
        }
    }

    private func readLine() throws(Failure) -> String? {
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeFirst(newline + 1)
                return line
            }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = read(fd, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                throw .broken("the daemon did not answer within 5 s")
            }
            guard count > 0 else { return nil }
            pending.append(contentsOf: buffer.prefix(count))
        }
    }
}
