/// What clients ask when they connect: outputs, decoders, tag types, partitions, options. A shuffle-only
/// player with one output answers what matches it and a clear ACK for what cannot be.
extension MPDCommands {
    static let connectCommands = [
        "binarylimit", "channels", "clearerror", "consume", "crossfade", "decoders", "disableoutput",
        "enableoutput", "getvol", "listpartitions",
        "mixrampdb", "mixrampdelay", "outputs", "partition", "random", "readmessages", "repeat",
        "replay_gain_mode", "replay_gain_status", "single", "subscribe", "tagtypes", "toggleoutput",
        "rescan", "unsubscribe", "update", "urlhandlers",
    ]

    /// The one output's name in `outputs`.
    public static let outputName = "Shufflebox ALSA output"

    /// Answers a connect-time command, or nil when `request` is not one.
    static func connectCommand(
        _ request: MPDRequest, _ snapshot: @autoclosure () -> PlayerSnapshot, _ options: inout MPDClientOptions
    ) throws(MPDError) -> String? {
        let arguments = request.arguments
        switch request.name {
        case "tagtypes":
            return try tagTypes(request, &options)
        case "outputs":
            try count(request, 0...0)
            let now = snapshot()
            var pairs = [
                ("outputid", "0"), ("outputname", outputName), ("plugin", "alsa"),
                ("outputenabled", now.outputEnabled ? "1" : "0"),
            ]
            // With a list of outputs, each follows as a read-only entry: enabled is the one in use (the box
            // chooses by what is plugged in); its attributes say what it is and why it is or is not usable.
            if now.outputs.count > 1 || now.outputs.first.map({ $0.card != nil }) == true {
                for (index, output) in now.outputs.enumerated() {
                    pairs += [
                        ("outputid", String(index + 1)), ("outputname", output.name), ("plugin", "alsa"),
                        ("outputenabled", output.state == .inUse ? "1" : "0"),
                        ("attribute", "state=\(output.state.text)"),
                    ]
                    if let card = output.card { pairs.append(("attribute", "card=\(card.id)")) }
                    pairs.append(("attribute", "match=\(output.match)"))
                    if let pcm = output.pcm { pairs.append(("attribute", "device=\(pcm)")) }
                }
            }
            return format(pairs)
        case "decoders":
            try count(request, 0...0)
            return format([("plugin", "mpg123"), ("suffix", "mp3"), ("mime_type", "audio/mpeg")])
        case "urlhandlers", "channels", "readmessages":
            // No streams, no client-to-client channels.
            try count(request, 0...0)
            return ""
        case "subscribe", "unsubscribe":
            try count(request, 1...1)
            throw MPDError(.system, "client-to-client messages are not supported by this player")
        case "listpartitions":
            try count(request, 0...0)
            return "partition: default\n"
        case "partition":
            try count(request, 1...1)
            guard arguments[0] == "default" else { throw MPDError(.noExist, "partition does not exist") }
            return ""
        case "binarylimit":
            try count(request, 1...1)
            guard let limit = Int(arguments[0]), limit >= 64 else {
                throw MPDError(.argument, "Value too small: \(arguments[0])")
            }
            options.binaryLimit = min(limit, 1 << 24)
            return ""
        case "replay_gain_status":
            try count(request, 0...0)
            return "replay_gain_mode: \(snapshot().replayGainMode.rawValue)\n"
        case "replay_gain_mode":
            // The mode is the box's configuration (the parent's), not a client's to change: only the mode in
            // force is accepted.
            try count(request, 1...1)
            return try only(arguments[0], is: [snapshot().replayGainMode.rawValue], request)
        case "getvol":
            try count(request, 0...0)
            let now = snapshot()
            return "volume: \(MPDVolume.percent(step: now.volume, steps: now.volumeSteps))\n"
        case "clearerror":
            try count(request, 0...0)
            return ""
        case "random", "repeat":
            // Shuffle is the only mode: every track once per cycle, cycle after cycle.
            try count(request, 1...1)
            return try only(arguments[0], is: ["1"], request)
        case "single", "consume":
            try count(request, 1...1)
            return try only(arguments[0], is: ["0"], request)
        case "crossfade":
            try count(request, 1...1)
            return try only(arguments[0], is: ["0"], request)
        case "mixrampdb", "mixrampdelay":
            try count(request, 1...1)
            return ""
        default:
            return nil
        }
    }

    /// `tagtypes` (list the enabled tags), `tagtypes clear|all|enable T...|disable T...|reset T...`.
    private static func tagTypes(_ request: MPDRequest, _ options: inout MPDClientOptions) throws(MPDError) -> String {
        let arguments = request.arguments
        guard let verb = arguments.first else {
            return MPDTag.allCases.filter { options.tags.contains($0) }.map { "tagtype: \($0.rawValue)\n" }.joined()
        }
        var named: [MPDTag] = []
        for name in arguments.dropFirst() {
            // MPD answers an error for a tag it does not know; tags we do not store are accepted and ignored,
            // so a client enabling MusicBrainz tags still connects.
            if let tag = MPDTag(named: name) { named.append(tag) }
        }
        switch verb {
        case "clear":
            options.tags = []
        case "all":
            options.tags = Set(MPDTag.allCases)
        case "enable":
            guard arguments.count > 1 else { throw MPDError(.argument, "Not enough arguments") }
            options.tags.formUnion(named)
        case "disable":
            guard arguments.count > 1 else { throw MPDError(.argument, "Not enough arguments") }
            options.tags.subtract(named)
        case "reset":
            options.tags = Set(named)
        case "available":
            return MPDTag.allCases.map { "tagtype: \($0.rawValue)\n" }.joined()
        default:
            throw MPDError(.argument, "Unknown sub command: \(verb)")
        }
        return ""
    }

    /// OK when `value` is one of `accepted`, else an ACK saying this is a shuffle-only player.
    private static func only(_ value: String, is accepted: [String], _ request: MPDRequest) throws(MPDError) -> String {
        if accepted.contains(value) { return "" }
        guard ["0", "1", "oneshot", "off", "track", "album", "auto"].contains(value) || Int(value) != nil else {
            throw MPDError(.argument, "Boolean (0/1) expected: \(value)")
        }
        throw MPDError(
            .argument,
            "this is a shuffle player: '\(request.name) \(value)' is not available ('\(request.name) \(accepted[0])' is how it plays)"
        )
    }
}
