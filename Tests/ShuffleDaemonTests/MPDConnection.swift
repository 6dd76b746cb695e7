import Foundation
import Glibc

/// One MPD protocol connection to the daemon's Unix socket, kept open: send a command, read its whole
/// answer (up to `OK` or an `ACK` line).
final class MPDConnection {
    private let fd: Int32
    private var pending: [UInt8] = []
    /// The greeting line (`OK MPD x.y.z`).
    private(set) var greeting = ""

    init(socket path: String) throws {
        guard let fd = DaemonHarness.connectUnix(path) else { throw HarnessError("cannot connect to \(path)") }
        self.fd = fd
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        greeting = try line()
    }

    deinit { close(fd) }

    /// Sends `command` without waiting for its answer (`idle`).
    func send(_ command: String) throws {
        let bytes = Array((command + "\n").utf8)
        let sent = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard sent == bytes.count else { throw HarnessError("could not send '\(command)'") }
    }

    /// Sends `command` and returns the answer's lines before `OK` (throws with the `ACK` line).
    @discardableResult
    func run(_ command: String) throws -> [String] {
        try send(command)
        return try readAnswer()
    }

    /// Reads the next answer's lines before `OK` (throws with the `ACK` line).
    func readAnswer() throws -> [String] {
        var lines: [String] = []
        while true {
            let next = try line()
            if next == "OK" { return lines }
            if next.hasPrefix("ACK ") { throw MPDAck(line: next) }
            lines.append(next)
        }
    }

    /// The answer as `key: value` pairs, in order.
    func pairs(_ command: String) throws -> [(String, String)] {
        try run(command).compactMap { line in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            let value = line[line.index(after: colon)...].drop { $0 == " " }
            return (String(line[..<colon]), String(value))
        }
    }

    /// The answer as a dictionary (the last value of a repeated key).
    func dictionary(_ command: String) throws -> [String: String] {
        var out: [String: String] = [:]
        for (key, value) in try pairs(command) { out[key] = value }
        return out
    }

    private func line() throws -> String {
        while true {
            if let newline = pending.firstIndex(of: 10) {
                let text = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeFirst(newline + 1)
                return text
            }
            var buffer = [UInt8](repeating: 0, count: 65536)
            let count = read(fd, &buffer, buffer.count)
            guard count > 0 else { throw HarnessError("the daemon closed the connection or did not answer") }
            pending += buffer.prefix(count)
        }
    }
}

/// An `ACK` answer.
struct MPDAck: Error, CustomStringConvertible {
    var line: String
    var description: String { line }
}
