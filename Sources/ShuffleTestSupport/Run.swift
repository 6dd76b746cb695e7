import Foundation

/// Runs a program to completion and collects what it printed.
public enum Run {
    /// What a finished process left behind.
    public struct Result: Sendable {
        /// The exit status (or 128 + signal).
        public var status: Int32
        /// Everything written to stdout, decoded as UTF-8 (invalid bytes replaced).
        public var stdout: String
        /// Everything written to stderr.
        public var stderr: String
        /// Raw stdout bytes.
        public var stdoutData: Data
    }

    /// Runs the built `shufflebox` with `arguments`.
    public static func shufflebox(
        _ arguments: [String], environment: [String: String] = [:], stdin: Data? = nil
    ) throws -> Result {
        try program(PackagePaths.shufflebox.path, arguments, environment: environment, stdin: stdin)
    }

    /// Runs `path` with `arguments`, extra `environment` entries, and optional standard input.
    public static func program(
        _ path: String, _ arguments: [String], environment: [String: String] = [:], stdin: Data? = nil
    ) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe()
        let err = Pipe()
        let input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        // Read both pipes concurrently so a chatty child cannot fill one and block.
        let errData = LockedData()
        let reader = Thread { errData.set(err.fileHandleForReading.readDataToEndOfFile()) }
        reader.start()
        if let stdin { input.fileHandleForWriting.write(stdin) }
        try? input.fileHandleForWriting.close()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let status = exitStatus(of: process)
        while !errData.isSet { usleep(1000) }
        return Result(
            status: status, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData.value, as: UTF8.self), stdoutData: outData)
    }
}

extension Run {
    /// Waits for `process` to end and returns its status as a shell gives it (128 + the signal for a signal).
    ///
    /// Reaped here, with `waitpid`: Foundation's `Process` on Linux learns that a child ended when every copy
    /// of a socket it hands the child is closed, and a copy inherited by a process spawned beside it (tests
    /// run in parallel; `scripts/paced-sink` leaves a sound server behind) keeps `waitUntilExit` waiting for
    /// ever. Seen twice in a full run here: the child a zombie, the test stuck for good. When Foundation
    /// reaped the child first (`ECHILD`), its own status is used.
    public static func exitStatus(of process: Process) -> Int32 {
        let pid = process.processIdentifier
        var status: Int32 = 0
        while true {
            let reaped = waitpid(pid, &status, 0)
            if reaped == pid {
                let signal = status & 0x7f
                return signal == 0 ? (status >> 8) & 0xff : 128 + signal
            }
            if reaped < 0 && errno == EINTR { continue }
            break
        }
        process.waitUntilExit()
        return process.terminationReason == .uncaughtSignal
            ? 128 + process.terminationStatus : process.terminationStatus
    }
}

/// A Data slot filled by another thread.
private final class LockedData: @unchecked Sendable {
    // @unchecked: every access goes through `lock`.
    private let lock = NSLock()
    private var data: Data?
    func set(_ value: Data) { lock.withLock { data = value } }
    var isSet: Bool { lock.withLock { data != nil } }
    var value: Data { lock.withLock { data ?? Data() } }
}
