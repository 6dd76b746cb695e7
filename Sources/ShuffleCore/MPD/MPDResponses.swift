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
        if let paused = snapshot.playerPaused { lines.append(("x-player-paused", paused ? "1" : "0")) }
        if let paused = snapshot.outputPaused { lines.append(("x-output-paused", paused ? "1" : "0")) }
        return format(lines)
    }

    /// The `stats` body.
    public static func stats(_ snapshot: PlayerSnapshot) -> String {
        format([
            ("artists", String(snapshot.artists)), ("albums", String(snapshot.albums)),
            ("songs", String(snapshot.tracks)), ("uptime", String(snapshot.uptimeSeconds)), ("playtime", "0"),
            ("db_playtime", String(snapshot.playtimeMs / 1000)), ("db_update", "0"),
        ])
    }

    /// One song's lines: `file`, the tags the client enabled (`tagtypes`), `Time`, `duration`, `Pos`, `Id`.
    public static func song(_ song: SongInfo, position: Int?, tags: Set<MPDTag> = Set(MPDTag.allCases)) -> String {
        var out = ""
        append(song, position: position, tags: tags, to: &out)
        return out
    }

    /// Appends one song's lines to `out`: a queue or library listing builds one string, not one per line.
    public static func append(_ song: SongInfo, position: Int?, tags: Set<MPDTag>, to out: inout String) {
        append("file", song.path, to: &out)
        if let modified = song.modified { append("Last-Modified", utcTimestamp(modified), to: &out) }
        for tag in MPDTag.allCases where tags.contains(tag) {
            if let value = song.tag(tag) { append(tag.rawValue, value, to: &out) }
        }
        append("Time", String((song.durationMs + 500) / 1000), to: &out)
        append("duration", seconds(song.durationMs), to: &out)
        if let format = song.format { append("Format", format, to: &out) }
        if let position { append("Pos", String(position), to: &out) }
        append("Id", String(song.id), to: &out)
    }

    /// `2024-03-09T17:05:00Z` for `seconds` since 1970, as MPD writes `Last-Modified` (ISO 8601, UTC). Days
    /// become a civil date by Howard Hinnant's `civil_from_days`, exact for any date in the proleptic Gregorian
    /// calendar; a stick's absurd timestamps (FAT cannot hold years before 1980 nor after 2107) print as they are.
    public static func utcTimestamp(_ seconds: Int64) -> String {
        let clamped = max(-(1 << 46), min(1 << 46, seconds))
        let days = clamped >= 0 ? clamped / 86_400 : (clamped - 86_399) / 86_400
        let second = clamped - days * 86_400
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shifted = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shifted + 2) / 5 + 1
        let month = shifted < 10 ? shifted + 3 : shifted - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let yearText =
            year >= 0 && year < 1000 ? String(repeating: "0", count: 4 - "\(year)".count) + "\(year)" : "\(year)"
        return
            "\(yearText)-\(two(month))-\(two(day))T\(two(second / 3_600)):\(two(second / 60 % 60)):\(two(second % 60))Z"
    }

    /// Appends `key: value\n`; a newline inside a value (a hostile tag) becomes a space.
    static func append(_ key: String, _ value: String, to out: inout String) {
        out += key
        out += ": "
        if value.utf8.contains(where: { $0 == 10 || $0 == 13 }) {
            out += String(value.map { $0 == "\n" || $0 == "\r" ? " " : $0 })
        } else {
            out += value
        }
        out += "\n"
    }

    /// `key: value` lines; a newline inside a value (a hostile tag) is replaced by a space.
    public static func format(_ pairs: [(String, String)]) -> String {
        var out = ""
        for (key, value) in pairs { append(key, value, to: &out) }
        return out
    }

    /// Seconds as MPD sends them (`12`, `12.5`, `+5`, `-2.25`) in milliseconds.
    static func milliseconds(_ text: String) throws(MPDError) -> Int64 {
        guard let value = Double(text), value.isFinite, abs(value) < 1e9 else {
            throw MPDError(.argument, "Number expected: \(text)")
        }
        return Int64((value * 1000).rounded())
    }

    static func seconds(_ milliseconds: Int64) -> String {
        let ms = max(0, milliseconds)
        let fraction = String(ms % 1000)
        return "\(ms / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }

}
