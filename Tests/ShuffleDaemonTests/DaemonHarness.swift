import Foundation
import Glibc
import ShuffleTestSupport

/// One `shufflebox run` as a real process in a temporary directory: library root, state directory,
/// socket and capture file of its own.
final class DaemonHarness: @unchecked Sendable {
    // @unchecked: used from one test at a time.
    let directory: TemporaryDirectory
    let process = Process()
    private var started = false

    var root: URL { directory.appending("root") }
    var stateDirectory: URL { directory.appending("state") }
    var socket: String { directory.appending("sock").path }
    var capture: URL { directory.appending("capture.raw") }
    var database: String { stateDirectory.appendingPathComponent("library.db").path }
    var stderrFile: URL { directory.appending("daemon.err") }

    /// The file PCM: what was played lands in `capture`, as fast as it is decoded.
    var fileDevice: String { "file:'\(capture.path)',raw" }

    init() throws {
        directory = try TemporaryDirectory(prefix: "shufflebox-daemon")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    private init(sharing other: DaemonHarness) {
        directory = other.directory
        parent = other
    }

    /// The parent whose directory (and mounts) this harness shares.
    private var parent: DaemonHarness?

    /// A new process on the same directory, state, socket and sticks (for restarts).
    func sibling() throws -> DaemonHarness { DaemonHarness(sharing: self) }

    /// Whether a daemon can play a mounted stick of real MP3s on the paced sink for Debian's `mpc` to drive.
    static var canPlayForMPC: Bool {
        canMount && TestLibrary.isAvailable && PacedSink.isAvailable
            && FileManager.default.fileExists(atPath: "/usr/bin/mpc")
    }

    /// The daemon's exit status, once it was reaped (`Run.exitStatus`: Foundation's `isRunning` may never learn).
    private var exited: Int32?

    deinit {
        if started, exited == nil {
            kill(process.processIdentifier, SIGKILL)
            _ = Run.exitStatus(of: process)
        }
        for mount in mountedSticks.reversed() { _ = try? Self.shell("umount", ["-l", mount]) }
    }

    /// Starts the daemon with `arguments` after the standard ones, and waits for its socket. With
    /// `privateMounts` it runs in a mount namespace of its own (`unshare`), holding the sticks plugged so
    /// far and seeing no later mount: other tests' sticks then cannot wake it. `under` is a command that
    /// execs the daemon (such as `setpriv` with fewer capabilities).
    func start(
        device: String? = nil, arguments: [String] = [], environment: [String: String] = [:],
        waitForSocket: Bool = true,
        privateMounts: Bool = false, under: [String] = []
    ) throws {
        let daemonArguments =
            [
                "run", "--library-root", root.path, "--state-dir", stateDirectory.path, "--socket", socket,
                "--device", device ?? fileDevice, "--log-level", "debug",
            ] + arguments
        if privateMounts {
            // unshare and then sh exec the daemon in their own process: `process.processIdentifier` stays the
            // daemon's. The new namespace starts as a copy of the mount table, other tests' sticks in /tmp
            // included; when such a test removes its stick's folder, the kernel drops the copy here too, and
            // that change of the mount table would wake the daemon. So the copies are let go first.
            let prune = """
                awk '{ print $5 }' /proc/self/mountinfo | grep '^/tmp/' | grep -v -F "$0" | sort -r |
                    while read -r m; do umount -l "$m" 2>/dev/null; done
                exec "$@"
                """
            process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
            process.arguments =
                [
                    "--mount", "--propagation", "private", "/bin/sh", "-c", prune, directory.path,
                    PackagePaths.shufflebox.path,
                ]
                + daemonArguments
        } else if let command = under.first {
            process.executableURL = URL(fileURLWithPath: command)
            process.arguments = Array(under.dropFirst()) + [PackagePaths.shufflebox.path] + daemonArguments
        } else {
            process.executableURL = PackagePaths.shufflebox
            process.arguments = daemonArguments
        }
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        _ = FileManager.default.createFile(atPath: stderrFile.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: stderrFile)
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        started = true
        if waitForSocket {
            // A connection, not the file: `bind` makes the file before the daemon's `listen`, and a test's first
            // connect in between was refused.
            let listening = Self.wait(seconds: 20) {
                guard let fd = Self.connectUnix(self.socket) else { return false }
                close(fd)
                return true
            }
            guard listening else {
                throw HarnessError("the daemon did not open \(socket):\n\(log)")
            }
        }
    }

    /// What the daemon wrote to stderr.
    var log: String { (try? String(contentsOf: stderrFile, encoding: .utf8)) ?? "" }

    /// Sends `signal` and waits for the exit status.
    @discardableResult
    func stop(_ signal: Int32 = SIGTERM) -> Int32 {
        guard started else { return process.terminationStatus }
        if let exited { return exited }
        kill(process.processIdentifier, signal)
        let status = Run.exitStatus(of: process)
        exited = status
        return status
    }

    // MARK: - Clients

    /// `shufflebox status --json` as a dictionary.
    func status() throws -> [String: Any] {
        let result = try Run.shufflebox(["status", "--socket", socket, "--json"])
        guard result.status == 0,
            let object = try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any]
        else { throw HarnessError("status failed (\(result.status)): \(result.stderr)") }
        return object
    }

    /// The `state` of `status --json`, or "unreachable".
    func state() -> String { ((try? status())?["state"] as? String) ?? "unreachable" }

    /// The current track's path from `status --json`.
    func trackPath() -> String? { ((try? status())?["track"] as? [String: Any])?["path"] as? String }

    /// Runs `sql` on the daemon's database with the `sqlite3` shell, waiting up to 5 s for the daemon's writes.
    func sqlite(_ sql: String) throws -> Run.Result {
        try Run.program("/usr/bin/sqlite3", ["-cmd", ".timeout 5000", database, sql])
    }

    /// Runs Debian's `mpc` against the socket.
    func mpc(_ arguments: [String]) throws -> Run.Result {
        try Run.program("/usr/bin/mpc", ["-h", socket] + arguments)
    }

    /// A stream socket connected to the Unix socket at `path`, or nil.
    static func connectUnix(_ path: String) -> Int32? {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        return connectStream(AF_UNIX, to: address)
    }

    /// A stream socket of `family` connected to `address` (a `sockaddr_un` or `sockaddr_in`), or nil.
    static func connectStream<Address>(_ family: Int32, to address: Address) -> Int32? {
        let fd = Glibc.socket(family, Int32(SOCK_STREAM.rawValue), 0)
        var address = address
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<Address>.size))
            }
        }
        guard connected == 0 else {
            close(fd)
            return nil
        }
        return fd
    }

    /// Sends raw bytes on a fresh connection and returns everything the daemon answered before closing
    /// (or within `seconds`).
    func raw(_ bytes: [UInt8], seconds: Int = 5, until terminator: String? = nil) -> String {
        guard let fd = Self.connectUnix(socket) else { return "" }
        defer { close(fd) }
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(fd, &buffer, buffer.count)
            guard count > 0 else { break }
            out += buffer.prefix(count)
            if let terminator, String(decoding: out, as: UTF8.self).hasSuffix(terminator) { break }
        }
        return String(decoding: out, as: UTF8.self)
    }

    // MARK: - Sticks

    private var mountedSticks: [String] = []

    /// What the stick `name` holds: `plug` fills it from its library the first time and copies it onto
    /// each new mount, so a test may change it between plugs (the stick on a computer).
    func staging(_ name: String = "stick") -> URL { directory.appending("staging-\(name)") }

    /// Mounts a fresh tmpfs at `root/name` and copies `library` into it (a stick being plugged in).
    func plug(_ library: URL, as name: String = "stick") throws {
        let point = root.appendingPathComponent(name).path
        try FileManager.default.createDirectory(atPath: point, withIntermediateDirectories: true)
        let staging = staging(name)
        if !FileManager.default.fileExists(atPath: staging.path) {
            try Self.shell("cp", ["-a", library.path, staging.path])
        }
        // Mount elsewhere, fill, then move into place: the daemon sees one complete mount appear.
        try Self.shell("mount", ["-t", "tmpfs", "-o", "size=256m", "tmpfs", staging.path + ".mnt"], makeDir: true)
        try Self.shell("cp", ["-a", staging.path + "/.", staging.path + ".mnt/"])
        try Self.shell("mount", ["--move", staging.path + ".mnt", point])
        mountedSticks.append(point)
    }

    /// Unmounts `root/name` lazily, as systemd does when a stick is pulled while files are open.
    func unplug(_ name: String = "stick") throws {
        let point = root.appendingPathComponent(name).path
        try Self.shell("umount", ["-l", point])
        mountedSticks.removeAll { $0 == point }
    }

    // MARK: - Helpers

    /// Waits (at most `seconds`) until the daemon reports a position past `milliseconds` in its track.
    func waitForPosition(over milliseconds: Int, seconds: Double = 15) -> Bool {
        Self.wait(seconds: seconds) { (try? self.status())?["positionMs"] as? Int ?? 0 > milliseconds }
    }

    /// Writes scripted button edges ("MS BUTTON press|release" lines) into the daemon's button FIFO.
    static func press(_ lines: String, fifo: String) throws {
        guard let handle = FileHandle(forWritingAtPath: fifo) else { throw HarnessError("cannot open \(fifo)") }
        handle.write(Data(lines.utf8))
        try handle.close()
    }

    /// Bytes in `file` so far (0 while there is none): how far a recording has got.
    static func size(of file: URL) -> Int {
        (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
    }

    /// Polls `condition` every 20 ms for up to `seconds`.
    static func wait(seconds: Double, until condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            usleep(20_000)
        }
        return condition()
    }

    @discardableResult
    static func shell(_ tool: String, _ arguments: [String], makeDir: Bool = false) throws -> Run.Result {
        if makeDir, let last = arguments.last {
            try FileManager.default.createDirectory(atPath: last, withIntermediateDirectories: true)
        }
        let path = ["/usr/bin/", "/bin/", "/usr/sbin/", "/sbin/"].map { $0 + tool }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
        guard let path else { throw HarnessError("\(tool) is not installed") }
        let result = try Run.program(path, arguments)
        guard result.status == 0 else {
            throw HarnessError("\(tool) \(arguments.joined(separator: " ")): \(result.stderr)")
        }
        return result
    }

    /// A generated library (cached per process and size). Each caller that finds none generates its own copy
    /// and renames it into place, so the folder only ever appears whole: suites run in parallel, and two of
    /// them asking at once used to share one folder, the second emptying it under the first's generator.
    static func library(tracks: Int, seconds: Double) throws -> URL {
        let url = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent(
            "shufflebox-daemon-lib-\(getpid())-\(tracks)-\(Int(seconds))")
        let manifest = url.appendingPathComponent(".manifest.tsv").path
        if FileManager.default.fileExists(atPath: manifest) { return url }
        let fresh = URL(fileURLWithPath: url.path + "-" + UUID().uuidString)
        try TestLibrary.generate(at: fresh, tracks: tracks, formats: .same, broken: 0, extras: false, seconds: seconds)
        if rename(fresh.path, url.path) != 0 {
            // Another caller's whole copy got there first, or a dead process's half one is in the way.
            if !FileManager.default.fileExists(atPath: manifest) {
                try? FileManager.default.removeItem(at: url)
                guard rename(fresh.path, url.path) == 0 || FileManager.default.fileExists(atPath: manifest) else {
                    throw HarnessError("could not move the generated library into \(url.path) (errno \(errno))")
                }
            }
            try? FileManager.default.removeItem(at: fresh)
        }
        return url
    }

    /// A daemon playing the cached 6-track library (8 s tracks) on a paced sink, with what the sink hears
    /// followed from the moment music is heard. Stop the sink when done.
    static func playingOnPacedSink() throws -> (DaemonHarness, PacedSink, HeardAudio) {
        let library = try DaemonHarness.library(tracks: 6, seconds: 8)
        let daemon = try DaemonHarness()
        let sink = try PacedSink(directory: daemon.directory.appending("paced"))
        let recording = daemon.directory.appending("heard.raw")
        try sink.record(to: recording)
        try daemon.start(device: "paced", environment: sink.environment)
        try daemon.plug(library)
        guard DaemonHarness.wait(seconds: 10, until: { daemon.state() == "playing" && daemon.trackPath() != nil })
        else { throw HarnessError("the stick did not start playing:\n\(daemon.log)") }
        let heard = HeardAudio(file: recording)
        guard heard.waitForSound() else { throw HarnessError("playing, but the sink hears nothing") }
        return (daemon, sink, heard)
    }

    /// Whether the tests that mount need: root and Debian's mpc.
    static var canMount: Bool { getuid() == 0 }
}

/// A harness failure, with what the daemon said.
struct HarnessError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
