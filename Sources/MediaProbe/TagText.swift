import ShuffleCore

/// Decoding and cleaning of tag text: ID3 text encodings, multi-value strings, numbers in text.
enum TagText {
    // MARK: - Decoding

    /// Decodes ID3v2 text in `encoding` (0 Latin-1, 1 UTF-16 with BOM, 2 UTF-16BE, 3 UTF-8) and
    /// returns every NUL-separated value. Unknown encodings are read as Latin-1.
    static func id3Values(_ bytes: ArraySlice<UInt8>, encoding: UInt8) -> [String] {
        switch encoding {
        case 1, 2:
            return splitUTF16(bytes).map { decodeUTF16($0, bigEndianDefault: encoding == 2) }
        case 3:
            return bytes.split(separator: 0, omittingEmptySubsequences: false).map { utf8($0) }
        default:
            return bytes.split(separator: 0, omittingEmptySubsequences: false).map { latin1($0) }
        }
    }

    /// The first value that is not empty after cleaning, or nil.
    static func firstValue(_ values: [String]) -> String? {
        for value in values { if let cleaned = clean(value) { return cleaned } }
        return nil
    }

    /// Splits off the first NUL-terminated string (for TXXX descriptions): the string and the rest.
    static func splitTerminated(_ bytes: ArraySlice<UInt8>, encoding: UInt8) -> (String, ArraySlice<UInt8>) {
        if encoding == 1 || encoding == 2 {
            var index = bytes.startIndex
            while index + 1 < bytes.endIndex {
                if bytes[index] == 0 && bytes[index + 1] == 0 {
                    let head = decodeUTF16(bytes[bytes.startIndex..<index], bigEndianDefault: encoding == 2)
                    return (head, bytes[(index + 2)...])
                }
                index += 2
            }
            return (decodeUTF16(bytes, bigEndianDefault: encoding == 2), bytes[bytes.endIndex...])
        }
        guard let nul = bytes.firstIndex(of: 0) else {
            return (encoding == 3 ? utf8(bytes) : latin1(bytes), bytes[bytes.endIndex...])
        }
        let head = bytes[bytes.startIndex..<nul]
        return (encoding == 3 ? utf8(head) : latin1(head), bytes[(nul + 1)...])
    }

    /// Latin-1 bytes as a string (every byte is one code point).
    static func latin1<C: Collection<UInt8>>(_ bytes: C) -> String {
        var out = ""
        out.unicodeScalars.reserveCapacity(bytes.count)
        for byte in bytes { out.unicodeScalars.append(Unicode.Scalar(byte)) }
        return out
    }

    /// UTF-8 bytes as a string, invalid sequences replaced with U+FFFD.
    static func utf8<C: Collection<UInt8>>(_ bytes: C) -> String { String(decoding: bytes, as: UTF8.self) }

    /// Splits UTF-16 text at 2-byte-aligned NUL pairs.
    private static func splitUTF16(_ bytes: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        var parts: [ArraySlice<UInt8>] = []
        var start = bytes.startIndex
        var index = bytes.startIndex
        while index + 1 < bytes.endIndex {
            if bytes[index] == 0 && bytes[index + 1] == 0 {
                parts.append(bytes[start..<index])
                start = index + 2
            }
            index += 2
        }
        parts.append(bytes[start..<bytes.endIndex])
        return parts
    }

    /// Decodes UTF-16 honouring a BOM; without one, big-endian if `bigEndianDefault`, else little-endian
    /// (what broken taggers write). A trailing odd byte is dropped; bad surrogates become U+FFFD.
    private static func decodeUTF16(_ bytes: ArraySlice<UInt8>, bigEndianDefault: Bool) -> String {
        var bigEndian = bigEndianDefault
        var index = bytes.startIndex
        if index + 1 < bytes.endIndex {
            if bytes[index] == 0xFF && bytes[index + 1] == 0xFE {
                bigEndian = false
                index += 2
            } else if bytes[index] == 0xFE && bytes[index + 1] == 0xFF {
                bigEndian = true
                index += 2
            }
        }
        var units: [UInt16] = []
        units.reserveCapacity((bytes.endIndex - index) / 2)
        while index + 1 < bytes.endIndex {
            let a = UInt16(bytes[index])
            let b = UInt16(bytes[index + 1])
            units.append(bigEndian ? (a << 8 | b) : (b << 8 | a))
            index += 2
        }
        return String(decoding: units, as: UTF16.self)
    }

    // MARK: - Cleaning

    /// Strips trailing NULs (and, when `trimSpaces`, trailing spaces); nil when nothing but
    /// whitespace is left. Text is otherwise kept as the tag holds it.
    static func clean(_ text: String, trimSpaces: Bool = false) -> String? {
        var scalars = Substring(text).unicodeScalars
        while let last = scalars.last, last == "\0" || (trimSpaces && last == " ") { scalars.removeLast() }
        let result = String(scalars)
        if result.unicodeScalars.allSatisfy({ $0.properties.isWhitespace || $0 == "\0" }) { return nil }
        return result
    }

    /// A chapter's title as the player keeps it: cleaned as every tag value is (`clean`), then cut to
    /// `Chapter.maxTitleBytes` of UTF-8 at a character boundary (a single character longer than that, as a
    /// letter with thousands of combining marks, is cut at a scalar boundary). nil when nothing is left.
    static func chapterTitle(_ text: String) -> String? {
        guard let cleaned = clean(text) else { return nil }
        let limit = Chapter.maxTitleBytes
        guard cleaned.utf8.count > limit else { return cleaned }
        var end = cleaned.startIndex
        var used = 0
        for character in cleaned {
            used += character.utf8.count
            if used > limit { break }
            end = cleaned.index(after: end)
        }
        if end == cleaned.startIndex {
            var scalars = String.UnicodeScalarView()
            var bytes = 0
            for scalar in cleaned.unicodeScalars {
                bytes += UTF8.width(scalar)
                if bytes > limit { break }
                scalars.append(scalar)
            }
            return clean(String(scalars))
        }
        return clean(String(cleaned[..<end]))
    }

    // MARK: - Numbers

    /// "n" or "n/total" (spaces tolerated) as two optional positive integers.
    static func numberPair(_ text: String) -> (Int?, Int?) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        let first = parts.first.flatMap { leadingInt($0) }
        let second = parts.count > 1 ? leadingInt(parts[1]) : nil
        return (first.flatMap { $0 > 0 ? $0 : nil }, second.flatMap { $0 > 0 ? $0 : nil })
    }

    /// The year from the first four digits of a date ("2003", "2003-05-01", "2003-05-01T10:00").
    static func year(_ text: String) -> Int? {
        let digits = text.utf8.drop { $0 == UInt8(ascii: " ") }.prefix(4)
        guard digits.count == 4, digits.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        let value = digits.reduce(0) { $0 * 10 + Int($1 - 48) }
        return value > 0 ? value : nil
    }

    /// A decimal number at the start of `text` ("-6.50 dB", "+1.2", "0.988"), or nil.
    static func leadingDouble(_ text: String) -> Double? {
        var chars = Substring(text).drop { $0 == " " }
        var prefix = ""
        if let sign = chars.first, sign == "+" || sign == "-" {
            if sign == "-" { prefix = "-" }
            chars = chars.dropFirst()
        }
        let number = chars.prefix { $0.isASCII && ($0.isNumber || $0 == "." || $0 == ",") }
        guard !number.isEmpty, number.contains(where: { $0.isNumber }) else { return nil }
        guard let value = Double(prefix + String(number.map { $0 == "," ? "." : $0 })), value.isFinite else {
            return nil
        }
        return value
    }

    /// A non-negative integer at the start of `text` (leading spaces skipped), capped to avoid overflow.
    static func leadingInt<S: StringProtocol>(_ text: S) -> Int? {
        let digits = text.utf8.drop { $0 == UInt8(ascii: " ") }.prefix { $0 >= 48 && $0 <= 57 }
        guard !digits.isEmpty, digits.count <= 9 else { return nil }
        return digits.reduce(0) { $0 * 10 + Int($1 - 48) }
    }
}
