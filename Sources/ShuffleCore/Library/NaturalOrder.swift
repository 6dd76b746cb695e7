/// File names in the order a person numbers them: runs of digits compare as numbers ("2" before "10",
/// "Part 9" before "Part 10"), letters of ASCII without regard to case, every other byte as itself. Used
/// for a book's parts, where a name is often all the order there is.
public enum NaturalOrder {
    /// Whether `a` comes before `b`. Equal by this order (`01` and `1`, `A` and `a`), byte order decides,
    /// so that the order is total and the same on every run.
    public static func precedes(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        let compared = compare(a, b)
        return compared != 0 ? compared < 0 : a.lexicographicallyPrecedes(b)
    }

    /// Negative, zero or positive as `a` comes before, with or after `b`.
    public static func compare(_ a: [UInt8], _ b: [UInt8]) -> Int {
        var i = 0
        var j = 0
        while i < a.count && j < b.count {
            if isDigit(a[i]) && isDigit(b[j]) {
                // Leading zeros do not count; then the longer run is the larger number, else digit by digit.
                var startA = i
                var startB = j
                while i < a.count && isDigit(a[i]) { i += 1 }
                while j < b.count && isDigit(b[j]) { j += 1 }
                while startA < i - 1 && a[startA] == UInt8(ascii: "0") { startA += 1 }
                while startB < j - 1 && b[startB] == UInt8(ascii: "0") { startB += 1 }
                let lengthA = i - startA
                let lengthB = j - startB
                if lengthA != lengthB { return lengthA - lengthB }
                for k in 0..<lengthA where a[startA + k] != b[startB + k] {
                    return Int(a[startA + k]) - Int(b[startB + k])
                }
                continue
            }
            let x = folded(a[i])
            let y = folded(b[j])
            if x != y { return Int(x) - Int(y) }
            i += 1
            j += 1
        }
        return (a.count - i) - (b.count - j)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    private static func folded(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte + 32 : byte }
}
