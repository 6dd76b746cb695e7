/// An answer written as bytes: `key: value` lines appended in place, numbers written digit by digit.
///
/// A song list is the largest thing the control socket sends (a 100,000-track `playlistinfo` is some 25 MB of
/// lines): built with `String` appends, `String(Int)` and interpolated timestamps it took about 9 µs a song on
/// the event loop's thread; here a song is a run of byte copies into one buffer.
public struct MPDWriter: Sendable {
    /// The answer so far (UTF-8).
    public private(set) var bytes: [UInt8] = []

    /// An empty answer with room for `capacity` bytes.
    public init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    /// Empties the answer, keeping its memory for the next.
    public mutating func removeAll() { bytes.removeAll(keepingCapacity: true) }

    /// The answer as text.
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// `key: value\n`; a newline or carriage return inside the value (a hostile tag) becomes a space, so a
    /// tag can never forge a line of the protocol.
    public mutating func line(_ key: String, _ value: String) {
        var value = value
        value.withUTF8 { line(key, bytes: $0) }
    }

    /// `key: value\n` for a value's UTF-8 bytes, line breaks made spaces as above.
    public mutating func line(_ key: String, bytes value: UnsafeBufferPointer<UInt8>) {
        append(key)
        bytes.append(0x3A)
        bytes.append(0x20)
        let start = bytes.count
        bytes.append(contentsOf: value)
        if value.contains(where: { $0 == 0x0A || $0 == 0x0D }) {
            for index in start..<bytes.count where bytes[index] == 0x0A || bytes[index] == 0x0D { bytes[index] = 0x20 }
        }
        bytes.append(0x0A)
    }

    /// `key: number\n`.
    public mutating func line(_ key: String, _ value: Int64) {
        append(key)
        bytes.append(0x3A)
        bytes.append(0x20)
        decimal(value)
        bytes.append(0x0A)
    }

    /// `key: S.mmm\n`: milliseconds as MPD writes seconds (`duration`, `elapsed`); negative is 0.
    public mutating func line(_ key: String, milliseconds: Int64) {
        append(key)
        bytes.append(0x3A)
        bytes.append(0x20)
        let ms = max(0, milliseconds)
        decimal(ms / 1000)
        bytes.append(0x2E)
        decimal(ms % 1000, width: 3)
        bytes.append(0x0A)
    }

    /// `key: 2024-03-09T17:05:00Z\n` for `seconds` since 1970 (MPD's `Last-Modified`, ISO 8601, UTC). Days
    /// become a civil date by Howard Hinnant's `civil_from_days`, exact for any date in the proleptic
    /// Gregorian calendar; a stick's absurd timestamps (FAT holds neither years before 1980 nor after 2107)
    /// print as they are.
    public mutating func line(_ key: String, utc seconds: Int64) {
        append(key)
        bytes.append(0x3A)
        bytes.append(0x20)
        let (year, month, day, second) = Self.civil(seconds)
        decimal(year, width: year >= 0 ? 4 : 0)
        bytes.append(0x2D)
        decimal(month, width: 2)
        bytes.append(0x2D)
        decimal(day, width: 2)
        bytes.append(0x54)
        decimal(second / 3_600, width: 2)
        bytes.append(0x3A)
        decimal(second / 60 % 60, width: 2)
        bytes.append(0x3A)
        decimal(second % 60, width: 2)
        bytes.append(0x5A)
        bytes.append(0x0A)
    }

    /// The civil date and the second of its day of `seconds` since 1970, by Howard Hinnant's
    /// `civil_from_days` (clamped to ±2^46 s, far past any date a file can carry).
    static func civil(_ seconds: Int64) -> (year: Int64, month: Int64, day: Int64, second: Int64) {
        let clamped = max(-(1 << 46), min(1 << 46, seconds))
        let days = clamped >= 0 ? clamped / 86_400 : (clamped - 86_399) / 86_400
        let second = clamped - days * 86_400
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shifted = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shifted + 2) / 5 + 1
        let month = shifted < 10 ? shifted + 3 : shifted - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day, second)
    }

    /// Appends text as it is.
    public mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// Appends bytes as they are.
    public mutating func append(bytes more: some Collection<UInt8>) { bytes.append(contentsOf: more) }

    /// `value` in decimal, at least `width` digits (zeros in front).
    mutating func decimal(_ value: Int64, width: Int = 0) {
        if value < 0 { bytes.append(0x2D) }
        // The magnitude as unsigned, so that Int64.min has one too.
        var rest = value.magnitude
        var digits: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)  // 32 bytes: room for 20 digits
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[31 - count] = 0x30 + UInt8(rest % 10)
                rest /= 10
                count += 1
            } while rest > 0
            while count < width && count < 32 {
                buffer[31 - count] = 0x30
                count += 1
            }
            bytes.append(contentsOf: buffer[(32 - count)...])
        }
    }
}

/// Lines written straight into memory sized beforehand (one song's lines, at most `SongLines.capacity`
/// bytes): no capacity or uniqueness check per byte, the way a 100,000-song list is written in a tenth of a
/// second. Values get `MPDWriter.line`'s treatment (a line break becomes a space).
struct LineCursor {
    let base: UnsafeMutablePointer<UInt8>
    private(set) var count = 0

    init(_ base: UnsafeMutablePointer<UInt8>) { self.base = base }

    /// `key` (with its `: `) as it is.
    mutating func key(_ key: StaticString) {
        (base + count).initialize(from: key.utf8Start, count: key.utf8CodeUnitCount)
        count += key.utf8CodeUnitCount
    }

    /// `key` and `value`, then a newline.
    mutating func line(_ key: StaticString, _ value: UnsafeBufferPointer<UInt8>) {
        self.key(key)
        if let start = value.baseAddress, value.count > 0 {
            (base + count).initialize(from: start, count: value.count)
            if Self.mayHoldBreak(value) {
                for index in count..<(count + value.count) where base[index] == 0x0A || base[index] == 0x0D {
                    base[index] = 0x20
                }
            }
            count += value.count
        }
        base[count] = 0x0A
        count += 1
    }

    /// `key` and `value`, then a newline.
    mutating func line(_ key: StaticString, _ value: String) {
        var value = value
        value.withUTF8 { line(key, $0) }
    }

    /// `key` and a number, then a newline.
    mutating func line(_ key: StaticString, _ value: Int64) {
        self.key(key)
        decimal(value)
        base[count] = 0x0A
        count += 1
    }

    /// `key`, `2024-03-09T17:05:00Z` for `seconds` since 1970 (`MPDWriter.line(_:utc:)`), then a newline.
    mutating func line(_ key: StaticString, utc seconds: Int64) {
        self.key(key)
        let (year, month, day, second) = MPDWriter.civil(seconds)
        decimal(year, width: year >= 0 ? 4 : 1)
        put(0x2D)
        decimal(month, width: 2)
        put(0x2D)
        decimal(day, width: 2)
        put(0x54)
        decimal(second / 3_600, width: 2)
        put(0x3A)
        decimal(second / 60 % 60, width: 2)
        put(0x3A)
        decimal(second % 60, width: 2)
        put(0x5A)
        put(0x0A)
    }

    /// `key`, milliseconds as seconds with three decimals (`MPDWriter.line(_:milliseconds:)`), a newline.
    mutating func line(_ key: StaticString, milliseconds: Int64) {
        self.key(key)
        let ms = max(0, milliseconds)
        decimal(ms / 1000)
        put(0x2E)
        decimal(ms % 1000, width: 3)
        put(0x0A)
    }

    mutating func put(_ byte: UInt8) {
        base[count] = byte
        count += 1
    }

    /// `value` in decimal, at least `width` digits.
    mutating func decimal(_ value: Int64, width: Int = 1) {
        if value < 0 {
            base[count] = 0x2D
            count += 1
        }
        var rest = value.magnitude
        var digits = 1
        var scale: UInt64 = 10
        while digits < 20 && rest >= scale {
            digits += 1
            scale = scale &* 10
        }
        digits = max(digits, min(width, 20))
        var index = count + digits - 1
        while index >= count {
            base[index] = 0x30 + UInt8(truncatingIfNeeded: rest % 10)
            rest /= 10
            index -= 1
        }
        count += digits
    }

    /// Whether any byte of `value` is below 0x0E (a tab, a line break: then each is looked at), eight at a
    /// time.
    static func mayHoldBreak(_ value: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let start = value.baseAddress else { return false }
        let raw = UnsafeRawPointer(start)
        var offset = 0
        while offset + 8 <= value.count {
            let word = raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            if (word &- 0x0E0E_0E0E_0E0E_0E0E) & ~word & 0x8080_8080_8080_8080 != 0 { return true }
            offset += 8
        }
        while offset < value.count {
            if value[offset] < 0x0E { return true }
            offset += 1
        }
        return false
    }
}
