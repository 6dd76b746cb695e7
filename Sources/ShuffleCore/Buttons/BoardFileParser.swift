/// Reads board files: a small INI-like format, documented in `board/README.md`.
///
/// ```
/// [board]
/// name = rpi4
/// chip = pinctrl-bcm2711
///
/// [button play]
/// gpio = 17
/// pin = 11
/// click = play-pause
///
/// [chord lock]
/// buttons = volume-up volume-down
/// hold = 2s
/// action = lock
///
/// [led]
/// name = ACT led0
/// ```
///
/// `#` starts a comment (at the start of a line, or after a space). Settings under `[board]` that
/// also exist per button (bias, active-low and the timings) are defaults for every button.
public enum BoardFileParser {
    /// Parses `text`, naming `file` in errors.
    public static func parse(_ text: String, file: String) throws(BoardFileError) -> BoardConfig {
        var reader = SectionReader(file: file)
        try reader.read(text)
        return try BoardAssembler(file: file, sections: reader.sections).assemble()
    }
}

/// One `key = value` line.
struct Setting: Sendable {
    var key: String
    var value: String
    var line: Int
}

/// One `[kind name]` section and its settings.
struct Section: Sendable {
    var kind: String
    var name: String?
    var line: Int
    var settings: [Setting] = []

    var title: String { name.map { "[\(kind) \($0)]" } ?? "[\(kind)]" }

    func value(_ key: String) -> Setting? { settings.first { $0.key == key } }
}

/// Splits a board file into sections of settings: the syntax, not the meaning.
struct SectionReader {
    let file: String
    var sections: [Section] = []

    mutating func read(_ text: String) throws(BoardFileError) {
        var lineNumber = 0
        for rawLine in ConfigParser.lines(text) {
            lineNumber += 1
            let line = Self.stripComment(rawLine).trimmingSpaces()
            if line.isEmpty { continue }
            if line.hasPrefix("[") {
                try startSection(line, at: lineNumber)
                continue
            }
            guard let equals = line.firstIndex(of: "=") else {
                throw error(lineNumber, "expected 'key = value' or '[section]', found '\(line)'")
            }
            let key = String(line[..<equals]).trimmingSpaces().lowercased()
            let value = String(line[line.index(after: equals)...]).trimmingSpaces()
            guard !key.isEmpty else { throw error(lineNumber, "a setting needs a name before '='") }
            guard !value.isEmpty else { throw error(lineNumber, "'\(key)' has no value") }
            guard !sections.isEmpty else {
                throw error(lineNumber, "'\(key)' is outside any section; start with [board]")
            }
            if let earlier = sections[sections.count - 1].value(key) {
                throw error(
                    lineNumber,
                    "'\(key)' is set twice in \(sections[sections.count - 1].title) (first on line \(earlier.line))")
            }
            sections[sections.count - 1].settings.append(Setting(key: key, value: value, line: lineNumber))
        }
    }

    mutating func startSection(_ line: String, at lineNumber: Int) throws(BoardFileError) {
        guard line.hasSuffix("]") else { throw error(lineNumber, "a section header must end with ']'") }
        let words = line.dropFirst().dropLast().split(separator: " ").map(String.init)
        guard let kind = words.first?.lowercased(), words.count <= 2 else {
            throw error(lineNumber, "expected [board], [button NAME], [chord NAME] or [led], found '\(line)'")
        }
        let section = Section(kind: kind, name: words.count == 2 ? words[1] : nil, line: lineNumber)
        switch (kind, section.name) {
        case ("board", nil), ("led", nil), ("button", _?), ("chord", _?): break
        case ("button", nil), ("chord", nil): throw error(lineNumber, "[\(kind)] needs a name: [\(kind) NAME]")
        default:
            throw error(
                lineNumber, "unknown section '\(line)' (sections are [board], [button NAME], [chord NAME], [led])")
        }
        if let earlier = sections.first(where: { $0.kind == kind && $0.name == section.name }) {
            throw error(lineNumber, "\(section.title) appears twice (first on line \(earlier.line))")
        }
        sections.append(section)
    }

    /// The line without a `#` comment (one that starts the line or follows a space or tab).
    static func stripComment(_ line: Substring) -> Substring {
        var previous: Character = " "
        for index in line.indices {
            if line[index] == "#" && (previous == " " || previous == "\t") { return line[..<index] }
            previous = line[index]
        }
        return line
    }

    func error(_ line: Int, _ problem: String) -> BoardFileError {
        BoardFileError(file: file, line: line, problem: problem)
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces, tabs and carriage returns.
    func trimmingSpaces() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
