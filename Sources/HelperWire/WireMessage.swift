internal import Glibc

/// The messages between the player and its helpers (`HelperProcess`): `shufflebox-decoder`, which decodes AAC
/// and ALAC with FFmpeg, `shufflebox-speech`, which renders phrases with espeak-ng, and `shufflebox
/// measure-loudness`, which decodes and measures tracks for the loudness scan, away from the player (so that
/// their memory and their crashes on hostile input stay out of the daemon).
///
/// One request, one reply (a `speak` request: a reply per batch of samples, then `done`), over a Unix stream socket: a header of five native-endian `Int64`s (kind, three
/// values, the length of what follows), then that many bytes. Both ends are the same binary build on the same
/// machine, so there is no byte-order or version negotiation; both ends check every length against
/// `maxPayload` before reading it.
public struct WireMessage: Equatable, Sendable {
    /// What the message is (`Kind`'s raw values).
    public var kind: Kind
    /// Three numbers whose meaning depends on `kind`.
    public var a: Int64
    public var b: Int64
    public var c: Int64
    /// The bytes that follow the header: a path, an error's sentence, or samples.
    public var payload: [UInt8]

    public enum Kind: Int64, Sendable {
        // Requests (player -> decoder).
        /// Open the file whose path is the payload. Reply: `format` or `failure`.
        case open = 1
        /// Decode up to `a` frames. Reply: `samples`, `newFormat`, `done` or `failure`.
        case read = 2
        /// Move to frame `a`. Reply: `position` or `failure`.
        case seek = 3
        /// Close the file. Reply: `closed`.
        case close = 4
        /// Render the payload (a voice name, a zero byte, UTF-8 text) at `a` words per minute. Replies:
        /// `samples` (16-bit mono, `c` frames per second) until the phrase is whole, then `done`; or `failure`.
        case speak = 5
        /// Decode the file whose path is the payload in full and measure its loudness. Replies: `progress`
        /// every few seconds of audio, then `loudness` or `failure`.
        case measure = 6
        // Replies (decoder -> player).
        /// The stream's shape: `a` frames per second, `b` channels, `c` bits per sample.
        case format = 10
        /// `a` frames of `b`-byte samples (2: Int16, 4: left-justified Int32), interleaved, as the payload.
        case samples = 11
        /// The stream changes shape from here on (`a`, `b`, `c` as in `format`).
        case newFormat = 12
        /// The stream ended.
        case done = 13
        /// The next read starts at frame `a`.
        case position = 14
        /// The file is closed.
        case closed = 15
        /// The request failed: the payload is the sentence, `a` the `errno` when the medium could not be read
        /// (else 0).
        case failure = 16
        /// `a` frames of the file being measured are decoded so far.
        case progress = 17
        /// The measurement: the payload is three `Double`s, the integrated loudness in LUFS and the true peak
        /// (each NaN when there is none) and the seconds of audio decoded.
        case loudness = 18
    }

    /// The most any payload may hold: 32,768 frames of 8 channels of 32-bit samples (a path or a sentence is
    /// far smaller). A header claiming more is refused before anything is read.
    public static let maxPayload = 1 << 20
    /// The most frames a `read` may ask for (so that a reply fits `maxPayload` at 8 channels and 32 bits).
    public static let maxFrames = 32_768
    static let headerBytes = 5 * MemoryLayout<Int64>.size

    public init(_ kind: Kind, a: Int64 = 0, b: Int64 = 0, c: Int64 = 0, payload: [UInt8] = []) {
        self.kind = kind
        self.a = a
        self.b = b
        self.c = c
        self.payload = payload
    }
}

/// Why a message could not be sent or received.
public enum WireError: Error, Sendable, Equatable {
    /// The other end closed the socket (it exited, or crashed) before a whole message came.
    case closed
    /// No whole message within the time allowed.
    case timedOut
    /// A header that is no message of ours (an unknown kind, a length out of bounds).
    case malformed(String)
    /// `read`, `write` or `poll` failed with this `errno`.
    case system(Int32)
}

/// One end of the socket. Reads block, or wait at most until a deadline (the player's end: a decoder that
/// hangs must not hang the audio thread); every length is bounded before it is read.
public struct WireChannel: Sendable {
    /// The socket.
    public let fd: Int32

    public init(fd: Int32) { self.fd = fd }

    /// Sends a message (header and payload in one `writev`-like pass of `write`s).
    public func send(_ message: WireMessage) throws(WireError) {
        try sendHeader(message.kind, a: message.a, b: message.b, c: message.c, length: message.payload.count)
        try message.payload.withUnsafeBytes { bytes in Result { () throws(WireError) in try writeAll(bytes) } }.get()
    }

    /// Sends a header whose payload the caller writes next with `sendBytes` (samples straight from a buffer).
    public func sendHeader(_ kind: WireMessage.Kind, a: Int64 = 0, b: Int64 = 0, c: Int64 = 0, length: Int)
        throws(WireError)
    {
        let header: [Int64] = [kind.rawValue, a, b, c, Int64(length)]
        try header.withUnsafeBytes { bytes in Result { () throws(WireError) in try writeAll(bytes) } }.get()
    }

    /// Sends raw bytes (the payload announced by `sendHeader`).
    public func sendBytes(_ bytes: UnsafeRawBufferPointer) throws(WireError) { try writeAll(bytes) }

    /// Receives a header: the kind, three values and the payload's length (bounded by `maxPayload`). nil when
    /// the other end closed the socket cleanly between messages. `timeoutMs` < 0 waits for ever.
    public func receiveHeader(timeoutMs: Int32 = -1) throws(WireError) -> (
        kind: WireMessage.Kind, a: Int64, b: Int64, c: Int64, length: Int
    )? {
        var header = [Int64](repeating: 0, count: 5)
        let deadline = Deadline(timeoutMs)
        let got = try header.withUnsafeMutableBytes { bytes in
            Result { () throws(WireError) in try readAll(bytes, deadline: deadline, endAllowed: true) }
        }.get()
        guard got else { return nil }
        guard let kind = WireMessage.Kind(rawValue: header[0]) else {
            throw .malformed("unknown message kind \(header[0])")
        }
        guard header[4] >= 0, header[4] <= WireMessage.maxPayload else {
            throw .malformed("a payload of \(header[4]) bytes (at most \(WireMessage.maxPayload))")
        }
        return (kind, header[1], header[2], header[3], Int(header[4]))
    }

    /// Receives exactly `bytes.count` payload bytes into `bytes`.
    public func receiveBytes(_ bytes: UnsafeMutableRawBufferPointer, timeoutMs: Int32 = -1) throws(WireError) {
        _ = try readAll(bytes, deadline: Deadline(timeoutMs), endAllowed: false)
    }

    /// Receives a whole message (its payload as an array); nil at a clean end.
    public func receive(timeoutMs: Int32 = -1) throws(WireError) -> WireMessage? {
        guard let header = try receiveHeader(timeoutMs: timeoutMs) else { return nil }
        var payload = [UInt8](repeating: 0, count: header.length)
        try payload.withUnsafeMutableBytes { bytes in
            Result { () throws(WireError) in try receiveBytes(bytes, timeoutMs: timeoutMs) }
        }.get()
        return WireMessage(header.kind, a: header.a, b: header.b, c: header.c, payload: payload)
    }

    private func writeAll(_ bytes: UnsafeRawBufferPointer) throws(WireError) {
        var done = 0
        while done < bytes.count {
            let n = Glibc.send(fd, bytes.baseAddress! + done, bytes.count - done, Int32(MSG_NOSIGNAL))
            if n < 0 {
                if errno == EINTR { continue }
                throw errno == EPIPE || errno == ECONNRESET ? .closed : .system(errno)
            }
            done += n
        }
    }

    /// Fills `bytes`; false when the socket ended before the first byte and `endAllowed`.
    private func readAll(_ bytes: UnsafeMutableRawBufferPointer, deadline: Deadline, endAllowed: Bool)
        throws(WireError) -> Bool
    {
        var done = 0
        while done < bytes.count {
            if let wait = deadline.remainingMs() {
                var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                let ready = poll(&poller, 1, wait)
                if ready < 0 {
                    if errno == EINTR { continue }
                    throw .system(errno)
                }
                if ready == 0 { throw .timedOut }
            }
            let n = Glibc.read(fd, bytes.baseAddress! + done, bytes.count - done)
            if n < 0 {
                if errno == EINTR { continue }
                throw errno == ECONNRESET ? .closed : .system(errno)
            }
            if n == 0 {
                if done == 0 && endAllowed { return false }
                throw .closed
            }
            done += n
        }
        return true
    }
}

/// A point in time on the monotonic clock, or none (wait for ever).
private struct Deadline {
    private let end: Int64?

    init(_ timeoutMs: Int32) { end = timeoutMs < 0 ? nil : Self.nowMs() + Int64(timeoutMs) }

    /// Milliseconds left (at least 0), or nil for no deadline.
    func remainingMs() -> Int32? {
        guard let end else { return nil }
        return Int32(clamping: max(0, end - Self.nowMs()))
    }

    private static func nowMs() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }
}
