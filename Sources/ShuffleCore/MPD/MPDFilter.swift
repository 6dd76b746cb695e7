/// An MPD filter expression (`find`, `search`, `list`, `count`, `playlistfind`...): `(TAG == 'VALUE')`,
/// `(TAG != 'VALUE')`, `(TAG contains 'VALUE')`, `(TAG starts_with 'VALUE')`, `(base 'PATH')`,
/// `(!EXPR)` and `(EXPR AND EXPR ...)`, where TAG is a tag name, `file` or `any`. Values are quoted with
/// `'` or `"`, a backslash making the next character literal.
public indirect enum MPDFilter: Equatable, Sendable {
    /// How a tag's value is compared.
    public enum Operator: String, Equatable, Sendable {
        /// `==`.
        case equals = "=="
        /// `!=`.
        case notEquals = "!="
        /// `contains`.
        case contains
        /// `starts_with`.
        case startsWith = "starts_with"
    }

    /// `(FIELD OP 'VALUE')`; FIELD is `any`, `file` or a tag's lower-case name.
    case compare(field: String, Operator, String)
    /// `(base 'PATH')`: songs in that folder, at any depth.
    case base(String)
    /// `(!EXPR)`.
    case not(MPDFilter)
    /// `(EXPR AND EXPR ...)`.
    case and([MPDFilter])

    /// Parses one expression (the whole argument).
    public static func parse(_ text: String) throws(MPDError) -> MPDFilter {
        var parser = Parser(Array(text.unicodeScalars))
        let filter = try parser.expression()
        parser.skipBlanks()
        guard parser.atEnd else { throw MPDError(.argument, "Unparsed garbage after expression") }
        return filter
    }

    /// Whether `song` matches; `foldCase` (the `search` commands) compares case-insensitively.
    public func matches(_ song: SongInfo, foldCase: Bool) -> Bool {
        switch self {
        case .compare(let field, let op, let wanted):
            let values: [String?]
            switch field {
            case "any": values = [song.path] + MPDTag.allCases.map { song.tag($0) }
            case "file": values = [song.path]
            default: values = [MPDTag(named: field).flatMap { song.tag($0) }]
            }
            let needle = foldCase ? wanted.lowercased() : wanted
            let found = values.contains { value in
                guard let value else { return op == .equals && needle.isEmpty }
                let hay = foldCase ? value.lowercased() : value
                switch op {
                case .equals, .notEquals: return hay == needle
                case .contains: return hay.contains(needle)
                case .startsWith: return hay.hasPrefix(needle)
                }
            }
            return op == .notEquals ? !found : found
        case .base(let folder):
            let trimmed = folder.hasSuffix("/") ? String(folder.dropLast()) : folder
            return trimmed.isEmpty || song.path.hasPrefix(trimmed + "/")
        case .not(let inner):
            return !inner.matches(song, foldCase: foldCase)
        case .and(let all):
            return all.allSatisfy { $0.matches(song, foldCase: foldCase) }
        }
    }

    private struct Parser {
        let scalars: [Unicode.Scalar]
        var index = 0

        init(_ scalars: [Unicode.Scalar]) { self.scalars = scalars }

        var atEnd: Bool { index >= scalars.count }

        mutating func skipBlanks() {
            while index < scalars.count, scalars[index] == " " || scalars[index] == "\t" { index += 1 }
        }

        mutating func expect(_ scalar: Unicode.Scalar) throws(MPDError) {
            skipBlanks()
            guard index < scalars.count, scalars[index] == scalar else {
                throw MPDError(.argument, "'\(scalar)' expected in filter expression")
            }
            index += 1
        }

        mutating func word() -> String {
            skipBlanks()
            var out = ""
            while index < scalars.count {
                let scalar = scalars[index]
                guard
                    scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                        || "_-=!~".unicodeScalars.contains(scalar)
                else { break }
                out.unicodeScalars.append(scalar)
                index += 1
            }
            return out
        }

        mutating func quoted() throws(MPDError) -> String {
            skipBlanks()
            guard index < scalars.count, scalars[index] == "'" || scalars[index] == "\"" else {
                throw MPDError(.argument, "quoted string expected in filter expression")
            }
            let quote = scalars[index]
            index += 1
            if let text = MPDRequest.readQuoted(scalars, &index, until: quote) { return text }
            throw MPDError(.argument, "closing quote not found in filter expression")
        }

        mutating func expression() throws(MPDError) -> MPDFilter {
            try expect("(")
            skipBlanks()
            guard index < scalars.count else { throw MPDError(.argument, "unexpected end of filter expression") }
            if scalars[index] == "!" {
                index += 1
                let inner = try expression()
                try expect(")")
                return .not(inner)
            }
            if scalars[index] == "(" {
                var parts = [try expression()]
                while true {
                    skipBlanks()
                    if index < scalars.count, scalars[index] == ")" {
                        index += 1
                        return parts.count == 1 ? parts[0] : .and(parts)
                    }
                    guard word() == "AND" else { throw MPDError(.argument, "'AND' expected in filter expression") }
                    parts.append(try expression())
                }
            }
            let field = word().lowercased()
            guard !field.isEmpty else { throw MPDError(.argument, "tag name expected in filter expression") }
            if field == "base" {
                let folder = try quoted()
                try expect(")")
                return .base(folder)
            }
            guard field == "any" || field == "file" || MPDTag(named: field) != nil else {
                throw MPDError(.argument, "Unknown filter type: \(field)")
            }
            let name = word()
            guard let op = Operator(rawValue: name) else {
                throw MPDError(.argument, "unknown filter operator '\(name)' (use ==, !=, contains or starts_with)")
            }
            let value = try quoted()
            try expect(")")
            return .compare(field: field, op, value)
        }
    }
}
