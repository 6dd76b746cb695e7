internal import Glibc

/// The helper's end: what `shufflebox-decoder` and `shufflebox-speech` do before and after serving requests.
public enum HelperSide {
    /// Says `text` on standard error (the player's log), after the program's `name`.
    public static func complain(_ name: String, _ text: String) {
        let line = Array("\(name): \(text)\n".utf8)
        _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }

    /// The channel to the player (standard input, a socket the player made). Started any other way (by hand,
    /// from a shell) the helper says `purpose` and exits with status 2.
    public static func playerChannel(_ name: String, purpose: String) -> WireChannel {
        var kind = stat()
        guard fstat(0, &kind) == 0, kind.st_mode & S_IFMT == S_IFSOCK else {
            complain(name, "\(purpose) for the shufflebox player, which starts it; not to be run by hand")
            exit(2)
        }
        return WireChannel(fd: 0)
    }

    /// Ends the helper after `serve` returns (the player closed the socket: status 0) or throws (it went away
    /// mid-message, or sent something that is not ours: nothing to answer, the error is logged, status 1).
    public static func finish(_ name: String, _ serve: () throws(WireError) -> Void) -> Never {
        do throws(WireError) {
            try serve()
            exit(0)
        } catch {
            complain(name, "\(error)")
            exit(1)
        }
    }
}
