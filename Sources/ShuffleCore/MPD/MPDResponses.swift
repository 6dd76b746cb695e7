/// The bodies of MPD's answers: `status`, `stats` and song lists.
extension MPDCommands {
    /// The `status` body.
    public static func status(_ snapshot: PlayerSnapshot) -> String {
        var lines: [(String, String)] = [
            ("volume", String(MPDVolume.percent(step: snapshot.volume, steps: snapshot.volumeSteps))),
            ("repeat", "1"), ("random", "1"), ("single", "0"), ("consume", "0"), ("partition", "default"),
            ("playlist", String(snapshot.queueVersion)),
            ("playlistlength", String(snapshot.queueLength ?? snapshot.tracks)),
            ("mixrampdb", "0.000000"),
        ]
        let state: String
        switch snapshot.state {
        case .playing where snapshot.track != nil: state = "play"
        case .paused where snapshot.track != nil: state = "pause"
        default: state = "stop"
        }
        lines.append(("state", state))
        if let track = snapshot.track, state != "stop" {
            if let position = snapshot.queuePosition { lines.append(("song", String(position))) }
            lines.append(("songid", String(track.id)))
            lines.append(("time", "\(snapshot.positionMs / 1000):\((track.durationMs + 500) / 1000)"))
            lines.append(("elapsed", seconds(snapshot.positionMs)))
            lines.append(("bitrate", "0"))
            lines.append(("duration", seconds(track.durationMs)))
            if snapshot.sampleRate > 0 {
                lines.append(("audio", "\(snapshot.sampleRate):16:\(snapshot.channels)"))
            }
            if let next = snapshot.nextSong {
                lines.append(("nextsong", String(next.position)))
                lines.append(("nextsongid", String(next.id)))
            }
        }
        if snapshot.indexing { lines.append(("updating_db", "1")) }
        if let reason = snapshot.state.errorReason { lines.append(("error", reason)) }
        // Extension keys (MPD clients ignore unknown keys): what `shufflebox status` needs beyond MPD.
        lines.append(("x-state", snapshot.state.name))
        lines.append(("x-volume-step", String(snapshot.volume)))
        lines.append(("x-volume-steps", String(snapshot.volumeSteps)))
        lines.append(("x-max-volume", String(snapshot.maxVolume)))
        if let root = snapshot.libraryRoot { lines.append(("x-library-root", root)) }
        if let warning = snapshot.warning { lines.append(("x-warning", warning)) }
        if let station = snapshot.station { lines.append(("x-station", station)) }
        if let story = snapshot.story { lines += story.lines }
        if let output = snapshot.outputLine { lines.append(("x-output", output)) }
        if let paused = snapshot.playerPaused { lines.append(("x-player-paused", paused ? "1" : "0")) }
        if let paused = snapshot.outputPaused { lines.append(("x-output-paused", paused ? "1" : "0")) }
        return format(lines)
    }

    /// The `stats` body.
    public static func stats(_ snapshot: PlayerSnapshot) -> String {
        format([
            ("artists", String(snapshot.artists)), ("albums", String(snapshot.albums)),
            ("songs", String(snapshot.tracks)), ("uptime", String(snapshot.uptimeSeconds)),
            ("playtime", String(snapshot.playedSeconds)), ("db_playtime", String(snapshot.playtimeMs / 1000)),
            ("db_update", String(snapshot.libraryUpdatedAt)),
        ])
    }

    /// One song's lines: `file`, the tags the client enabled (`tagtypes`), `Time`, `duration`, `Pos`, `Id`.
    public static func song(_ song: SongInfo, position: Int?, tags: Set<MPDTag> = Set(MPDTag.allCases)) -> String {
        var out = MPDWriter()
        append(song, position: position, tags: MPDTag.allCases.filter(tags.contains), to: &out)
        return out.text
    }

    /// Appends one song's lines to `out` (`tags`: the enabled ones, in MPD's order): a queue or library listing
    /// is one buffer, not a string per line.
    public static func append(_ song: SongInfo, position: Int?, tags: [MPDTag], to out: inout MPDWriter) {
        out.line("file", song.path)
        if let modified = song.modified { out.line("Last-Modified", utc: modified) }
        for tag in tags {
            switch tag {
            case .track: if let track = song.track { out.line(tag.rawValue, Int64(track)) }
            case .disc: if let disc = song.disc { out.line(tag.rawValue, Int64(disc)) }
            case .date: if let year = song.year { out.line(tag.rawValue, Int64(year)) }
            default: if let value = song.tag(tag) { out.line(tag.rawValue, value) }
            }
        }
        out.line("Time", (song.durationMs + 500) / 1000)
        out.line("duration", milliseconds: song.durationMs)
        if let format = song.format { out.line("Format", format) }
        if let position { out.line("Pos", Int64(position)) }
        out.line("Id", song.id)
    }

    /// `2024-03-09T17:05:00Z` for `seconds` since 1970, as MPD writes `Last-Modified` (`MPDWriter.line(_:utc:)`).
    public static func utcTimestamp(_ seconds: Int64) -> String {
        var out = MPDWriter()
        out.line("", utc: seconds)
        return String(out.text.dropFirst(2).dropLast())
    }

    /// `key: value` lines; a newline inside a value (a hostile tag) is replaced by a space.
    public static func format(_ pairs: [(String, String)]) -> String {
        var out = MPDWriter()
        for (key, value) in pairs { out.line(key, value) }
        return out.text
    }

    /// Seconds as MPD sends them (`12`, `12.5`, `+5`, `-2.25`) in milliseconds.
    static func milliseconds(_ text: String) throws(MPDError) -> Int64 {
        guard let value = Double(text), value.isFinite, abs(value) < 1e9 else {
            throw MPDError(.argument, "Number expected: \(text)")
        }
        return Int64((value * 1000).rounded())
    }

    static func seconds(_ milliseconds: Int64) -> String {
        var out = MPDWriter()
        out.line("", milliseconds: milliseconds)
        return String(out.text.dropFirst(2).dropLast())
    }

}
