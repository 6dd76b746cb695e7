/// A board file that cannot be used: names the file, the line (when there is one) and the problem.
public struct BoardFileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file as the user named it.
    public var file: String
    /// The 1-based line, or nil for a problem with the whole file (no buttons at all).
    public var line: Int?
    /// What is wrong and, where it helps, what would be right.
    public var problem: String

    /// Creates an error.
    public init(file: String, line: Int?, problem: String) {
        self.file = file
        self.line = line
        self.problem = problem
    }

    /// "board/rpi4/board.conf:12: unknown button 'vol-up' (buttons are play, next, ...)".
    public var description: String {
        if let line { return "\(file):\(line): \(problem)" }
        return "\(file): \(problem)"
    }
}
