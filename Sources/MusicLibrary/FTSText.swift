/// Turns text into the form stored in, and matched against, the FTS5 tables.
///
/// **CJK.** `unicode61` keeps a run of letters without spaces as one token, and Chinese and
/// Japanese write whole phrases without spaces: "東京事変" would be one token, so a search for
/// "東京" (or "京") would find nothing. We index every Han, Kana and Hangul character as a token of
/// its own by putting spaces around it before the text goes into FTS (the display values come from
/// the `tracks` table, never from FTS), and `SearchQuery` turns a CJK query term into a phrase of
/// single characters (`"東 京"`), which FTS5 matches only where those characters stand next to each
/// other: a substring search of any length, including one and two characters, with bm25 ranking and
/// no extra table. The cost is a slightly larger index for CJK-heavy libraries; a `trigram` table
/// would need a LIKE fallback for one- and two-character queries and a second ranking scheme.
public enum FTSText {
    /// What one FTS column holds for a field: its shown value and every further value of a multi-valued
    /// field (a second artist), one after the other, each in `indexForm`; nil when there is none.
    public static func searchForm(_ first: String?, _ more: [String]) -> String? {
        let values = (first.map { [$0] } ?? []) + more
        guard !values.isEmpty else { return nil }
        return values.map(indexForm).joined(separator: " ")
    }

    /// `text` with a space on each side of every CJK character.
    public static func indexForm(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isCJK) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isCJK(scalar) {
                out.append(" ")
                out.append(scalar)
                out.append(" ")
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// Whether `scalar` is a Han ideograph, Hiragana, Katakana or Hangul (characters written without
    /// spaces between words).
    public static func isCJK(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x3040...0x30FF,  // Hiragana, Katakana (with the prolonged sound mark)
            0x31F0...0x31FF,  // Katakana phonetic extensions
            0x3400...0x4DBF,  // CJK Extension A
            0x4E00...0x9FFF,  // CJK Unified Ideographs
            0xF900...0xFAFF,  // CJK Compatibility Ideographs
            0xFF66...0xFF9F,  // Halfwidth Katakana
            0x1100...0x11FF, 0x3130...0x318F, 0xAC00...0xD7AF,  // Hangul Jamo, compatibility Jamo, syllables
            0x20000...0x3134F:  // CJK Extensions B–G
            return true
        default:
            return false
        }
    }
}
