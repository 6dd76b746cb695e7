import ShuffleCore
import Testing

/// Seeded random bytes through the parsers that face untrusted input: they answer or refuse, never crash.
@Suite struct HostileInputTests {
    /// A tiny deterministic generator (SplitMix64), so a failure replays.
    private struct Bytes {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func bytes(_ count: Int, alphabet: [UInt8]) -> [UInt8] {
            (0..<count).map { _ in alphabet[Int(next() % UInt64(alphabet.count))] }
        }
    }

    private static let alphabet: [UInt8] =
        Array("abcdefghijklmnopqrstuvwxyz-_= #\"\\\n\t0123456789/:[]".utf8) + [0, 0xC3, 0xA9, 0xFF, 0x80]

    @Test func configParserNeverCrashes() {
        var random = Bytes(state: 1)
        for _ in 0..<2000 {
            let text = String(decoding: random.bytes(Int(random.next() % 200), alphabet: Self.alphabet), as: UTF8.self)
            _ = try? ConfigParser.parse(text, file: "fuzz")
        }
    }

    @Test func mpdSessionAnswersEveryLineOrCloses() {
        struct Empty: MPDBackend {
            func snapshot() -> PlayerSnapshot { PlayerSnapshot(state: .noLibrary) }
            func perform(_ action: PlayerAction) -> MPDError? { nil }
            func search(_ constraints: [SearchConstraint], exact: Bool) throws(MPDError) -> [SongInfo] { [] }
        }
        var random = Bytes(state: 2)
        var backend = Empty()
        let words = [
            "status", "idle", "noidle", "command_list_begin", "command_list_ok_begin", "command_list_end",
            "search", "find", "setvol", "pause", "ping", "close", "volume",
        ].map { Array($0.utf8) }
        for _ in 0..<300 {
            var session = MPDSession()
            var lines = MPDLineBuffer(maxLength: 128)
            for _ in 0..<20 {
                var chunk = words[Int(random.next() % UInt64(words.count))]
                chunk += random.bytes(Int(random.next() % 40), alphabet: Self.alphabet) + [10]
                for piece in lines.append(chunk) {
                    let reply = session.receive(piece, backend: &backend)
                    if reply.close { break }
                }
            }
        }
        _ = MountTable.parse(random.bytes(5000, alphabet: Self.alphabet))
    }
}
