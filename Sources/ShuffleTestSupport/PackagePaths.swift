import Foundation

/// Where things are in the checkout, found from this file's path so no `Bundle` is needed.
public enum PackagePaths {
    /// The package root (the folder holding Package.swift).
    public static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The `shufflebox` executable built by `swift build` (`$SHUFFLEBOX_BIN` overrides).
    ///
    /// The one beside the running test binary comes first, so a sanitizer build (`--build-path .build/asan`)
    /// tests its own instrumented executable rather than the plain debug one.
    public static var shufflebox: URL {
        if let path = ProcessInfo.processInfo.environment["SHUFFLEBOX_BIN"] { return URL(fileURLWithPath: path) }
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        for _ in 0..<4 {
            directory.deleteLastPathComponent()
            let candidate = directory.appendingPathComponent("shufflebox")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return root.appendingPathComponent(".build/debug/shufflebox")
    }

    /// The shared yardstick folder beside the checkout (`../shared`), when it exists (CI has it; a user's clone does not).
    public static var shared: URL? {
        let url = root.deletingLastPathComponent().appendingPathComponent("shared")
        return FileManager.default.fileExists(atPath: url.appendingPathComponent("tools").path) ? url : nil
    }
}
