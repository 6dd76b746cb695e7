/// Text from a stick (file names, tags) made safe to print on a terminal, one entry per line.
///
/// A file name may hold a newline (one entry would look like two), ESC (a terminal escape sequence that
/// rewrites the screen) or a right-to-left override. Those become `\xHH` (C0 controls and DEL) or `\u{HHHH}`
/// (C1 controls and the bidirectional overrides and isolates), and a backslash that is really in the text
/// becomes `\\`, so an escape is never confused with a name that contains a backslash: `a\x0Ab` is a name
/// with a newline in it, `a\\x0Ab` the seven characters `a\x0Ab`. Bytes that are not UTF-8 are `\xHH` too.
public enum TerminalText {
    /// `text` with every control character, bidirectional control and backslash escaped. Without
    /// `backslashes`, a backslash is left as it is (for text that already holds `\xHH` escapes of its own,
    /// such as a path from the control socket).
    public static func escape(_ text: String, backslashes: Bool = true) -> String {
        guard text.unicodeScalars.contains(where: { needsEscape($0) && (backslashes || $0 != "\\") }) else {
            return text
        }
        var out = ""
        out.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            if scalar == "\\" {
                out += backslashes ? "\\\\" : "\\"
            } else if scalar.value < 0x20 || scalar.value == 0x7F {
                out += "\\x" + hex(scalar.value, digits: 2)
            } else if needsEscape(scalar) {
                out += "\\u{" + hex(scalar.value, digits: 4) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// The path escaped as `escape` does, with each byte that is not UTF-8 as `\xHH`.
    public static func escape(_ path: PathBytes) -> String {
        var out = ""
        var run: [UInt8] = []
        func flush() {
            if !run.isEmpty { out += escape(String(decoding: run, as: UTF8.self)) }
            run.removeAll(keepingCapacity: true)
        }
        var index = 0
        let bytes = path.bytes
        while index < bytes.count {
            let length = PathBytes.validSequenceLength(bytes, at: index)
            if length > 0 {
                run += bytes[index..<index + length]
                index += length
            } else {
                flush()
                out += "\\x" + hex(UInt32(bytes[index]), digits: 2)
                index += 1
            }
        }
        flush()
        return out
    }

    /// Whether a scalar is printed escaped.
    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x5C, 0x7F...0x9F, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// Upper-case hex with at least `digits` digits.
    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
