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
        process.waitUntilExit()
        while !errData.isSet { usleep(1000) }
        let status =
            process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
        return Result(
            status: status, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData.value, as: UTF8.self), stdoutData: outData)
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
