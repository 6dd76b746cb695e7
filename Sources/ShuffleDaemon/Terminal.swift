import Glibc

/// Writing to the terminal's streams with plain `write(2)` (no Foundation `FileHandle`).
public enum Terminal {
    /// Writes one line to stderr (messages for a person; stdout is for results).
    public static func error(_ line: String) {
        writeError(line + "\n")
    }

    /// Writes `text` to stdout as it is, after whatever `print` has buffered.
    public static func write(_ text: String) {
        // `print` goes through stdio's buffer; flush it first so the two kinds of output keep their order.
        fflush(nil)
        writeAll(text, to: STDOUT_FILENO)
    }

    /// Writes `text` to stderr as it is (for progress lines that end in `\r`).
    public static func writeError(_ text: String) {
        writeAll(text, to: STDERR_FILENO)
    }

    /// Whether stderr is a terminal (for live progress lines).
    public static var stderrIsTerminal: Bool { isatty(2) == 1 }

    /// Writes every byte of `text` to `fd`, retrying on short writes and EINTR; gives up quietly on
    /// other errors (a closed pipe has no one left to tell).
    private static func writeAll(_ text: String, to fd: Int32) {
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0 && errno == EINTR {
                    continue
                } else {
                    return
                }
            }
        }
    }
}
