/// One request line of the MPD protocol: a command name and its arguments.
///
/// Quoting follows MPD's tokenizer: an argument is either a run of non-blank characters, or a
/// `"..."` string in which a backslash makes the next character literal (`\"`, `\\`).
public struct MPDRequest: Equatable, Sendable {
    /// The command name, as sent (MPD command names are lower case).
    public var name: String
    /// The arguments, unquoted.
    public var arguments: [String]

    /// Creates a request.
    public init(name: String, arguments: [String] = []) {
        self.name = name
        self.arguments = arguments
    }

    /// Parses one line (without its newline). The bytes must be UTF-8, as MPD requires.
    public static func parse(_ line: [UInt8]) throws(MPDError) -> MPDRequest {
        guard let text = String(validating: line, as: UTF8.self) else {
            throw MPDError(.argument, "request is not valid UTF-8")
        }
        var scalars = Array(text.unicodeScalars)
        if scalars.last == "\r" { scalars.removeLast() }
        var index = 0
        func skipBlanks() {
            while index < scalars.count, scalars[index] == " " || scalars[index] == "\t" { index += 1 }
        }
        skipBlanks()
        var name = ""
        while index < scalars.count {
            let scalar = scalars[index]
            guard scalar.isASCII, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_"
            else { break }
            name.unicodeScalars.append(scalar)
            index += 1
        }
        guard !name.isEmpty else { throw MPDError(.unknown, "No command given") }
        if index < scalars.count, scalars[index] != " ", scalars[index] != "\t" {
            throw MPDError(.unknown, "Invalid command name")
        }
        var arguments: [String] = []
        while true {
            skipBlanks()
            guard index < scalars.count else { break }
            var argument = ""
            if scalars[index] == "\"" {
                index += 1
                guard let text = Self.readQuoted(scalars, &index, until: "\"") else {
                    throw MPDError(.argument, "Missing closing '\"'")
                }
                argument = text
                if index < scalars.count, scalars[index] != " ", scalars[index] != "\t" {
                    throw MPDError(.argument, "Space expected after closing '\"'")
                }
            } else {
                while index < scalars.count, scalars[index] != " ", scalars[index] != "\t" {
                    if scalars[index] == "\"" { throw MPDError(.argument, "Invalid unquoted character") }
                    argument.unicodeScalars.append(scalars[index])
                    index += 1
                }
            }
            arguments.append(argument)
        }
        return MPDRequest(name: name, arguments: arguments)
    }

    /// Reads a quoted string's body from `index` (just after the opening quote) up to and past the closing
    /// `quote`; a backslash makes the next character literal. Nil when the closing quote is missing.
    static func readQuoted(_ scalars: [Unicode.Scalar], _ index: inout Int, until quote: Unicode.Scalar) -> String? {
        var out = ""
        while index < scalars.count {
            let scalar = scalars[index]
            index += 1
            if scalar == quote { return out }
            if scalar == "\\" {
                guard index < scalars.count else { return nil }
                out.unicodeScalars.append(scalars[index])
                index += 1
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return nil
    }

    /// Quotes `argument` for sending (the client side of the same rules).
    public static func quote(_ argument: String) -> String {
        var out = "\""
        for character in argument {
            if character == "\"" || character == "\\" { out.append("\\") }
            out.append(character)
        }
        return out + "\""
    }
}
