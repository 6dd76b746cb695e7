import Foundation
import Glibc
import ShuffleTestSupport
import Testing

/// The daemon speaks sd_notify's datagram protocol itself: READY=1, WATCHDOG=1 at half of
/// `$WATCHDOG_USEC`, STOPPING=1.
@Suite(.serialized) struct SystemdNotifyTests {
    /// A datagram socket standing in for systemd's notify socket.
    private final class FakeSystemd {
        let fd: Int32
        init(path: String, abstract: Bool) throws {
            fd = Glibc.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            let bytes = (abstract ? [0] : []) + Array(path.utf8)
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                for (index, byte) in bytes.enumerated() { raw[index] = byte }
            }
            let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + (abstract ? 0 : 1))
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
            }
            guard bound == 0 else { throw HarnessError("bind \(path): \(String(cString: strerror(errno)))") }
            var timeout = timeval(tv_sec: 0, tv_usec: 100_000)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        }
        deinit { close(fd) }

        /// Datagrams received within `seconds`, or until `done` says enough.
        func receive(seconds: Double, until done: ([String]) -> Bool) -> [String] {
            var messages: [String] = []
            let deadline = Date().addingTimeInterval(seconds)
            var buffer = [UInt8](repeating: 0, count: 4096)
            while Date() < deadline && !done(messages) {
                let count = recv(fd, &buffer, buffer.count, 0)
                if count > 0 { messages.append(String(decoding: buffer.prefix(count), as: UTF8.self)) }
            }
            return messages
        }
    }

    @Test(arguments: [false, true])
    func readyWatchdogAndStopping(abstract: Bool) throws {
        let daemon = try DaemonHarness()
        let name = abstract ? "shufflebox-test-notify-\(getpid())" : daemon.directory.appending("notify").path
        let systemd = try FakeSystemd(path: name, abstract: abstract)
        try daemon.start(environment: ["NOTIFY_SOCKET": abstract ? "@" + name : name, "WATCHDOG_USEC": "200000"])
        let early = systemd.receive(seconds: 10) { messages in
            messages.contains { $0.hasPrefix("READY=1") } && messages.filter { $0 == "WATCHDOG=1" }.count >= 3
        }
        #expect(early.contains { $0.hasPrefix("READY=1\nSTATUS=waiting for a stick") }, "\(early)")
        #expect(early.filter { $0 == "WATCHDOG=1" }.count >= 3, "\(early)")
        kill(daemon.process.processIdentifier, SIGTERM)
        let late = systemd.receive(seconds: 5) { $0.contains("STOPPING=1") }
        #expect(late.contains("STOPPING=1"))
        #expect(daemon.stop() == 0)
    }
}
