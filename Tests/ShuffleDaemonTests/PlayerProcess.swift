import Foundation
import ShuffleTestSupport
import Synchronization

/// A running `shufflebox play`, whose stdout lines can be awaited while it plays.
final class PlayerProcess: Sendable {
    private let process: Process
    private let output = OutputBox()
    private let input: Pipe

    /// Starts `shufflebox` with `arguments` and extra `environment`.
    init(_ arguments: [String], environment: [String: String]) throws {
        let process = Process()
        process.executableURL = PackagePaths.shufflebox
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe()
        let err = Pipe()
        input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        let output = self.output
        out.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            output.value.withLock { $0.stdout.append(data) }
        }
        err.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            output.value.withLock { $0.stderr.append(data) }
        }
        try process.run()
        self.process = process
    }

    /// The stdout lines so far.
    var lines: [String] {
        String(decoding: output.value.withLock { $0.stdout }, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// Everything written to stderr so far.
    var stderr: String { String(decoding: output.value.withLock { $0.stderr }, as: UTF8.self) }

    /// Waits (polling every 20 ms, at most `limit`) until `count` lines are out; returns whether they are.
    func waitForLines(_ count: Int, limit: Duration = .seconds(30)) async throws -> Bool {
        let deadline = ContinuousClock.now + limit
        while lines.count < count {
            guard process.isRunning, ContinuousClock.now < deadline else { return lines.count >= count }
            try await Task.sleep(for: .milliseconds(20))
        }
        return true
    }

    /// Types `keys` as if on the keyboard.
    func type(_ keys: String) { input.fileHandleForWriting.write(Data(keys.utf8)) }

    /// Waits up to `seconds` for the process to end by itself (killing it after that); returns its status.
    func wait(seconds: Double) -> Int32 {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning { return stop(with: SIGKILL) }
        process.waitUntilExit()
        usleep(50_000)  // let the pipe handlers take the last bytes
        return process.terminationReason == .uncaughtSignal
            ? 128 + process.terminationStatus : process.terminationStatus
    }

    /// Sends `signal` and waits for the process to end; returns its status (128 + signal when killed).
    func stop(with signal: Int32) -> Int32 {
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        usleep(50_000)  // let the pipe handlers take the last bytes
        return process.terminationReason == .uncaughtSignal
            ? 128 + process.terminationStatus : process.terminationStatus
    }
}

/// A private PulseAudio null sink behind ALSA's pulse plugin: a device named `paced` that plays in real time.
struct PacedSink {
    let directory: URL
    let environment: [String: String]

    /// The script that starts it: the project's own when it has one, else the shared yardstick's.
    static var script: URL? {
        let own = PackagePaths.root.appendingPathComponent("scripts/paced-sink")
        if FileManager.default.isExecutableFile(atPath: own.path) { return own }
        let shared = PackagePaths.shared?.appendingPathComponent("tools/paced-sink")
        return shared.flatMap { FileManager.default.isExecutableFile(atPath: $0.path) ? $0 : nil }
    }

    /// Whether a paced sink can run here (the script and pulseaudio are there).
    static var isAvailable: Bool {
        script != nil && FileManager.default.isExecutableFile(atPath: "/usr/bin/pulseaudio")
    }

    /// Starts a sink in `directory`.
    init(directory: URL) throws {
        self.directory = directory
        guard let script = PacedSink.script else { throw TestSupportError("no paced-sink script") }
        let result = try Run.program(script.path, ["start", directory.path])
        guard result.status == 0 else { throw TestSupportError("paced-sink start failed: \(result.stderr)") }
        var environment: [String: String] = [:]
        for word in result.stdout.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
            let parts = word.split(separator: "=", maxSplits: 1).map(String.init)
            if parts.count == 2 { environment[parts[0]] = parts[1] }
        }
        self.environment = environment
    }

    /// Records what the sink plays (raw S16LE, 44.1 kHz stereo) into `file`, in the background.
    func record(to file: URL) throws {
        guard let script = PacedSink.script else { return }
        // Not `Run.program`: the script leaves parec running with its stdout, so a pipe would never close.
        let process = Process()
        process.executableURL = script
        process.arguments = ["record", directory.path, file.path]
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Not waitUntilExit either: Foundation waits on a descriptor the background parec inherits.
        usleep(300_000)
    }

    /// Frames of `file` (a recording) that are not silent: the audio that was actually heard.
    static func heardFrames(in file: URL) -> Int {
        guard let data = try? Data(contentsOf: file) else { return 0 }
        return data.withUnsafeBytes { raw in
            let samples = raw.bindMemory(to: Int16.self)
            var heard = 0
            var index = 0
            while index + 1 < samples.count {
                if samples[index] != 0 || samples[index + 1] != 0 { heard += 1 }
                index += 2
            }
            return heard
        }
    }

    /// Stops the sink.
    func stop() {
        guard let script = PacedSink.script else { return }
        _ = try? Run.program(script.path, ["stop", directory.path])
    }
}

/// What a child wrote, filled by the pipe handlers.
final class OutputBox: Sendable {
    let value = Mutex<(stdout: Data, stderr: Data)>((Data(), Data()))
}
