import ShuffleCore
import Testing

/// Names and tags from a stick printed on a terminal: no raw control characters, and an escape is never
/// confused with a name that holds a backslash.
@Suite struct TerminalTextTests {
    @Test(arguments: [
        ("plain name.mp3", "plain name.mp3"),
        ("two\nlines.mp3", "two\\x0Alines.mp3"),
        ("\u{1B}[2Jclear.mp3", "\\x1B[2Jclear.mp3"),
        ("tab\tand\rcr", "tab\\x09and\\x0Dcr"),
        ("del\u{7F}", "del\\x7F"),
        ("c1\u{85}next", "c1\\u{0085}next"),
        ("rtl\u{202E}3pm.exe", "rtl\\u{202E}3pm.exe"),
        ("back\\x41slash", "back\\\\x41slash"),
        ("東京事変 – Café", "東京事変 – Café"),
    ])
    func escapesControlCharactersAndBackslashes(_ text: String, _ expected: String) {
        #expect(TerminalText.escape(text) == expected)
    }

    @Test func aByteThatIsNotUTF8IsDistinguishableFromABackslashInTheName() {
        let invalid = TerminalText.escape(PathBytes([0x61, 0xFF, 0x62]))
        let literal = TerminalText.escape(PathBytes("a\\xFFb"))
        #expect(invalid == "a\\xFFb")
        #expect(literal == "a\\\\xFFb")
        #expect(invalid != literal)
        #expect(TerminalText.escape(PathBytes([0x0A, 0xC3, 0xA9])) == "\\x0Aé")
    }

    @Test func withoutBackslashesAPathsOwnEscapesAreKept() {
        #expect(TerminalText.escape("a\\xFFb\n", backslashes: false) == "a\\xFFb\\x0A")
    }
}
