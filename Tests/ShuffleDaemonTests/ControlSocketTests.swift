import Foundation
import ShuffleTestSupport
import Testing

/// The daemon as a real process: configuration errors, the socket, `status`, `ctl` and `mpc`.
@Suite(.serialized) struct ControlSocketTests {
    @Test func malformedConfigurationNamesFileAndLineAndExits65() throws {
        let directory = try TemporaryDirectory()
        let config = directory.appending("bad.conf")
        try "device = default\nvolume = loud\n".write(to: config, atomically: true, encoding: .utf8)
        let result = try Run.shufflebox(["run", "--config", config.path, "--check-config"])
        #expect(result.status == 65)
        #expect(result.stderr.contains("\(config.path):2: 'volume' needs a whole number"))
    }

    @Test func shippedExampleConfigurationChecksOut() throws {
        let example = PackagePaths.root.appendingPathComponent("board/common/shufflebox.conf").path
        let result = try Run.shufflebox(["run", "--config", example, "--check-config"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("configuration OK"))
    }

    @Test func statusAndCtlSayWhenNoDaemonRuns() throws {
        let directory = try TemporaryDirectory()
        let path = directory.appending("nobody").path
        let status = try Run.shufflebox(["status", "--socket", path])
        #expect(status.status == 69)
        #expect(status.stderr.contains("no shufflebox daemon is answering at \(path); start it with 'shufflebox run'"))
        let ctl = try Run.shufflebox(["ctl", "--socket", path, "next"])
        #expect(ctl.status == 69)
    }

    @Test func socketIsOwnerAndGroupOnlyAndStatusReportsNoLibrary() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        let mode = try FileManager.default.attributesOfItem(atPath: daemon.socket)[.posixPermissions] as? Int
        #expect(mode == 0o660)
        let status = try daemon.status()
        #expect(status["state"] as? String == "no-library")
        #expect(status["track"] is NSNull)
        #expect(status["volume"] as? Int == 10)
        #expect(status["maxVolume"] as? Int == 20)
        #expect((status["library"] as? [String: Any])?["indexing"] as? Bool == false)
        #expect(daemon.stop() == 0)
        #expect(!FileManager.default.fileExists(atPath: daemon.socket))
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/usr/bin/mpc"), "needs Debian's mpc"))
    func mpcAndCtlChangeVolumeAndTheCapHolds() throws {
        let daemon = try DaemonHarness()
        try daemon.start(arguments: ["--max-volume", "15"])
        let status = try daemon.mpc(["status"])
        #expect(status.status == 0, "\(status.stderr)")
        #expect(status.stdout.contains("volume: 50%"))
        #expect(try daemon.mpc(["volume", "100"]).status == 0)
        #expect(try daemon.mpc(["volume"]).stdout.contains("volume: 75%"))  // 15 of 20 steps: the cap
        #expect(try Run.shufflebox(["ctl", "--socket", daemon.socket, "volume", "-5"]).status == 0)
        #expect(try daemon.status()["volume"] as? Int == 10)
        #expect(try Run.shufflebox(["ctl", "--socket", daemon.socket, "volume", "+50"]).status == 0)
        #expect(try daemon.status()["volume"] as? Int == 15)
        // Playing with no stick is refused, clearly.
        let play = try Run.shufflebox(["ctl", "--socket", daemon.socket, "play"])
        #expect(play.status == 1)
        #expect(play.stderr.contains("no library"))
        #expect(daemon.stop() == 0)
    }

    @Test func garbageAndOversizedInputLeaveTheDaemonRunning() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        let garbage = daemon.raw([0xFF, 0x00, 0x22, 0x0A] + Array("\"unterminated\nbogus cmd\nping\nclose\n".utf8))
        #expect(garbage.hasPrefix("OK MPD "))
        #expect(garbage.contains("ACK [2@0] {} request is not valid UTF-8"))
        #expect(garbage.contains("ACK [5@0] {bogus} unknown command \"bogus\""))
        #expect(garbage.hasSuffix("OK\n"))  // ping answered, then close
        let oversized = daemon.raw(Array(repeating: UInt8(ascii: "a"), count: 100_000))
        #expect(oversized.contains("ACK [2@0] {} line too long"))
        #expect(daemon.raw(Array("status\nclose\n".utf8)).contains("x-state: no-library"))
        #expect(daemon.process.isRunning)
        #expect(daemon.stop() == 0)
    }

    @Test func manyClientsAtOnceAndIdleHearsVolumeChanges() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        #expect(DaemonHarness.wait(seconds: 5) { daemon.raw(Array("ping\nclose\n".utf8)) == "OK MPD 0.23.0\nOK\n" })
        // The idle client connects once the socket answers (before, under load, it could find no socket).
        let idle = DispatchQueue(label: "idle")
        let heard = Locked("")
        let done = DispatchSemaphore(value: 0)
        idle.async {
            heard.set(daemon.raw(Array("idle mixer\n".utf8), seconds: 10, until: "\nOK\n"))
            done.signal()
        }
        let answers = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 24) { _ in
            answers.update { $0.append(daemon.raw(Array("status\nstats\nclose\n".utf8))) }
        }
        #expect(answers.value.count == 24)
        #expect(answers.value.allSatisfy { $0.contains("x-state: no-library") && $0.contains("songs: 0") })
        // A change made before the idle client is waiting is not its to hear: change the volume until it
        // has heard one (at most 10 s), instead of guessing how long its connection takes on a loaded machine.
        var level = 80
        var answered = false
        for _ in 0..<100 where !answered {
            #expect(daemon.raw(Array("setvol \(level)\nclose\n".utf8)).hasSuffix("OK\n"))
            level = level == 80 ? 81 : 80
            answered = done.wait(timeout: .now() + 0.1) == .success
        }
        #expect(answered)
        #expect(heard.value.contains("changed: mixer\n"))
        #expect(daemon.stop() == 0)
    }

    @Test func sighupWithABrokenFileKeepsRunningWithTheOldSettings() throws {
        let daemon = try DaemonHarness()
        let config = daemon.directory.appending("shufflebox.conf")
        try "volume = 4\n".write(to: config, atomically: true, encoding: .utf8)
        try daemon.start(arguments: ["--config", config.path])
        #expect(try daemon.status()["volume"] as? Int == 4)
        try "volume = 4\nmax-volume = banana\n".write(to: config, atomically: true, encoding: .utf8)
        kill(daemon.process.processIdentifier, SIGHUP)
        #expect(DaemonHarness.wait(seconds: 5) { daemon.log.contains("not reloading the configuration") })
        #expect(daemon.log.contains("\(config.path):2: 'max-volume' needs a whole number"))
        #expect(daemon.state() == "no-library")
        try "volume = 4\nmax-volume = 3\n".write(to: config, atomically: true, encoding: .utf8)
        kill(daemon.process.processIdentifier, SIGHUP)
        // The file's own check refuses volume 4 above the cap 3.
        #expect(DaemonHarness.wait(seconds: 5) { daemon.log.contains("'volume' 4 is above 'max-volume' 3") })
        try "max-volume = 3\nvolume = 2\n".write(to: config, atomically: true, encoding: .utf8)
        kill(daemon.process.processIdentifier, SIGHUP)
        #expect(DaemonHarness.wait(seconds: 5) { (try? daemon.status())?["maxVolume"] as? Int == 3 })
        #expect(try daemon.status()["volume"] as? Int == 3)
        #expect(daemon.stop(SIGINT) == 0)
    }
}

/// A value shared with a background queue in a test.
final class Locked<Value>: @unchecked Sendable {
    // @unchecked: every access holds `lock`.
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value { lock.withLock { stored } }
    func set(_ value: Value) { lock.withLock { stored = value } }
    func update(_ body: (inout Value) -> Void) { lock.withLock { body(&stored) } }
}
