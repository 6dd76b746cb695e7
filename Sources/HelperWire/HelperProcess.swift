internal import Glibc

/// A helper process of the player's, one of its own executables beside it: `shufflebox-decoder` (AAC and ALAC
/// with FFmpeg), `shufflebox-speech` (espeak-ng) or `shufflebox measure-loudness` (the loudness scan), whose
/// own files say why each lives apart. One request,
/// one reply (`WireMessage`) over a Unix socket that is the helper's standard input; every reply is awaited at
/// most `replyTimeoutMs`, so a helper that hangs on hostile input costs that request, not the player. A helper
/// that crashed or hung is ended and reaped, and the next request starts a new one.
///
/// Not thread-safe: one thread uses it (the audio thread, or one rendering).
public final class HelperProcess {
    /// The program: an executable beside the running one (`besideExecutable`).
    public let program: String
    /// What the helper is, for sentences ("the AAC/ALAC decoder").
    public let role: String
    /// The words after the program's name (`measure-loudness` makes `shufflebox` the loudness scan's helper).
    public let arguments: [String]
    private var pid: pid_t = 0
    private var channel: WireChannel?
    /// How long a reply may take (the first includes the process's start and its libraries' loading).
    public let replyTimeoutMs: Int32

    public init(program: String, arguments: [String] = [], role: String, timeoutMs: Int32) {
        self.program = program
        self.arguments = arguments
        self.role = role
        replyTimeoutMs = timeoutMs
    }

    deinit { end() }

    /// The executable `name` in the folder of the running executable (`/usr/bin` on the box, `.build/release`
    /// or `.build/debug` for a build and its tests).
    public static func besideExecutable(_ name: String) -> String {
        var target = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &target, target.count - 1)
        guard count > 0 else { return "/usr/bin/" + name }
        let bytes = target[..<count].map { UInt8(bitPattern: $0) }
        let folder = bytes.lastIndex(of: UInt8(ascii: "/")).map { bytes[..<$0] } ?? []
        return String(decoding: folder, as: UTF8.self) + "/" + name
    }

    /// Whether the process runs (as far as this end knows).
    public var isRunning: Bool { channel != nil }

    /// The process's id while it runs (tests end it to see the player survive).
    public var processID: Int32? { channel == nil ? nil : pid }

    /// Starts the process unless it runs. Wraps `socketpair` and `posix_spawn`.
    public func start() throws(HelperFailure) {
        guard channel == nil else { return }
        var pair: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
            throw failure("socketpair: \(String(cString: strerror(errno)))")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pair[1], 0)  // dup2 clears FD_CLOEXEC on the copy
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // No blocked signals (the calling thread may block some), and SIGPIPE back to its default.
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var argv: [UnsafeMutablePointer<CChar>?] = ([program] + arguments).map { strdup($0) } + [nil]
        defer { for word in argv { free(word) } }
        var child: pid_t = 0
        let status = posix_spawn(&child, program, &actions, &attributes, &argv, environ)
        close(pair[1])
        guard status == 0 else {
            close(pair[0])
            throw failure(
                "cannot start \(role) (\(program)): \(String(cString: strerror(status))); it belongs beside "
                    + "shufflebox (reinstall Shufflebox)")
        }
        pid = child
        channel = WireChannel(fd: pair[0])
    }

    /// A reply: its kind, values and (for every kind but `samples`, whose payload `receiveSamples` reads)
    /// its payload.
    public struct Reply: Sendable {
        public var kind: WireMessage.Kind
        public var a: Int64
        public var b: Int64
        public var c: Int64
        public var length: Int
        public var payload: [UInt8]
    }

    /// Sends `request` (starting the process if needed) and waits for the reply's header and, but for
    /// samples, its payload. A failed exchange ends the process and throws, naming `file`.
    public func ask(_ request: WireMessage, file: String) throws(HelperFailure) -> Reply {
        try start()
        guard let channel else { throw failure("\(role) is not running") }
        do throws(WireError) { try channel.send(request) } catch { throw lost(error, file: file) }
        return try next(file: file)
    }

    /// Waits for the next reply to the request under way (a `speak` request has several), as `ask` does.
    public func next(file: String) throws(HelperFailure) -> Reply {
        guard let channel else { throw failure("\(role) is not running") }
        do throws(WireError) {
            guard let header = try channel.receiveHeader(timeoutMs: replyTimeoutMs) else { throw .closed }
            var reply = Reply(kind: header.kind, a: header.a, b: header.b, c: header.c, length: header.length, payload: [])
            if header.kind != .samples {
                reply.payload = [UInt8](repeating: 0, count: header.length)
                try reply.payload.withUnsafeMutableBytes { bytes in
                    Result { () throws(WireError) in try channel.receiveBytes(bytes, timeoutMs: replyTimeoutMs) }
                }.get()
            }
            return reply
        } catch {
            throw lost(error, file: file)
        }
    }

    /// Reads a `samples` reply's payload into `bytes` (exactly its announced length).
    public func receiveSamples(into bytes: UnsafeMutableRawBufferPointer, file: String) throws(HelperFailure) {
        guard let channel else { throw failure("\(role) is not running") }
        do throws(WireError) {
            try channel.receiveBytes(bytes, timeoutMs: replyTimeoutMs)
        } catch {
            throw lost(error, file: file)
        }
    }

    /// Ends the process (it holds nothing worth keeping: the next request starts a new one) and reaps it.
    public func end() {
        guard let channel else { return }
        close(channel.fd)
        self.channel = nil
        kill(pid, SIGKILL)
        _ = reap()
    }

    /// A failed exchange: ends the process, and says what became of it.
    private func lost(_ error: WireError, file: String) -> HelperFailure {
        let what: String
        switch error {
        case .closed:
            // It closed the socket: it exited or crashed. Its status says which.
            close(channel?.fd ?? -1)
            channel = nil
            what = "stopped (\(reap()))"
        case .timedOut:
            end()
            what = "did not answer within \(Double(replyTimeoutMs) / 1000) s and was ended"
        case .malformed(let detail):
            end()
            what = "answered something that is not a reply (\(detail)) and was ended"
        case .system(let code):
            end()
            what = "could not be reached (\(String(cString: strerror(code)))) and was ended"
        }
        return failure("\(role) (\(program)) \(what) on \(file)")
    }

    /// Waits for the process to end; describes how it ended.
    private func reap() -> String {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            if errno != EINTR { return "not waited for: \(String(cString: strerror(errno)))" }
        }
        pid = 0
        let signal = status & 0x7F
        if signal != 0 { return "killed by signal \(signal), \(String(cString: strsignal(signal)))" }
        return "exit status \((status >> 8) & 0xFF)"
    }

    private func failure(_ text: String) -> HelperFailure { HelperFailure(description: text) }
}

/// Why a helper could not be asked: it would not start, crashed, hung or answered nonsense (the sentence says
/// which, naming the helper and what it was working on).
public struct HelperFailure: Error, Sendable, CustomStringConvertible {
    public let description: String

    public init(description: String) { self.description = description }
}
