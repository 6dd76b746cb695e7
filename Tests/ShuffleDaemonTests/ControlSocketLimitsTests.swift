import Foundation
import Glibc
import ShuffleTestSupport
import Testing

/// Slow clients and crowds: silent clients are dropped after `connection-timeout` (never while in `idle`),
/// and however many TCP clients connect, the owner's Unix-socket tools still get in.
@Suite(.serialized) struct ControlSocketLimitsTests {
    /// A TCP connection to 127.0.0.1:`port`, or nil.
    static func connectTCP(_ port: UInt16) -> Int32? {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return DaemonHarness.connectStream(AF_INET, to: address)
    }

    /// Whether the daemon closes `fd` within `seconds` (reads until end of file; the greeting comes first).
    static func closedByPeer(_ fd: Int32, within seconds: Int) -> Bool {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var buffer = [UInt8](repeating: 0, count: 256)
        while true {
            let count = read(fd, &buffer, buffer.count)
            if count == 0 { return true }
            if count < 0 { return false }
        }
    }

    @Test func aSilentClientIsDroppedAfterTheTimeoutButAClientInIdleIsKept() throws {
        let daemon = try DaemonHarness()
        try daemon.start(arguments: ["--connection-timeout", "1"])
        let idle = try MPDConnection(socket: daemon.socket)
        try idle.send("idle player")
        let silent = try #require(DaemonHarness.connectUnix(daemon.socket))
        defer { close(silent) }
        #expect(Self.closedByPeer(silent, within: 10), "the silent client was not dropped")
        #expect(
            DaemonHarness.wait(seconds: 5) {
                daemon.log.contains("dropped a Unix-socket client that sent nothing for 1 s")
            })
        // Still there after more than the timeout in idle (its drop, had it come, could only be waited out):
        // noidle is answered.
        usleep(1_500_000)
        #expect(try idle.run("noidle").isEmpty)
        #expect(try idle.dictionary("status")["state"] == "stop")
        #expect(daemon.stop() == 0)
    }

    @Test func aCrowdOfTCPClientsLeavesRoomForTheOwnersUnixSocket() throws {
        let daemon = try DaemonHarness()
        let port = UInt16.random(in: 20_000...40_000)
        try daemon.start(arguments: ["--tcp", "127.0.0.1:\(port)", "--connection-timeout", "0"])
        var crowd: [Int32] = []
        defer { for fd in crowd { close(fd) } }
        // The Unix socket appears a moment before the TCP listener.
        #expect(
            DaemonHarness.wait(seconds: 5) {
                guard let fd = Self.connectTCP(port) else { return false }
                crowd.append(fd)
                return true
            }, "\(daemon.log)")
        while crowd.count < 80, let fd = Self.connectTCP(port) { crowd.append(fd) }
        #expect(crowd.count == 80)
        // The ones past the TCP limit are closed at once, and the daemon says so.
        let refused = crowd.suffix(16).filter { Self.closedByPeer($0, within: 5) }.count
        #expect(refused == 16)
        #expect(DaemonHarness.wait(seconds: 5) { daemon.log.contains("refused a TCP client: 64 are connected") })
        let status = try Run.shufflebox(["status", "--socket", daemon.socket])
        #expect(status.status == 0, "\(status.stderr)")
        #expect(daemon.state() == "no-library")
        #expect(daemon.stop() == 0)
    }
}
