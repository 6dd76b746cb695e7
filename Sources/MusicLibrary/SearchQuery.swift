/// Builds the FTS5 MATCH expression for what a person typed. Pure, so it is tested by tables.
///
/// Every whitespace-separated word becomes one FTS5 string (`"…"`, with `"` doubled), so nothing a
/// person types is ever FTS syntax: quotes, `*`, `-`, `^`, `AND`/`OR`/`NOT`, `NEAR(`, parentheses
/// are plain text; control characters separate words. Words with no letter or digit (which the tokenizer would drop, leaving an empty
/// phrase) are left out. The last word gets a trailing `*`, so it matches as a prefix while typing.
/// A word containing CJK characters is spaced out as in `FTSText.indexForm`, making it a phrase of
/// single characters. Words are joined with spaces, which FTS5 reads as AND.
public enum SearchQuery {
    /// The MATCH expression, or nil when the query has nothing to search for (empty, only punctuation).
    public static func matchExpression(for text: String) -> String? {
        // Control characters (a NUL would end the MATCH text early in FTS5's parser) separate words.
        let words = text.split(whereSeparator: {
            $0.isWhitespace || $0.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
        })
        .map(String.init).filter(hasTokenCharacter)
        guard !words.isEmpty else { return nil }
        var terms: [String] = []
        for (index, word) in words.enumerated() {
            let spaced = FTSText.indexForm(word).split(separator: " ").joined(separator: " ")
            let quoted = "\"" + spaced.replacing("\"", with: "\"\"") + "\""
            terms.append(index == words.count - 1 ? quoted + "*" : quoted)
        }
        return terms.joined(separator: " ")
    }

    /// Whether `word` holds at least one character the `unicode61` tokenizer keeps (a letter or digit).
    static func hasTokenCharacter(_ word: String) -> Bool {
        word.unicodeScalars.contains { scalar in
            switch scalar.properties.generalCategory {
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                .decimalNumber, .letterNumber, .otherNumber:
                return true
            default:
                return false
            }
        }
    }
}
