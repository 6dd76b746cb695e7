/// Text helpers for `search`/`find` filtering without Foundation's `CharacterSet` or ICU-backed
/// `range(of:options:)`: trimming, and case- and diacritic-insensitive containment.
enum SearchText {
    /// `text` without spaces and tabs (any Unicode horizontal whitespace) at either end.
    static func trimmed<S: StringProtocol>(_ text: S) -> String {
        let isSpace: (Character) -> Bool = { $0.isWhitespace && !$0.isNewline }
        guard let first = text.firstIndex(where: { !isSpace($0) }) else { return "" }
        let last = text.lastIndex(where: { !isSpace($0) })!
        return String(text[first...last])
    }

    /// Whether `needle` occurs in `haystack`, ignoring case and diacritics ("beyonce" finds "Beyoncé").
    /// An empty needle matches nothing, as with Foundation's `range(of:)`.
    static func contains(_ haystack: String, _ needle: String) -> Bool {
        let needle = fold(needle)
        guard !needle.isEmpty else { return false }
        let haystack = fold(haystack)
        guard haystack.count >= needle.count else { return false }
        for start in 0...(haystack.count - needle.count)
        where haystack[start..<(start + needle.count)].elementsEqual(needle) {
            return true
        }
        return false
    }

    /// `text` lowercased, with combining marks dropped and precomposed letters ("é", "ệ", "ά") replaced by
    /// their base letter, so that both composed and decomposed spellings fold alike.
    static func fold(_ text: String) -> [Unicode.Scalar] {
        var folded: [Unicode.Scalar] = []
        folded.reserveCapacity(text.utf8.count)
        for scalar in text.lowercased().unicodeScalars {
            if scalar.properties.generalCategory == .nonspacingMark { continue }
            folded.append(baseLetter(of: scalar) ?? scalar)
        }
        return folded
    }

    /// The letter under a precomposed one, found through Unicode names: "LATIN SMALL LETTER E WITH ACUTE"
    /// stands on "LATIN SMALL LETTER E". Nil for anything else.
    static func baseLetter(of scalar: Unicode.Scalar) -> Unicode.Scalar? {
        guard scalar.value >= 0xC0, let name = scalar.properties.name, let with = name.firstRange(of: " WITH ")
        else { return nil }
        return lettersByName[String(name[..<with.lowerBound])]
    }

    /// Letters without a diacritic in the Latin, Greek and Cyrillic blocks, by Unicode name (built once,
    /// on the first search: a few thousand entries).
    private static let lettersByName: [String: Unicode.Scalar] = {
        var table: [String: Unicode.Scalar] = [:]
        let ranges: [ClosedRange<UInt32>] = [0x41...0x5A, 0x61...0x7A, 0xC0...0x24F, 0x370...0x52F, 0x1E00...0x1FFF]
        for range in ranges {
            for value in range {
                guard let scalar = Unicode.Scalar(value), let name = scalar.properties.name,
                    !name.contains(" WITH ")
                else { continue }
                table[name] = scalar
            }
        }
        return table
    }()
}
