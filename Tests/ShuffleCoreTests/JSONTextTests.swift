import ShuffleCore
import Testing

@Suite struct JSONTextTests {
    @Test func escapesQuotesBackslashesAndControlCharacters() {
        let value = JSONText.Value.object([
            ("path", .string("a\"b\\c\nd\u{1}é")), ("n", .int(3)), ("x", .null), ("ok", .bool(true)),
            ("list", .array([.int(1), .string("z")])),
        ])
        #expect(JSONText.render(value) == #"{"path":"a\"b\\c\nd\u0001é","n":3,"x":null,"ok":true,"list":[1,"z"]}"#)
    }
}
