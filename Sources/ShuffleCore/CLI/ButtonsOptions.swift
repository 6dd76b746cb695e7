/// Options of `shufflebox buttons [--board NAME | --config FILE] [--raw] [--json] [--script FILE]`.
public struct ButtonsOptions: Equatable, Sendable {
    /// A board name from `board/`.
    public var board: String?
    /// A board file to read instead of a named board.
    public var config: String?
    /// Also print every raw edge.
    public var raw: Bool
    /// One JSON object per line.
    public var json: Bool
    /// Recorded edges to replay instead of hardware.
    public var script: String?
    /// Also say each gesture aloud (button, pin, gesture).
    public var speak: Bool
    /// The ALSA device to speak on.
    public var device: String

    /// Creates the options.
    public init(
        board: String? = nil, config: String? = nil, raw: Bool = false, json: Bool = false, script: String? = nil,
        speak: Bool = false, device: String = "default"
    ) {
        self.speak = speak
        self.device = device
        self.board = board
        self.config = config
        self.raw = raw
        self.json = json
        self.script = script
    }

    static func parse(_ arguments: [String]) throws(UsageError) -> ButtonsOptions {
        var scanner = try ArgumentScanner(
            arguments, command: "buttons", valued: ["board", "config", "script", "device"])
        let options = ButtonsOptions(
            board: scanner.value("board"), config: scanner.value("config"), raw: try scanner.flag("raw"),
            json: try scanner.flag("json"), script: scanner.value("script"), speak: try scanner.flag("speak"),
            device: scanner.value("device") ?? "default")
        try scanner.finish()
        if options.board != nil && options.config != nil {
            throw UsageError("give either --board or --config, not both", command: "buttons")
        }
        return options
    }
}
