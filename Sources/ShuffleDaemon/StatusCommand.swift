import Glibc
import ShuffleCore

/// `shufflebox status [--socket PATH] [--json]`: asks the running daemon over its socket.
enum StatusCommand {
    /// Prints the daemon's state; exit 69 when no daemon answers.
    static func run(_ options: StatusOptions) -> Int32 {
        let path = options.socket ?? DaemonPaths.clientSocket()
        do throws(ControlClient.Failure) {
            let client = try ControlClient(path: path)
            let status = Dictionary(try client.command("status"), uniquingKeysWith: { $1 })
            let song = Dictionary(try client.command("currentsong"), uniquingKeysWith: { $1 })
            let snapshot = decode(status: status, song: song)
            if options.json {
                print(JSONText.render(snapshot.json))
            } else {
                print(text(snapshot))
            }
            return ExitCode.success
        } catch {
            return ControlCommand.report(error, path: path)
        }
    }

    /// Rebuilds the snapshot from MPD's `status` and `currentsong` (plus our `x-` extension keys).
    static func decode(status: [String: String], song: [String: String]) -> PlayerSnapshot {
        let state: DaemonState
        switch status["x-state"] ?? "" {
        case "playing": state = .playing
        case "paused": state = .paused
        case "indexing": state = .indexing
        case "error": state = .error(status["error"] ?? "unknown error")
        default: state = .noLibrary
        }
        var track: SongInfo?
        if let file = song["file"] {
            track = SongInfo(
                id: Int64(song["Id"] ?? "") ?? 0, path: file, title: song["Title"], artist: song["Artist"],
                album: song["Album"], durationMs: Int64((Double(song["duration"] ?? "") ?? 0) * 1000))
        }
        let elapsed = Double(status["elapsed"] ?? "") ?? 0
        var snapshot = PlayerSnapshot(
            state: state, track: track, positionMs: Int64((elapsed * 1000).rounded()),
            volume: Int(status["x-volume-step"] ?? "") ?? 0, maxVolume: Int(status["x-max-volume"] ?? "") ?? 0,
            volumeSteps: Int(status["x-volume-steps"] ?? "") ?? 20, libraryRoot: status["x-library-root"],
            tracks: Int(status["playlistlength"] ?? "") ?? 0, indexing: status["updating_db"] != nil,
            warning: status["x-warning"])
        snapshot.station = status["x-station"]
        snapshot.story = StoryStatus(lines: status)
        snapshot.outputLine = status["x-output"]
        return snapshot
    }

    /// `value` (0...99) with a leading zero below 10: the seconds of "m:ss".
    static func twoDigits(_ value: Int64) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }

    private static func text(_ s: PlayerSnapshot) -> String {
        var lines = ["state: \(s.state.name)" + (s.state.errorReason.map { " (\($0))" } ?? "")]
        if let track = s.track {
            // From the stick, through the socket: control characters escaped; the path's own `\xHH` kept.
            let name = [track.artist, track.title].compactMap { $0 }.map { TerminalText.escape($0) }
                .joined(separator: " - ")
            let path = TerminalText.escape(track.path, backslashes: false)
            lines.append("track: \(name.isEmpty ? path : name)")
            lines.append("file: \(path)")
            lines.append("position: \(s.positionMs / 60_000):\(twoDigits((s.positionMs / 1000) % 60))")
        }
        lines.append("volume: \(s.volume) of \(s.volumeSteps) (cap \(s.maxVolume))")
        if let root = s.libraryRoot {
            lines.append("library: \(root), \(s.tracks) tracks\(s.indexing ? ", indexing" : "")")
        } else {
            lines.append("library: none (plug in a USB stick with music)")
        }
        if let station = s.station { lines.append("station: \(TerminalText.escape(station))") }
        if let story = s.story { lines.append("story: \(TerminalText.escape(story.summary))") }
        if let output = s.outputLine { lines.append("output: \(TerminalText.escape(output))") }
        if let warning = s.warning { lines.append("warning: \(warning)") }
        return lines.joined(separator: "\n")
    }
}
