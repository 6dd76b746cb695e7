/// Idle subsystems the daemon announces.
public enum IdleSubsystem: String, Equatable, Hashable, Sendable, CaseIterable {
    /// Play, pause, track change.
    case player
    /// Volume change.
    case mixer
    /// The library changed (indexing progress, a stick came or went).
    case database
    /// The queue (the shuffle cycle) changed.
    case playlist
    /// An index run started or ended (`updating_db`).
    case update
    /// Playback options changed (never here: shuffle only; listed so clients may wait on it).
    case options
    /// The output was enabled or disabled.
    case output
    /// The stations (stored playlists) changed: a stick with another `shufflebox.txt` plays.
    case storedPlaylist = "stored_playlist"
}

/// The protocol state of one client connection: command lists and idle. Pure: the daemon feeds it
/// lines and change notifications, and writes what it returns.
public struct MPDSession: Sendable {
    /// Sent once when a client connects.
    public static let greeting = "OK MPD 0.23.0\n"
    /// The most commands one command list may hold.
    public static let maxListLength = 1024

    private enum Mode: Sendable {
        case normal
        case list(ok: Bool, lines: [[UInt8]])
        case idle(Set<String>)
    }

    /// What to send back, and whether to close the connection afterwards.
    public struct Reply: Equatable, Sendable {
        /// Bytes to write (UTF-8), possibly empty.
        public var text: String
        /// Close after writing.
        public var close: Bool
        /// A search to start; its answer follows `text`, and the client's next requests wait for it.
        public var search: PendingSearch?
        /// A picture to read from the stick; answered like a search.
        public var picture: PendingPicture?
        /// A long song list to send after `text`, a part at a time, then `OK`; the client's next requests
        /// wait for its end.
        public var stream: MPDSongStream?

        /// Creates a reply.
        public init(
            _ text: String, close: Bool = false, search: PendingSearch? = nil, picture: PendingPicture? = nil,
            stream: MPDSongStream? = nil
        ) {
            self.text = text
            self.stream = stream
            self.close = close
            self.search = search
            self.picture = picture
        }
    }

    private var mode = Mode.normal
    private var pending: Set<String> = []
    /// What this client chose with `tagtypes` and `binarylimit`.
    public private(set) var options = MPDClientOptions()

    /// A new session.
    public init() {}

    /// Whether the client is waiting in `idle` (the daemon keeps such clients without timeouts).
    public var isIdle: Bool {
        if case .idle = mode { return true }
        return false
    }

    /// Handles one chunk from `MPDLineBuffer`.
    public mutating func receive<B: MPDBackend>(_ chunk: MPDLineBuffer.Chunk, backend: inout B) -> Reply {
        switch chunk {
        case .oversized:
            return Reply(MPDError(.argument, "line too long").ackLine(listIndex: 0, command: ""), close: true)
        case .line(let line):
            return receive(line: line, backend: &backend)
        }
    }

    /// Handles one request line.
    public mutating func receive<B: MPDBackend>(line: [UInt8], backend: inout B) -> Reply {
        switch mode {
        case .idle(let subscribed):
            // While idle, MPD accepts only `noidle`; anything else ends the connection.
            guard (try? MPDRequest.parse(line))?.name == "noidle" else { return Reply("", close: true) }
            mode = .normal
            return Reply(changes(subscribed) + "OK\n")
        case .list(let ok, var lines):
            let request = try? MPDRequest.parse(line)
            if request?.name == "command_list_end" {
                mode = .normal
                return runList(lines, ok: ok, backend: &backend)
            }
            if request?.name == "command_list_begin" || request?.name == "command_list_ok_begin" {
                mode = .normal
                return Reply(MPDError(.notList, "nested command list").ackLine(listIndex: lines.count, command: ""))
            }
            guard lines.count < Self.maxListLength else {
                mode = .normal
                return Reply(
                    MPDError(.argument, "command list too long").ackLine(listIndex: lines.count, command: ""),
                    close: true)
            }
            lines.append(line)
            mode = .list(ok: ok, lines: lines)
            return Reply("")
        case .normal:
            break
        }
        let request: MPDRequest
        do throws(MPDError) {
            request = try MPDRequest.parse(line)
        } catch {
            return Reply(error.ackLine(listIndex: 0, command: ""))
        }
        switch request.name {
        case "close":
            return Reply("", close: true)
        case "command_list_begin", "command_list_ok_begin":
            mode = .list(ok: request.name == "command_list_ok_begin", lines: [])
            return Reply("")
        case "command_list_end":
            return Reply(MPDError(.notList, "not in command list mode").ackLine(listIndex: 0, command: request.name))
        case "noidle":
            return Reply("")  // MPD ignores a stray noidle
        case "idle":
            var subscribed = Set<String>()
            for name in request.arguments {
                guard MPDCommands.idleNames.contains(name.lowercased()) else {
                    return Reply(
                        MPDError(.argument, "Unrecognized idle event: \(name)").ackLine(listIndex: 0, command: "idle"))
                }
                subscribed.insert(name.lowercased())
            }
            if subscribed.isEmpty { subscribed = MPDCommands.idleNames }
            if !pending.isDisjoint(with: subscribed) { return Reply(changes(subscribed) + "OK\n") }
            mode = .idle(subscribed)
            return Reply("")
        default:
            do throws(MPDError) {
                if let search = try MPDCommands.backgroundSearch(request, backend, options) {
                    return Reply("", search: search)
                }
                if let picture = try MPDCommands.pictureRequest(request, options) {
                    return Reply("", picture: picture)
                }
                if let stream = MPDCommands.songStream(request, backend, options) {
                    return Reply("", stream: stream)
                }
                return Reply(try MPDCommands.run(request, on: &backend, options: &options) + "OK\n")
            } catch {
                return Reply(error.ackLine(listIndex: 0, command: request.name))
            }
        }
    }

    /// Records that `subsystems` changed; returns the reply for a client waiting in `idle`, else nil.
    public mutating func notify(_ subsystems: Set<IdleSubsystem>) -> Reply? {
        pending.formUnion(subsystems.map(\.rawValue))
        guard case .idle(let subscribed) = mode, !pending.isDisjoint(with: subscribed) else { return nil }
        mode = .normal
        return Reply(changes(subscribed) + "OK\n")
    }

    /// `changed: NAME` lines for the pending subsystems the client subscribed to; clears what is pending.
    private mutating func changes(_ subscribed: Set<String>) -> String {
        let fired = pending.intersection(subscribed).sorted()
        pending.removeAll()
        return fired.map { "changed: \($0)\n" }.joined()
    }

    /// Runs what follows a search in a command list, once the search's answer has been sent; nothing when the
    /// search failed (its ACK ended the list) or was not in a list.
    public mutating func continueList<B: MPDBackend>(
        after search: PendingSearch, succeeded: Bool, backend: inout B
    ) -> Reply {
        guard succeeded, let rest = search.list else { return Reply("") }
        return runList(rest.lines, ok: rest.ok, from: rest.index + 1, backend: &backend)
    }

    /// Runs a command list's requests (`first` is the first one's place in the list). A search the backend
    /// answers in the background ends this run: the reply carries it, with the requests after it, and the list
    /// goes on in `continueList` once it is answered, so the loop never waits on the index.
    private mutating func runList<B: MPDBackend>(
        _ lines: [[UInt8]], ok: Bool, from first: Int = 0, backend: inout B
    ) -> Reply {
        var out = ""
        for (offset, line) in lines.enumerated() {
            let index = first + offset
            let request: MPDRequest
            do throws(MPDError) {
                request = try MPDRequest.parse(line)
            } catch {
                return Reply(out + error.ackLine(listIndex: index, command: ""))
            }
            switch request.name {
            case "idle", "noidle", "close", "albumart", "readpicture":
                return Reply(
                    out
                        + MPDError(.argument, "'\(request.name)' is not allowed in a command list")
                        .ackLine(listIndex: index, command: request.name))
            default:
                break
            }
            do throws(MPDError) {
                if var search = try MPDCommands.backgroundSearch(request, backend, options) {
                    search.list = PendingSearch.ListRest(index: index, ok: ok, lines: Array(lines[(offset + 1)...]))
                    return Reply(out, search: search)
                }
                out += try MPDCommands.run(request, on: &backend, options: &options)
            } catch {
                return Reply(out + error.ackLine(listIndex: index, command: request.name))
            }
            if ok { out += "list_OK\n" }
        }
        return Reply(out + "OK\n")
    }
}
