/// One invocation of `shufflebox`, parsed from the command line.
public enum Command: Equatable, Sendable {
    /// `shufflebox help [COMMAND]` or `--help`: print usage.
    case help(command: String?)
    /// `shufflebox --version`.
    case version
    /// `shufflebox index DIR`.
    case index(IndexOptions)
    /// `shufflebox search QUERY`.
    case search(SearchOptions)
    /// `shufflebox list`.
    case list(ListOptions)
    /// `shufflebox play DIR`.
    case play(PlayOptions)
    /// `shufflebox buttons`: the wiring check.
    case buttons(ButtonsOptions)
    /// `shufflebox say TEXT`: speak through the box's voice.
    case say(SayOptions)
    /// `shufflebox run`: the appliance daemon.
    case run(RunOptions)
    /// `shufflebox status`: ask the running daemon.
    case status(StatusOptions)
    /// `shufflebox ctl ACTION`: tell the running daemon.
    case ctl(ControlOptions)
    /// `shufflebox outputs`: what the running daemon can play through, and which it uses.
    case outputs(StatusOptions)

    /// Parses the arguments after the program name.
    public static func parse(_ arguments: [String]) throws(UsageError) -> Command {
        guard let name = arguments.first else { return .help(command: nil) }
        let rest = Array(arguments.dropFirst())
        if rest.contains("--help") || rest.contains("-h") {
            return .help(command: Usage.commands.contains(name) ? name : nil)
        }
        switch name {
        case "help", "--help", "-h":
            return .help(command: rest.first)
        case "--version", "version":
            return .version
        case "index": return .index(try IndexOptions.parse(rest))
        case "search": return .search(try SearchOptions.parse(rest))
        case "list": return .list(try ListOptions.parse(rest))
        case "play": return .play(try PlayOptions.parse(rest))
        case "buttons": return .buttons(try ButtonsOptions.parse(rest))
        case "say": return .say(try SayOptions.parse(rest))
        case "run": return .run(try RunOptions.parse(rest))
        case "status": return .status(try StatusOptions.parse(rest))
        case "ctl": return .ctl(try ControlOptions.parse(rest))
        case "outputs": return .outputs(try StatusOptions.parse(rest))
        default:
            throw UsageError("unknown command '\(name)'")
        }
    }
}
