/// Fixed-width integers read from bytes a file gave us: every read is bounds-checked and yields nil
/// past the end, so no length or offset taken from a file can trap.
extension Collection where Element == UInt8, Index == Int {
    /// The unsigned big-endian integer of `width` bytes (1...8) at `offset` from the start, or nil.
    func bigEndian(at offset: Int, width: Int) -> UInt64? {
        guard offset >= 0, width > 0, width <= 8, offset <= count - width else { return nil }
        var value: UInt64 = 0
        let base = startIndex + offset
        for index in base..<base + width { value = value << 8 | UInt64(self[index]) }
        return value
    }

    /// The unsigned little-endian integer of `width` bytes (1...8) at `offset` from the start, or nil.
    func littleEndian(at offset: Int, width: Int) -> UInt64? {
        guard offset >= 0, width > 0, width <= 8, offset <= count - width else { return nil }
        var value: UInt64 = 0
        let base = startIndex + offset
        for index in (base..<base + width).reversed() { value = value << 8 | UInt64(self[index]) }
        return value
    }

    /// A big-endian 16-bit value at `offset`, as an Int.
    func u16be(_ offset: Int) -> Int? { bigEndian(at: offset, width: 2).map { Int($0) } }
    /// A big-endian 32-bit value at `offset`, as an Int.
    func u32be(_ offset: Int) -> Int? { bigEndian(at: offset, width: 4).map { Int($0) } }
    /// A little-endian 16-bit value at `offset`, as an Int.
    func u16le(_ offset: Int) -> Int? { littleEndian(at: offset, width: 2).map { Int($0) } }
    /// A little-endian 32-bit value at `offset`, as an Int.
    func u32le(_ offset: Int) -> Int? { littleEndian(at: offset, width: 4).map { Int($0) } }

    /// Whether the bytes at `offset` spell `ascii`.
    /// Allocates nothing: the Ogg tail scan asks this at every byte of its window.
    func matches(_ ascii: String, at offset: Int) -> Bool {
        guard offset >= 0, offset < count else { return false }
        var index = startIndex + offset
        for byte in ascii.utf8 {
            guard index < endIndex, self[index] == byte else { return false }
            index += 1
        }
        return true
    }

    /// The four bytes at `offset` as a four-character code (Latin-1, so `©nam` keeps its ©).
    func fourCC(at offset: Int) -> String? {
        guard offset >= 0, offset <= count - 4 else { return nil }
        return TagText.latin1(self[(startIndex + offset)..<(startIndex + offset + 4)])
    }
}

extension Int64 {
    /// A 64-bit value from a file, or nil when it does not fit a non-negative Int64.
    init?(file value: UInt64) {
        guard value <= UInt64(Int64.max) else { return nil }
        self.init(value)
    }
}
