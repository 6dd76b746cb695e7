import Foundation

/// A fresh directory under `$TMPDIR` (else `/tmp`), removed with everything in it when the value goes away
/// or when `remove()` is called.
public final class TemporaryDirectory: @unchecked Sendable {
    // @unchecked: `url` never changes; `removed` is only touched under `lock`.
    /// The directory.
    public let url: URL
    private let lock = NSLock()
    private var removed = false

    /// Creates `$TMPDIR/<prefix>.XXXXXX` with `mkdtemp(3)`.
    public init(prefix: String = "shufflebox-test") throws {
        let base = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((base.hasSuffix("/") ? base : base + "/").utf8CString.dropLast())
        template += Array("\(prefix).XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer -> String? in
            guard let result = mkdtemp(buffer.baseAddress!) else { return nil }
            return String(cString: result)
        }
        guard let path = made else {
            throw TestSupportError("cannot create a temporary directory in \(base): \(String(cString: strerror(errno)))")
        }
        url = URL(fileURLWithPath: path, isDirectory: true)
    }

    /// The directory's path.
    public var path: String { url.path }

    /// A URL inside the directory.
    public func appending(_ relative: String) -> URL { url.appendingPathComponent(relative) }

    /// Removes the directory and its contents now (later calls do nothing).
    public func remove() {
        let already = lock.withLock { () -> Bool in
            defer { removed = true }
            return removed
        }
        if !already { try? FileManager.default.removeItem(at: url) }
    }

    deinit { remove() }
}

/// A failure in the test-support code, said plainly.
public struct TestSupportError: Error, CustomStringConvertible, Equatable {
    /// What failed.
    public var description: String

    /// Creates an error with a message.
    public init(_ description: String) { self.description = description }
}
