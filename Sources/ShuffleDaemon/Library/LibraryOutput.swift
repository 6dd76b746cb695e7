import Glibc
import LibLinux
import MusicLibrary
import ShuffleCore

/// How `list` and `search` print library entries.
enum LibraryOutput {
    /// One JSON object: the keys of `shufflebox list --json`, absent values as null. `path` shows a byte that
    /// is not UTF-8 as the four characters `\xHH`, as a name could hold them for real; `pathHex` then gives the
    /// name's exact bytes (null for a UTF-8 name, which `path` already is exactly).
    static func json(_ entry: LibraryEntry) -> String { json(entry, story: nil, chapters: []) }

    /// `json(_:)` with what the listing knows of stories, in keys present only when they apply: `story`
    /// (`audiobook` or `podcast`: the track stays out of the shuffle), `book` (`{"path", "name"}`), `part`
    /// (its place in the book, from 1), and `chapters` (`[{"start_ms", "title"}]`, a title null when none).
    static func json(_ entry: LibraryEntry, story: StoryListing.Place?, chapters: [Chapter]) -> String {
        let tags = entry.tags
        var members = fields(entry, tags)
        if let kind = story?.kind ?? tags.story { members.append(("story", .string(kind.rawValue))) }
        if let story {
            members.append(
                (
                    "book",
                    .object([("path", .string(PathBytes(story.book.path).display)), ("name", .string(story.book.name))])
                ))
            members.append(("part", .int(Int64(story.part))))
        }
        if !chapters.isEmpty {
            members.append(
                (
                    "chapters",
                    .array(
                        chapters.map {
                            .object([("start_ms", .int($0.startMs)), ("title", JSONText.string($0.title))])
                        })
                ))
        }
        return JSONText.render(.object(members))
    }

    /// The keys every entry has.
    private static func fields(_ entry: LibraryEntry, _ tags: TagInfo) -> [(String, JSONText.Value)] {
        [
            ("path", .string(entry.path.display)),
            ("pathHex", entry.path.isValidUTF8 ? .null : .string(hex(entry.path.bytes))),
            ("status", .string(entry.status.rawValue)),
            ("reason", JSONText.string(entry.reason)),
            ("title", JSONText.string(tags.title)),
            ("artist", JSONText.string(tags.artist)),
            ("album", JSONText.string(tags.album)),
            ("albumArtist", JSONText.string(tags.albumArtist)),
            ("track", JSONText.int(tags.track)),
            ("trackTotal", JSONText.int(tags.trackTotal)),
            ("disc", JSONText.int(tags.disc)),
            ("discTotal", JSONText.int(tags.discTotal)),
            ("year", JSONText.int(tags.year)),
            ("genre", JSONText.string(tags.genre)),
            ("durationMs", JSONText.int(entry.durationMs)),
            // True while the length is estimated from the start of a stream too long to walk at once; the
            // pass after the index run walks it in full.
            ("durationEstimated", entry.stream.map { .bool($0.isEstimate) } ?? .null),
            ("format", JSONText.string(entry.stream?.codec)),
            ("sampleRate", JSONText.int(entry.stream?.sampleRate)),
            ("channels", JSONText.int(entry.stream?.channels)),
            ("bitsPerSample", JSONText.int(entry.stream?.bitsPerSample)),
        ]
    }

    /// One line for a person: `artist - title  (path)`, or the reason for an unplayable file. Every part
    /// comes from the stick, so each is escaped for the terminal (`TerminalText`): a name holding a newline
    /// or ESC prints as `\x0A` or `\x1B`, a real backslash as `\\`, a byte that is not UTF-8 as `\xHH`.
    static func text(_ entry: LibraryEntry) -> String { text(entry, story: nil) }

    /// `text(_:)` with a story marked at the end of its line: `[audiobook: BOOK, part 3 of 12]` (a flagged
    /// track the listing knows no book of: `[podcast]`).
    static func text(_ entry: LibraryEntry, story: StoryListing.Place?) -> String {
        let path = TerminalText.escape(entry.path)
        if entry.status != .ok {
            return "unplayable: \(TerminalText.escape(entry.reason ?? "unknown reason"))  (\(path))"
        }
        let title = TerminalText.escape(
            entry.tags.title.flatMap { $0.isEmpty ? nil : $0 } ?? LibraryDatabase.fileTitle(entry.path))
        var line = "\(title)  (\(path))"
        if let artist = entry.tags.artist, !artist.isEmpty { line = "\(TerminalText.escape(artist)) - " + line }
        if let story {
            let name = TerminalText.escape(story.book.name)
            line += "  [\(story.kind.rawValue): \(name), part \(story.part) of \(story.book.parts.count)]"
        } else if let kind = entry.tags.story {
            line += "  [\(kind.rawValue)]"
        }
        return line
    }

    /// Lower-case hex of `bytes`, two digits a byte.
    private static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef")
        var out = ""
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 15)])
        }
        return out
    }

    /// Writes `lines` to stdout in large chunks.
    static func write(_ lines: [String]) {
        var buffer = ""
        for line in lines {
            buffer += line
            buffer += "\n"
            if buffer.utf8.count > 1 << 16 {
                Terminal.write(buffer)
                buffer = ""
            }
        }
        if !buffer.isEmpty { Terminal.write(buffer) }
    }

    /// The real path of the music folder a command was given, or nil after telling the person why not
    /// ("shufflebox: cannot VERB DIR: no such folder" / "not a folder"). Runs before any database is made.
    static func musicFolder(_ path: String, verb: String) -> PathBytes? {
        guard FileSystem.exists(path) else {
            Terminal.error("shufflebox: cannot \(verb) \(path): no such folder")
            return nil
        }
        guard FileSystem.isFolder(path), let root = LibraryLocation.realPath(path) else {
            Terminal.error("shufflebox: cannot \(verb) \(path): not a folder")
            return nil
        }
        return root
    }

    /// The database path for `--db`, or the user's state directory.
    static func databasePath(_ explicit: String?) -> String {
        LibraryLocation.databasePath(explicit: explicit, environment: Environment.all)
    }

    /// Opens the existing library and its current volume, or prints why not and returns the exit status.
    static func openLibrary(_ explicit: String?) async -> Result<(LibraryStore, VolumeRef), ExitStatus> {
        let path = databasePath(explicit)
        do throws(LibraryError) {
            let store = try await LibraryStore.open(path: path, create: false)
            guard let volume = try await store.currentVolume() else { throw LibraryError.noLibrary(path: path) }
            return .success((store, volume))
        } catch {
            return .failure(report(error))
        }
    }

    /// Prints `error` on stderr and returns the exit status for it.
    static func report(_ error: LibraryError) -> ExitStatus {
        Terminal.error("shufflebox: \(error)")
        switch error {
        case .cannotCreate: return ExitStatus(ExitCode.cannotCreate)
        case .database(_, let sqlite) where sqlite.isNotWritable: return ExitStatus(ExitCode.cannotCreate)
        default: return ExitStatus(ExitCode.failure)
        }
    }
}

/// An exit status as an `Error`, for `Result`.
struct ExitStatus: Error {
    let code: Int32
    init(_ code: Int32) { self.code = code }
}
