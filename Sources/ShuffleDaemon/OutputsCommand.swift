import ShuffleCore

/// `shufflebox outputs [--socket PATH] [--json]`: asks the running daemon which outputs it can play through
/// (MPD's `outputs`, whose entries after the first are the box's list), and prints one line each, the one in
/// use marked `*`.
enum OutputsCommand {
    /// One output as the daemon reported it.
    struct Entry: Equatable {
        var name: String
        var inUse: Bool
        var state: String
        var card: String?
        var device: String?
        var match: String?
    }

    /// Prints the outputs; exit 69 when no daemon answers.
    static func run(_ options: StatusOptions) -> Int32 {
        let path = options.socket ?? DaemonPaths.clientSocket()
        do throws(ControlClient.Failure) {
            let client = try ControlClient(path: path)
            var entries = parse(try client.command("outputs"))
            if entries.isEmpty {
                // One output (the `device` setting alone): status names it.
                let status = Dictionary(try client.command("status"), uniquingKeysWith: { $1 })
                if let line = status["x-output"] {
                    let name = String(line.prefix { $0 != " " })
                    entries = [Entry(name: name, inUse: true, state: String(line.dropFirst(name.count + 1)))]
                }
            }
            if options.json {
                for entry in entries {
                    print(
                        JSONText.render(
                            .object([
                                ("name", .string(entry.name)), ("in_use", .bool(entry.inUse)),
                                ("state", .string(entry.state)), ("card", JSONText.string(entry.card)),
                                ("device", JSONText.string(entry.device)),
                            ])))
                }
            } else if entries.isEmpty {
                print("no output is configured or in use")
            } else {
                for entry in entries { print(text(entry)) }
            }
            return ExitCode.success
        } catch {
            return ControlCommand.report(error, path: path)
        }
    }

    /// The entries after output 0 (the box's mute switch) of an `outputs` answer.
    static func parse(_ pairs: [(String, String)]) -> [Entry] {
        var entries: [Entry] = []
        var id = -1
        for (key, value) in pairs {
            switch key {
            case "outputid":
                id = Int(value) ?? -1
                if id >= 1 { entries.append(Entry(name: "", inUse: false, state: "")) }
            case "outputname" where id >= 1: entries[entries.count - 1].name = value
            case "outputenabled" where id >= 1: entries[entries.count - 1].inUse = value == "1"
            case "attribute" where id >= 1:
                let (name, setting) = (value.prefix { $0 != "=" }, value.drop { $0 != "=" }.dropFirst())
                switch name {
                case "state": entries[entries.count - 1].state = String(setting)
                case "card": entries[entries.count - 1].card = String(setting)
                case "device": entries[entries.count - 1].device = String(setting)
                case "match": entries[entries.count - 1].match = String(setting)
                default: break
                }
            default: break
            }
        }
        return entries
    }

    private static func text(_ entry: Entry) -> String {
        let name = TerminalText.escape(entry.name)
        let padded = name.count < 9 ? name + String(repeating: " ", count: 9 - name.count) : name
        var what = entry.card.map { "card \($0)" } ?? (entry.device == nil ? entry.match ?? "" : "")
        if let device = entry.device { what += (what.isEmpty ? "" : " ") + "(\(device))" }
        if what.isEmpty && entry.state.contains("(") { return "\(entry.inUse ? "* " : "  ")\(padded) \(entry.state)" }
        return "\(entry.inUse ? "* " : "  ")\(padded) \(what.isEmpty ? "" : what + ": ")\(entry.state)"
    }
}
