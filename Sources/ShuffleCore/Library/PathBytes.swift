/// A file path as the bytes the file system holds: names on a USB stick need not be UTF-8.
public struct PathBytes: Hashable, Sendable, Comparable {
    /// The raw bytes, without a trailing NUL.
    public var bytes: [UInt8]

    /// Wraps raw bytes.
    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The UTF-8 bytes of `string`.
    public init(_ string: String) { self.bytes = Array(string.utf8) }

    /// The path for people: valid UTF-8 as is, every byte that is not valid UTF-8 as `\xHH`.
    public var display: String {
        // Almost every path: one string of exactly its bytes. (Built piece by piece below, a string grows by
        // doubling and keeps up to twice the bytes; the daemon holds 10,000 of these in its listing.)
        if let valid = String(validating: bytes, as: UTF8.self) { return valid }
        var out = ""
        var index = 0
        while index < bytes.count {
            let length = Self.validSequenceLength(bytes, at: index)
            if length > 0 {
                out += String(decoding: bytes[index..<index + length], as: UTF8.self)
                index += length
            } else {
                let hex = String(bytes[index], radix: 16, uppercase: true)
                out += "\\x" + (hex.count == 1 ? "0" : "") + hex
                index += 1
            }
        }
        return out
    }

    /// Whether the bytes are valid UTF-8.
    public var isValidUTF8: Bool { String(validating: bytes, as: UTF8.self) != nil }

    /// Joins `self` and a relative path with one `/`.
    public func appending(_ relative: PathBytes) -> PathBytes {
        if bytes.isEmpty { return relative }
        let slash = bytes.last != UInt8(ascii: "/")
        // Sized exactly: `a + b + c` grows the buffer by doubling and keeps up to twice the bytes, which
        // adds up over the 10,000 absolute paths of a catalog.
        var joined: [UInt8] = []
        joined.reserveCapacity(bytes.count + (slash ? 1 : 0) + relative.bytes.count)
        joined.append(contentsOf: bytes)
        if slash { joined.append(UInt8(ascii: "/")) }
        joined.append(contentsOf: relative.bytes)
        return PathBytes(joined)
    }

    /// The path as a NUL-terminated C string, for `open(2)` and friends: pass it where a C function takes a
    /// `const char *` (Swift lends the array's storage for the call). No pointer escapes this type.
    public var cString: [CChar] { bytes.map { CChar(bitPattern: $0) } + [0] }

    /// Byte order, so sorting is the same whatever the locale.
    public static func < (lhs: PathBytes, rhs: PathBytes) -> Bool { lhs.bytes.lexicographicallyPrecedes(rhs.bytes) }

    /// Length of the valid UTF-8 sequence starting at `index`, or 0 when the byte there starts none.
    static func validSequenceLength(_ bytes: [UInt8], at index: Int) -> Int {
        let lead = bytes[index]
        let length: Int
        switch lead {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return 0
        }
        guard index + length <= bytes.count else { return 0 }
        return String(validating: bytes[index..<index + length], as: UTF8.self) != nil ? length : 0
    }
}
