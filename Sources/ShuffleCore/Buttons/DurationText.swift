/// Durations as board files and scripts write them: `20ms`, `1.5s`, `2s`.
public enum DurationText {
    /// Parses `text` as a whole number of milliseconds with `ms`, or a decimal number of seconds
    /// with `s` (at most three decimals). Returns nil for anything else, negative values included.
    public static func parse(_ text: String) -> Duration? {
        let trimmed = text.filter { $0 != " " }
        if trimmed.hasSuffix("ms") {
            let digits = trimmed.dropLast(2)
            guard !digits.isEmpty, digits.count <= 9, digits.allSatisfy(\.isASCIIDigit), let ms = Int64(digits) else {
                return nil
            }
            return .milliseconds(ms)
        }
        if trimmed.hasSuffix("s") {
            let number = trimmed.dropLast()
            let parts = number.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 1 || parts.count == 2, let whole = parts.first, !whole.isEmpty,
                whole.count <= 6, whole.allSatisfy(\.isASCIIDigit), let seconds = Int64(whole)
            else { return nil }
            var ms = seconds * 1000
            if parts.count == 2 {
                let fraction = parts[1]
                guard !fraction.isEmpty, fraction.count <= 3, fraction.allSatisfy(\.isASCIIDigit),
                    let value = Int64(fraction)
                else { return nil }
                var scale: Int64 = 1
                for _ in fraction.count..<3 { scale *= 10 }
                ms += value * scale
            }
            return .milliseconds(ms)
        }
        return nil
    }

    /// Whole milliseconds in `duration`, rounded toward negative infinity.
    public static func milliseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        let ms = attoseconds / 1_000_000_000_000_000
        let rounded = attoseconds < 0 && attoseconds % 1_000_000_000_000_000 != 0 ? ms - 1 : ms
        return seconds * 1000 + rounded
    }

    /// `duration` the way a board file writes it: "20ms", "1.5s", "2s".
    public static func format(_ duration: Duration) -> String {
        let ms = milliseconds(duration)
        if ms >= 1000 && ms % 100 == 0 {
            return ms % 1000 == 0 ? "\(ms / 1000)s" : "\(ms / 1000).\((ms % 1000) / 100)s"
        }
        return "\(ms)ms"
    }
}

extension Character {
    /// Whether this is one of the ASCII digits 0-9.
    var isASCIIDigit: Bool { ("0"..."9").contains(self) && isASCII }
}
