import ShuffleCore
import Testing

@Suite struct PathBytesTests {
    @Test func invalidUTF8BytesAreEscapedValidTextIsKept() {
        #expect(PathBytes([0x61, 0xFF, 0x62]).display == "a\\xFFb")
        #expect(PathBytes("Beyoncé/ü.mp3").display == "Beyoncé/ü.mp3")
        #expect(PathBytes([0xC3]).display == "\\xC3")  // truncated sequence
        #expect(PathBytes([0xED, 0xA0, 0x80]).display == "\\xED\\xA0\\x80")  // UTF-16 surrogate
    }

    @Test func appendingJoinsWithOneSlash() {
        #expect(PathBytes("/media/a").appending(PathBytes("x.mp3")).display == "/media/a/x.mp3")
        #expect(PathBytes("/media/a/").appending(PathBytes("x.mp3")).display == "/media/a/x.mp3")
    }
}
