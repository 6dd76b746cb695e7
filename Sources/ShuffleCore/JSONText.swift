/// Minimal JSON output for the `--json` modes: one object per line, keys in the order given.
public enum JSONText {
    /// A JSON value.
    public indirect enum Value: Sendable, Equatable {
        case string(String)
        case int(Int64)
        case double(Double)
        case bool(Bool)
        case null
        case object([(String, Value)])
        case array([Value])

        public static func == (lhs: Value, rhs: Value) -> Bool { render(lhs) == render(rhs) }
    }

    /// A string value, or null when nil.
    public static func string(_ text: String?) -> Value { text.map { .string($0) } ?? .null }
    /// A number value, or null when nil.
    public static func int<I: BinaryInteger>(_ number: I?) -> Value { number.map { .int(Int64($0)) } ?? .null }

    /// Renders `value` on one line.
    public static func render(_ value: Value) -> String {
        var out = ""
        write(value, to: &out)
        return out
    }

    private static func write(_ value: Value, to out: inout String) {
        switch value {
        case .string(let text): quote(text, to: &out)
        case .int(let number): out += String(number)
        case .double(let number): out += number.isFinite ? String(number) : "null"
        case .bool(let flag): out += flag ? "true" : "false"
        case .null: out += "null"
        case .array(let items):
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += "," }
                write(item, to: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (index, (key, item)) in members.enumerated() {
                if index > 0 { out += "," }
                quote(key, to: &out)
                out += ":"
                write(item, to: &out)
            }
            out += "}"
        }
    }

    /// Appends `text` as a JSON string literal, escaping quotes, backslashes and control characters.
    public static func quote(_ text: String, to out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
