import Foundation
import ShuffleTestSupport
import Testing

/// "No periodic wake-ups while paused", checked by counting: while the daemon is paused, none of its threads
/// is switched in, so each thread's context-switch counters stay where they were.
@Suite(.serialized) struct IdleTests {
    /// Each thread of `pid` with its voluntary plus involuntary context switches so far.
    static func switches(of pid: Int32) -> [String: Int] {
        let tasks = "/proc/\(pid)/task"
        var result: [String: Int] = [:]
        for thread in (try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? [] {
            guard let status = try? String(contentsOfFile: "\(tasks)/\(thread)/status", encoding: .utf8) else {
                continue
            }
            let counts = status.split(separator: "\n").filter { $0.contains("ctxt_switches") }
            let name = (try? String(contentsOfFile: "\(tasks)/\(thread)/comm", encoding: .utf8)) ?? "?"
            result["\(thread) \(name.trimmingCharacters(in: .whitespacesAndNewlines))"] = counts.reduce(0) {
                $0 + (Int($1.split(separator: "\t").last?.trimmingCharacters(in: .whitespaces) ?? "") ?? 0)
            }
        }
        return result
    }

    /// The daemon's mount table, opened to learn whether it changes: the kernel marks the open file
    /// (`POLLPRI`) at the first change after the open, the notice the daemon's own loop wakes for.
    final class MountTableWatch {
        private let fd: Int32

        init(pid: Int32) { fd = open("/proc/\(pid)/mountinfo", O_RDONLY | O_CLOEXEC) }

        deinit { if fd >= 0 { close(fd) } }

        /// Whether the table changed since the open (true when it could not be watched).
        var changed: Bool {
            var watched = pollfd(fd: fd, events: Int16(POLLPRI), revents: 0)
            return fd < 0 || poll(&watched, 1, 0) != 0
        }
    }

    /// Whether the daemon under test is built with ThreadSanitizer, whose runtime keeps a background thread
    /// of its own that wakes about ten times a second (`make sanitize`).
    static let daemonHasThreadSanitizer: Bool = {
        guard let binary = try? Data(contentsOf: PackagePaths.shufflebox, options: .alwaysMapped) else { return false }
        return binary.range(of: Data("__tsan_init".utf8)) != nil
    }()

    @Test(
        .enabled(if: PacedSink.isAvailable, "needs pulseaudio for a device that keeps real time"),
        .enabled(if: !daemonHasThreadSanitizer, "ThreadSanitizer's own thread wakes the process"))
    func aPausedDaemonHasNoThreadThatWakesUp() throws {
        let library = try DaemonHarness.library(tracks: 3, seconds: 20)
        let daemon = try DaemonHarness()
        let sink = try PacedSink(directory: daemon.directory.appending("paced"))
        defer { try? sink.stop() }
        // Plugged first, then a daemon with mounts of its own: the tests running beside this one mount and
        // unmount sticks, and each change of the mount table would rightly wake the daemon's loop.
        try daemon.plug(library)
        // The status light blinks while paused, by the kernel's timer trigger: nothing in the daemon wakes for it.
        let led = try LEDClassFolder(in: daemon.directory.path)
        try daemon.start(
            device: "paced", arguments: ["--led", led.path], environment: sink.environment, privateMounts: true)
        // Long enough for the periodic resume-point save (every 2 s while playing) to have run.
        #expect(daemon.waitForPosition(over: 2_500), "\(daemon.log)")
        _ = try daemon.mpc(["pause"])
        #expect(DaemonHarness.wait(seconds: 5) { daemon.state() == "paused" })
        #expect(DaemonHarness.wait(seconds: 5) { led.shown == "trigger=timer delay_on=1000 delay_off=1000" })
        let pid = daemon.process.processIdentifier
        // The stick's loudness is measured once after its index run, on a thread at idle priority that ends
        // when every track is measured: work that finishes, not a wake-up that comes back. On a busy machine
        // an idle-priority thread gets little time, so its end is waited for.
        #expect(
            DaemonHarness.wait(seconds: 120) { !Self.switches(of: pid).keys.contains { $0.hasSuffix(" shufflebox-loud") } },
            "the loudness scan did not end:\n\(daemon.log)")
        // One-off settling: a cancelled save timer fires once, and idle libdispatch workers exit after ~5 s.
        Thread.sleep(forTimeInterval: 7)
        // A change of the mount table anywhere in the daemon's namespace rightly wakes its loop once; the
        // private namespace keeps other tests' sticks out, yet a busy machine has been seen to touch it. A
        // window with such a change proves nothing either way, so it is measured again; a window without one
        // must be silent. The window is a wait for nothing to happen: a sleep.
        var woke: [String] = []
        var quietWindows = 0
        for _ in 0..<4 {
            let mounts = MountTableWatch(pid: pid)
            let before = Self.switches(of: pid)
            Thread.sleep(forTimeInterval: 4)
            let after = Self.switches(of: pid)
            let mountsChanged = mounts.changed
            #expect(before.count >= 3, "the daemon's threads were read: \(before)")
            // "threaded-ml" is the PulseAudio client's own thread, loaded by the test's paced sink (alsa-lib's
            // pulse plugin) and talking to its server; the box has no PulseAudio.
            woke = before.keys.filter { !$0.hasSuffix(" threaded-ml") && after[$0] != nil && after[$0] != before[$0] }
                .sorted().map { "\($0): \(before[$0]!) -> \(after[$0]!)" }
            if !mountsChanged {
                quietWindows += 1
                break
            }
            print("IdleTests: the mount table changed during the window; measuring again")
        }
        #expect(quietWindows == 1, "every window had a mount-table change:\n\(daemon.log)")
        #expect(woke.isEmpty, "threads that woke while paused: \(woke)\n\(daemon.log.suffix(3000))")
        #expect(daemon.state() == "paused")
    }
}
