import Foundation
import LibPThread
import ShuffleTestSupport

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
        // An empty read is the end of the pipe: every writer (the player and anything it started) has closed it.
        out.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            if data.isEmpty { handle.readabilityHandler = nil }
            output.value.withLock {
                $0.stdout.append(data)
                $0.stdoutEnded = $0.stdoutEnded || data.isEmpty
            }
        }
        err.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            if data.isEmpty { handle.readabilityHandler = nil }
            output.value.withLock {
                $0.stderr.append(data)
                $0.stderrEnded = $0.stderrEnded || data.isEmpty
            }
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
        let status = Run.exitStatus(of: process)
        waitForOutputToEnd()
        return status
    }

    /// Waits (at most 2 s) until the pipe handlers have taken the last bytes of stdout and stderr.
    private func waitForOutputToEnd() {
        _ = DaemonHarness.wait(seconds: 2) { output.value.withLock { $0.stdoutEnded && $0.stderrEnded } }
    }

    /// Sends `signal` and waits for the process to end; returns its status (128 + signal when killed).
    func stop(with signal: Int32) -> Int32 {
        kill(process.processIdentifier, signal)
        let status = Run.exitStatus(of: process)
        waitForOutputToEnd()
        return status
    }
}

/// What a child wrote, filled by the pipe handlers.
final class OutputBox: Sendable {
    let value = PThreadMutex<(stdout: Data, stderr: Data, stdoutEnded: Bool, stderrEnded: Bool)>(
        (Data(), Data(), false, false))
}
