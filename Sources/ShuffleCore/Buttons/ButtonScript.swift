/// Recorded button edges, one per line as `MILLISECONDS BUTTON press|release`, for
/// `shufflebox buttons --script` and tests. Blank lines and `#` comments are allowed; times must
/// not go backwards.
public enum ButtonScript {
    /// Parses `text`, naming `file` in errors. With `board`, a button the board lacks is an error.
    public static func parse(_ text: String, file: String, board: BoardConfig? = nil) throws(BoardFileError)
        -> [ButtonEdge]
    {
        var edges: [ButtonEdge] = []
        var lineNumber = 0
        for rawLine in ConfigParser.lines(text) {
            lineNumber += 1
            let line = SectionReader.stripComment(rawLine).trimmingSpaces()
            if line.isEmpty || line.hasPrefix("#") { continue }
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            func fail(_ problem: String) -> BoardFileError {
                BoardFileError(file: file, line: lineNumber, problem: problem)
            }
            guard words.count == 3 else {
                throw fail("expected 'MILLISECONDS BUTTON press|release', found '\(line)'")
            }
            guard words[0].allSatisfy(\.isASCIIDigit), words[0].count <= 12, let ms = Int64(words[0]) else {
                throw fail("bad time '\(words[0])' (whole milliseconds, for example 1200)")
            }
            guard let button = ButtonName(rawValue: words[1]) else {
                throw fail("unknown button '\(words[1])' (buttons are \(ButtonName.list))")
            }
            if let board, board.settings(for: button) == nil {
                let names = board.buttons.map(\.name.rawValue).joined(separator: ", ")
                throw fail("board \(board.name) has no button \(button.rawValue) (it has \(names))")
            }
            guard let kind = ButtonEdge.Kind(rawValue: words[2]) else {
                throw fail("unknown edge '\(words[2])' (press or release)")
            }
            let time = Duration.milliseconds(ms)
            if let last = edges.last, time < last.time {
                throw fail("time goes backwards: \(ms) after \(DurationText.milliseconds(last.time))")
            }
            edges.append(ButtonEdge(button, kind, at: time))
        }
        return edges
    }
}
