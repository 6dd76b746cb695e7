/// An answer written as bytes: `key: value` lines written in place, numbers written digit by digit.
///
/// A song list is the largest thing the control socket sends (tens of megabytes of lines for a big stick's
/// `playlistinfo`), written on the event loop's thread. Every line goes through `LineCursor` straight into the
/// answer's memory: no capacity check per byte, no call per key or tag, no scratch page copied over
/// (`ShuffleboxBench` measures it).
public struct MPDWriter: Sendable {
    /// The answer, then room the next lines are written into (zeros, or the bytes of an answer removed).
    private var storage: [UInt8] = []
    /// How many bytes of `storage` are the answer.
    public private(set) var count = 0

    /// An empty answer with room for `capacity` bytes.
    public init(capacity: Int = 0) { storage.reserveCapacity(capacity) }

    /// The answer so far (UTF-8).
    public var bytes: ArraySlice<UInt8> { storage[..<count] }

    /// Empties the answer, keeping its memory for the next.
    public mutating func removeAll() { count = 0 }

    /// The answer as text.
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Lines `body` writes straight into the answer's memory, `most` bytes of them at the very most: a song
    /// list's caller works out that bound from its values' lengths (`SongList.write`).
    mutating func write(atMost most: Int, _ body: (inout LineCursor) -> Void) {
        let room = storage.count - count
        // Room is made a few KiB at a time (the array's capacity still doubles), so memory is touched only
        // as far as the answer goes.
        if room < most { storage.append(contentsOf: repeatElement(0, count: max(most - room, 4_096))) }
        let start = count
        let written = storage.withUnsafeMutableBufferPointer { buffer in
            var cursor = LineCursor(buffer.baseAddress! + start)
            body(&cursor)
            return cursor.count
        }
        // Past the room: memory after the answer's was written over. Never, by each caller's bound; a stop,
        // should a bound be wrong, rather than a daemon carrying on with a broken heap.
        precondition(written <= most, "MPDWriter: \(written) bytes written where at most \(most) were allowed")
        count += written
    }

    /// `key: value\n`; a newline or carriage return inside the value (a hostile tag) becomes a space, so a
    /// tag can never forge a line of the protocol.
    public mutating func line(_ key: String, _ value: String) {
        var value = value
        value.withUTF8 { line(key, bytes: $0) }
    }

    /// `key: value\n` for a value's UTF-8 bytes, line breaks made spaces as above.
    public mutating func line(_ key: String, bytes value: UnsafeBufferPointer<UInt8>) {
        line(key, atMost: value.count) { $0.value(value) }
    }

    /// `key: number\n`.
    public mutating func line(_ key: String, _ value: Int64) {
        line(key, atMost: 20) { $0.decimal(value) }
    }

    /// `key: S.mmm\n`: milliseconds as MPD writes seconds (`duration`, `elapsed`); negative is 0.
    public mutating func line(_ key: String, milliseconds: Int64) {
        line(key, atMost: 24) { $0.seconds(milliseconds: milliseconds) }
    }

    /// `key: 2024-03-09T17:05:00Z\n` for `seconds` since 1970 (MPD's `Last-Modified`, ISO 8601, UTC); see
    /// `LineCursor.timestamp`.
    public mutating func line(_ key: String, utc seconds: Int64) {
        line(key, atMost: LineCursor.timestampLength) { $0.timestamp(seconds) }
    }

    /// `key: `, what `body` writes (at most `most` bytes), a newline.
    private mutating func line(_ key: String, atMost most: Int, _ body: (inout LineCursor) -> Void) {
        var key = key
        key.withUTF8 { key in
            write(atMost: key.count + most + 3) { lines in
                lines.copy(key)
                lines.put(0x3A)
                lines.put(0x20)
                body(&lines)
                lines.put(0x0A)
            }
        }
    }

    /// Appends text as it is.
    public mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { append(bytes: $0) }
    }

    /// Appends bytes as they are.
    public mutating func append(bytes more: some Collection<UInt8>) {
        let done: Void? = more.withContiguousStorageIfAvailable { more in
            write(atMost: more.count) { $0.copy(more) }
        }
        if done == nil { append(bytes: Array(more)) }
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
}

/// Lines written straight into memory sized beforehand (`MPDWriter.write(atMost:)`): no capacity or
/// uniqueness check per byte, and a key or a tag (a few bytes to a few dozen) copied a word at a time rather
/// than by a call of `memmove`. Values get `MPDWriter.line`'s treatment (a line break becomes a space).
struct LineCursor {
    let base: UnsafeMutablePointer<UInt8>
    private(set) var count = 0

    init(_ base: UnsafeMutablePointer<UInt8>) { self.base = base }

    /// `key` (with its `: `) as it is.
    mutating func key(_ key: StaticString) {
        _ = copy(UnsafeRawPointer(key.utf8Start), key.utf8CodeUnitCount)
    }

    /// `key` and `value`, then a newline (`breaks`: whether the value may hold a line break, which becomes
    /// a space; false when the caller has looked).
    mutating func line(_ key: StaticString, _ value: UnsafeBufferPointer<UInt8>, breaks: Bool = true) {
        self.key(key)
        self.value(value, breaks: breaks)
        put(0x0A)
    }

    /// `key` and a number, then a newline.
    mutating func line(_ key: StaticString, _ value: Int64) {
        self.key(key)
        decimal(value)
        put(0x0A)
    }

    /// `key`, `timestamp(seconds)`, then a newline.
    mutating func line(_ key: StaticString, utc seconds: Int64) {
        self.key(key)
        timestamp(seconds)
        put(0x0A)
    }

    /// `key`, `seconds(milliseconds:)`, then a newline.
    mutating func line(_ key: StaticString, milliseconds: Int64) {
        self.key(key)
        seconds(milliseconds: milliseconds)
        put(0x0A)
    }

    /// `value`'s bytes, a newline or carriage return in it made a space (unless the caller found none:
    /// `breaks` false).
    mutating func value(_ value: UnsafeBufferPointer<UInt8>, breaks: Bool = true) {
        guard let start = value.baseAddress, value.count > 0 else { return }
        let first = count
        if copy(UnsafeRawPointer(start), value.count) && breaks {
            for index in first..<count where base[index] == 0x0A || base[index] == 0x0D { base[index] = 0x20 }
        }
    }

    /// Bytes as they are.
    mutating func copy(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let start = bytes.baseAddress else { return }
        _ = copy(UnsafeRawPointer(start), bytes.count)
    }

    /// Copies `length` bytes from `source` and says whether any of them may be below 0x0E (a tab, a line
    /// break: then each is looked at). Up to 64 bytes a word at a time, the last word overlapping the one
    /// before (so nothing past `length` is read or written); longer runs by `memmove`, then looked at.
    @inline(__always)
    mutating func copy(_ source: UnsafeRawPointer, _ length: Int) -> Bool {
        let target = UnsafeMutableRawPointer(base + count)
        count += length
        if length > 64 {
            target.copyMemory(from: source, byteCount: length)
            return Self.mayHoldBreak(UnsafeRawBufferPointer(start: source, count: length))
        }
        if length >= 8 {
            var low: UInt64 = 0
            var offset = 0
            while offset < length {
                let at = min(offset, length - 8)
                let word = source.loadUnaligned(fromByteOffset: at, as: UInt64.self)
                target.storeBytes(of: word, toByteOffset: at, as: UInt64.self)
                low |= (word &- 0x0E0E_0E0E_0E0E_0E0E) & ~word
                offset += 8
            }
            return low & 0x8080_8080_8080_8080 != 0
        }
        if length >= 4 {
            let head = source.loadUnaligned(as: UInt32.self)
            let tail = source.loadUnaligned(fromByteOffset: length - 4, as: UInt32.self)
            target.storeBytes(of: head, as: UInt32.self)
            target.storeBytes(of: tail, toByteOffset: length - 4, as: UInt32.self)
            let low = ((head &- 0x0E0E_0E0E) & ~head) | ((tail &- 0x0E0E_0E0E) & ~tail)
            return low & 0x8080_8080 != 0
        }
        var low = false
        for offset in 0..<length {
            let byte = source.load(fromByteOffset: offset, as: UInt8.self)
            target.storeBytes(of: byte, toByteOffset: offset, as: UInt8.self)
            low = low || byte < 0x0E
        }
        return low
    }

    mutating func put(_ byte: UInt8) {
        base[count] = byte
        count += 1
    }

    /// Two digits of `value` (0 to 99).
    mutating func twoDigits(_ value: Int64) {
        base[count] = 0x30 + UInt8(truncatingIfNeeded: value / 10)
        base[count + 1] = 0x30 + UInt8(truncatingIfNeeded: value % 10)
        count += 2
    }

    /// The most `timestamp` writes: a year of 7 digits and its sign, and the 16 bytes after it.
    static let timestampLength = 24

    /// `2024-03-09T17:05:00Z` for `seconds` since 1970 (MPD's `Last-Modified`, ISO 8601, UTC). Days become a
    /// civil date by Howard Hinnant's `civil_from_days` (`MPDWriter.civil`), exact for any date in the
    /// proleptic Gregorian calendar; a stick's absurd timestamps (FAT holds neither years before 1980 nor
    /// after 2107) print as they are.
    mutating func timestamp(_ seconds: Int64) {
        let (year, month, day, second) = MPDWriter.civil(seconds)
        if year >= 0 && year < 10_000 {
            twoDigits(year / 100)
            twoDigits(year % 100)
        } else {
            decimal(year, width: year >= 0 ? 4 : 1)
        }
        put(0x2D)
        twoDigits(month)
        put(0x2D)
        twoDigits(day)
        put(0x54)
        twoDigits(second / 3_600)
        put(0x3A)
        twoDigits(second / 60 % 60)
        put(0x3A)
        twoDigits(second % 60)
        put(0x5A)
    }

    /// Milliseconds as seconds with three decimals (MPD's `duration`, `elapsed`); negative is 0.
    mutating func seconds(milliseconds: Int64) {
        let ms = max(0, milliseconds)
        decimal(ms / 1000)
        put(0x2E)
        let fraction = ms % 1000
        put(0x30 + UInt8(truncatingIfNeeded: fraction / 100))
        twoDigits(fraction % 100)
    }

    /// `value` in decimal, at least `width` digits (zeros in front), two digits per division.
    mutating func decimal(_ value: Int64, width: Int = 1) {
        if value < 0 { put(0x2D) }
        // The magnitude as unsigned, so that Int64.min has one too.
        var rest = value.magnitude
        var digits = 1
        var scale: UInt64 = 10
        while digits < 20 && rest >= scale {
            digits += 1
            scale = scale &* 10
        }
        digits = max(digits, min(width, 20))
        let end = count + digits
        var index = end
        while rest >= 100 {
            let pair = rest % 100
            rest /= 100
            index -= 2
            base[index] = 0x30 + UInt8(truncatingIfNeeded: pair / 10)
            base[index + 1] = 0x30 + UInt8(truncatingIfNeeded: pair % 10)
        }
        repeat {
            index -= 1
            base[index] = 0x30 + UInt8(truncatingIfNeeded: rest % 10)
            rest /= 10
        } while rest > 0
        while index > count {
            index -= 1
            base[index] = 0x30
        }
        count = end
    }

    /// Whether any byte of `value` is below 0x0E (a tab, a line break: then each is looked at), eight at a
    /// time.
    static func mayHoldBreak(_ value: UnsafeRawBufferPointer) -> Bool {
        guard let raw = value.baseAddress else { return false }
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
