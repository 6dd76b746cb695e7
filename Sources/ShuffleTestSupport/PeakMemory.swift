import Foundation

extension Run {
    /// Whether GNU time (`/usr/bin/time`, Debian's `time`) is there to measure a child's peak memory.
    public static var canMeasurePeakMemory: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/time") }

    /// Runs the built `shufflebox` with `arguments` under GNU time; returns what it printed and its peak
    /// resident set size in KiB (the kernel's `ru_maxrss` of that one process).
    public static func shuffleboxMeasuringPeakMemory(
        _ arguments: [String], environment: [String: String] = [:]
    ) throws -> (result: Result, peakKiB: Int) {
        let folder = try TemporaryDirectory(prefix: "peak-memory")
        let report = folder.appending("time.txt").path
        let result = try program(
            "/usr/bin/time", ["-f", "%M", "-o", report, PackagePaths.shufflebox.path] + arguments,
            environment: environment)
        let text = try String(contentsOfFile: report, encoding: .utf8)
        guard let kib = text.split(separator: "\n").last.flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) })
        else { throw TestSupportError("GNU time wrote no peak memory: \(text)") }
        return (result, kib)
    }
}
