import ShuffleCore

/// The escapes of manifest fields: `\\`, `\t`, `\n`, `\r`, and `\xHH` for a byte that is not valid UTF-8
/// or is a control character. Everything else is UTF-8 text.
public enum ManifestEscapes {
    /// The bytes a field stands for.
    public static func decode(_ field: String, line: Int = 0) throws -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(field.utf8.count)
        let utf8 = Array(field.utf8)
        var index = 0
        while index < utf8.count {
            let byte = utf8[index]
            guard byte == UInt8(ascii: "\\") else {
                out.append(byte)
                index += 1
                continue
            }
            guard index + 1 < utf8.count else {
                throw ManifestError(line: line, message: "a lone backslash ends \"\(field)\"")
            }
            switch utf8[index + 1] {
            case UInt8(ascii: "\\"): out.append(UInt8(ascii: "\\"))
            case UInt8(ascii: "t"): out.append(9)
            case UInt8(ascii: "n"): out.append(10)
            case UInt8(ascii: "r"): out.append(13)
            case UInt8(ascii: "x"):
                guard index + 3 < utf8.count, let high = hexValue(utf8[index + 2]), let low = hexValue(utf8[index + 3])
                else { throw ManifestError(line: line, message: "a \\x escape needs two hex digits in \"\(field)\"") }
                out.append(high << 4 | low)
                index += 4
                continue
            default:
                throw ManifestError(line: line, message: "unknown escape in \"\(field)\"")
            }
            index += 2
        }
        return out
    }

    /// The manifest form of a path's bytes (what the generators write).
    public static func encode(_ path: PathBytes) -> String {
        var out = ""
        var index = 0
        let bytes = path.bytes
        while index < bytes.count {
            let length = validLength(bytes, at: index)
            if length == 0 {
                out += hex(bytes[index])
                index += 1
                continue
            }
            let scalarText = String(decoding: bytes[index..<index + length], as: UTF8.self)
            switch bytes[index] {
            case UInt8(ascii: "\\"): out += "\\\\"
            case 9: out += "\\t"
            case 10: out += "\\n"
            case 13: out += "\\r"
            case 0..<0x20, 0x7F: out += hex(bytes[index])
            default: out += scalarText
            }
            index += length
        }
        return out
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return "\\x" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 15)])
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Length of the valid UTF-8 sequence at `index`, or 0.
    private static func validLength(_ bytes: [UInt8], at index: Int) -> Int {
        let length: Int
        switch bytes[index] {
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
