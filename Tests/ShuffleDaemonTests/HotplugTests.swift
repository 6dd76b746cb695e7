import Foundation
import ShuffleTestSupport
import Testing

/// Plug-in libraries with the daemon as a real process: tmpfs "sticks" mounted under a temporary library
/// root (needs root), audio through ALSA's file PCM, or the paced PulseAudio sink where time matters.
@Suite(.serialized, .enabled(if: DaemonHarness.canMount && TestLibrary.isAvailable, "needs root (mount) and lame"))
struct HotplugTests {
    @Test func plugPlaysUnplugWaitsReplugPlaysAgainAndClientsAgree() throws {
        let library = try DaemonHarness.library(tracks: 6, seconds: 10)
        let daemon = try DaemonHarness()
        try daemon.start()
        #expect(daemon.state() == "no-library")
        let plugged = Date()
        try daemon.plug(library)
        let grew = DaemonHarness.wait(seconds: 10) {
            ((try? FileManager.default.attributesOfItem(atPath: daemon.capture.path))?[.size] as? Int ?? 0) > 0
        }
        #expect(grew, "no audio reached the capture file:\n\(daemon.log)")
        print("daemon: first audio \(Int(Date().timeIntervalSince(plugged) * 1000)) ms after the mount")
        #expect(DaemonHarness.wait(seconds: 5) { daemon.state() == "playing" })
        // Paused, the track stands still, so the two clients must name the same one.
        #expect(try daemon.mpc(["pause"]).status == 0)
        #expect(DaemonHarness.wait(seconds: 5) { daemon.state() == "paused" })
        // The track is named once the player has it (its first samples out, or held): on a loaded machine a
        // moment after the first bytes reach the capture file.
        _ = DaemonHarness.wait(seconds: 5) { daemon.trackPath() != nil }
        let ours = try #require(daemon.trackPath())
        let theirs = try daemon.mpc(["-f", "%file%", "current"]).stdout.trimmingCharacters(in: .newlines)
        #expect(ours == theirs)
        #expect(try daemon.mpc(["status"]).stdout.contains("[paused]"))
        let search = try daemon.mpc(["search", "any", ""])
        #expect(search.status == 0)

        try daemon.unplug()
        #expect(DaemonHarness.wait(seconds: 5) { daemon.state() == "no-library" }, "\(daemon.log)")
        #expect(daemon.process.isRunning)
        try daemon.plug(library)
        #expect(DaemonHarness.wait(seconds: 5) { daemon.state() == "playing" }, "\(daemon.log)")
        #expect(daemon.trackPath() != nil)
        #expect(daemon.stop() == 0)
    }

    /// Pulled while playing and plugged back 2 s later, the stick resumes the track it was pulled on, where it
    /// was, and `status` never says playing without a track meanwhile. Each round pulls it later in the track,
    /// the last ones near its end. `SHUFFLEBOX_REPLUG_ROUNDS` sets how many (1 in `make test`).
    @Test(.enabled(if: PacedSink.isAvailable, "needs pulseaudio for a device that keeps real time"))
    func replugContinuesTheSameTrackWhereItStopped() throws {
        let rounds = Int(ProcessInfo.processInfo.environment["SHUFFLEBOX_REPLUG_ROUNDS"] ?? "") ?? 1
        let library = try DaemonHarness.library(tracks: 5, seconds: 20)
        for round in 0..<rounds {
            let daemon = try DaemonHarness()
            let sink = try PacedSink(directory: daemon.directory.appending("paced"))
            defer { try? sink.stop() }
            try daemon.start(device: "paced", environment: sink.environment)
            try daemon.plug(library)
            let at = 3_000 + (round * 16_000) / max(1, rounds - 1)
            #expect(daemon.waitForPosition(over: at, seconds: 30), "\(daemon.log)")
            let position = try daemon.status()["positionMs"] as? Int ?? 0
            let track = try #require(daemon.trackPath())
            try daemon.unplug()
            #expect(DaemonHarness.wait(seconds: 5) { daemon.state() == "no-library" })
            usleep(2_000_000)  // the stick is out for a moment, as a hand takes it
            try daemon.plug(library)
            var trackless = 0
            let resumed = DaemonHarness.wait(seconds: 5) {
                let status = try? daemon.status()
                let playing = status?["state"] as? String == "playing"
                let path = (status?["track"] as? [String: Any])?["path"] as? String
                if playing && path == nil { trackless += 1 }
                return playing && path != nil
            }
            #expect(resumed, "\(daemon.log)")
            #expect(trackless == 0, "status said playing without a track \(trackless) times")
            let now = try daemon.status()["positionMs"] as? Int ?? -1
            let heard = try #require(daemon.trackPath())
            print("daemon: round \(round) unplugged at \(position) ms of \(track), resumed at \(now) ms of \(heard)")
            // Past its end, the next track from its start is right too.
            let sameTrack = heard == track && abs(now - position) <= 5000
            #expect(
                sameTrack || (position > 18_000 && now <= 5000),
                "stopped at \(position) ms of \(track), resumed at \(now) ms of \(heard)")
            #expect(daemon.stop() == 0)
        }
    }

    /// A paused box whose stick is pulled while another stays plugged: the other one takes over, paused, and
    /// not a sample of it is played. The player used to begin playing and be paused a moment later; through
    /// ALSA's file PCM, which takes samples as fast as they come, that moment is heard as a burst of music.
    @Test func aStickTakingOverWhilePausedPlaysNothing() throws {
        let library = try DaemonHarness.library(tracks: 6, seconds: 10)
        let daemon = try DaemonHarness()
        let quiet = daemon.directory.appending("quiet.conf")
        try "speech = off\n".write(to: quiet, atomically: true, encoding: .utf8)
        try daemon.start(arguments: ["--config", quiet.path])
        try daemon.plug(library, as: "older")
        #expect(DaemonHarness.wait(seconds: 10) { daemon.trackPath() != nil }, "\(daemon.log)")
        try daemon.plug(library, as: "newer")
        let newer = DaemonHarness.wait(seconds: 10) {
            daemon.state() == "playing" && Self.root(of: daemon) == daemon.root.appendingPathComponent("newer").path
        }
        #expect(newer, "\(daemon.log)")
        #expect(try daemon.mpc(["pause"]).status == 0)
        #expect(DaemonHarness.wait(seconds: 5) { daemon.state() == "paused" }, "\(daemon.log)")
        try daemon.unplug("newer")
        let tookOver = DaemonHarness.wait(seconds: 10) {
            daemon.state() == "paused" && daemon.trackPath() != nil
                && Self.root(of: daemon) == daemon.root.appendingPathComponent("older").path
        }
        #expect(tookOver, "\(daemon.log)")
        // Each player opens the file PCM anew, which empties the capture: what it holds now is the new one's.
        var last = -1
        let settled = DaemonHarness.wait(seconds: 5) {
            let size = (try? Data(contentsOf: daemon.capture))?.count ?? -2
            defer { last = size }
            return size == last
        }
        #expect(settled)
        let heard = try Data(contentsOf: daemon.capture).filter { $0 != 0 }.count
        #expect(heard == 0, "a paused box played music: \(heard) bytes of it are not silence")
        #expect(daemon.stop() == 0)
    }

    /// The library root `status` names.
    static func root(of daemon: DaemonHarness) -> String? {
        ((try? daemon.status())?["library"] as? [String: Any])?["root"] as? String
    }

    /// What a damaged card can do to the state file between a kill and the next start.
    enum Damage: String, CaseIterable {
        /// The whole file is random bytes (the WAL and its index gone too).
        case random
        /// The header is intact, every page after it is random.
        case garbled
        /// The file is cut to half its size, as an interrupted copy leaves it.
        case truncated
        /// The write-ahead log is random bytes: SQLite ignores frames whose checksums do not hold.
        case walGarbage

        /// Whether the daemon must find the file damaged (and say so), not just carry on.
        var replacesTheDatabase: Bool { self != .walGarbage }

        func apply(to database: String) throws {
            var generator = SystemRandomNumberGenerator()
            func random(_ count: Int) -> Data { Data((0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }) }
            let size = (try FileManager.default.attributesOfItem(atPath: database)[.size] as? Int) ?? 0
            switch self {
            case .random:
                try random(max(size, 4096)).write(to: URL(fileURLWithPath: database))
                for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: database + suffix) }
            case .garbled:
                let handle = try FileHandle(forUpdating: URL(fileURLWithPath: database))
                try handle.seek(toOffset: 100)
                try handle.write(contentsOf: random(max(size - 100, 8192)))
                try handle.close()
                for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: database + suffix) }
            case .truncated:
                let handle = try FileHandle(forUpdating: URL(fileURLWithPath: database))
                try handle.truncate(atOffset: UInt64(size / 2))
                try handle.close()
                for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: database + suffix) }
            case .walGarbage:
                try random(64 * 1024).write(to: URL(fileURLWithPath: database + "-wal"))
            }
        }
    }

    /// `scripts/kill9-soak` runs this with SHUFFLEBOX_KILL_ROUNDS=200. Every fifth round (the third of
    /// `make test`'s four) the state file is damaged after the kill, each kind of `Damage` in turn: the next
    /// start must still play within 5 s, say so in `status` when it had to start a fresh database, and the
    /// database must pass the integrity check after its own kill. Only the resume point may be lost then.
    @Test(.enabled(if: PacedSink.isAvailable, "needs pulseaudio for a device that keeps real time"))
    func killNineRoundsKeepTheDatabaseIntactAndResume() throws {
        let rounds = Int(ProcessInfo.processInfo.environment["SHUFFLEBOX_KILL_ROUNDS"] ?? "") ?? 4
        let library = try DaemonHarness.library(tracks: 5, seconds: 20)
        let first = try DaemonHarness()
        let sink = try PacedSink(directory: first.directory.appending("paced"))
        defer { try? sink.stop() }
        try first.plug(library)
        var last: (track: String, positionMs: Int)?
        var damaged: Damage?
        var damages = 0
        var generator = SystemRandomNumberGenerator()
        for round in 0..<rounds {
            // Every round is a fresh process on the same state directory, socket and stick.
            let daemon = round == 0 ? first : try first.sibling()
            try daemon.start(device: "paced", environment: sink.environment)
            #expect(
                DaemonHarness.wait(seconds: 5) { daemon.state() == "playing" && daemon.trackPath() != nil },
                "round \(round)\(damaged.map { " after \($0) damage" } ?? ""): \(daemon.log)")
            if let damage = damaged {
                let warning = (try? daemon.status())?["warning"] as? String ?? ""
                if damage.replacesTheDatabase {
                    #expect(warning.contains("was damaged"), "round \(round) after \(damage) damage: \(daemon.log)")
                }
            } else if let last, let status = try? daemon.status() {
                let position = status["positionMs"] as? Int ?? -1
                let sameTrack = daemon.trackPath() == last.track
                // Within 5 s of the last position heard (or just past the end, on the next track).
                #expect(
                    sameTrack ? abs(position - last.positionMs) <= 5000 : position <= 5000,
                    "round \(round): was \(last), now \(status)")
            }
            usleep(UInt32.random(in: 200_000...2_500_000, using: &generator))
            if let status = try? daemon.status(), let track = daemon.trackPath() {
                last = (track, status["positionMs"] as? Int ?? 0)
            }
            #expect(daemon.stop(SIGKILL) == 128 + SIGKILL)
            let check = try Run.program("/usr/bin/sqlite3", [daemon.database, "PRAGMA integrity_check"])
            #expect(check.stdout == "ok\n", "round \(round): \(check.stdout)\(check.stderr)")
            damaged = nil
            if round % 5 == 2 {
                let damage = Damage.allCases[damages % Damage.allCases.count]
                damages += 1
                try damage.apply(to: daemon.database)
                damaged = damage
            }
        }
    }

    /// The songs of a known stick were all replaced on a computer. The player resumes the stored order at
    /// once, finds none of its files and ends; the new songs are indexed a moment later. They must play:
    /// before, the box stayed silent until the stick was plugged again (the index's news went to a player
    /// that had ended). A new stick whose first indexed files do not decode takes the same path.
    @Test func aKnownStickWhoseSongsWereAllReplacedPlaysTheNewOnes() throws {
        let old = try DaemonHarness.library(tracks: 1, seconds: 10)
        let new = try DaemonHarness.library(tracks: 24, seconds: 2)
        let daemon = try DaemonHarness()
        try daemon.start()
        try daemon.plug(old)
        #expect(DaemonHarness.wait(seconds: 10) { daemon.trackPath() != nil }, "\(daemon.log)")
        try daemon.unplug()
        #expect(DaemonHarness.wait(seconds: 5) { daemon.state() == "no-library" })
        // On the computer: the old song deleted, a new album copied in its own folder.
        let staging = daemon.staging()
        try FileManager.default.removeItem(at: staging)
        try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
        try DaemonHarness.shell("cp", ["-a", new.path, staging.appendingPathComponent("New album").path])
        try daemon.plug(old)
        let playing = DaemonHarness.wait(seconds: 10) { daemon.trackPath()?.hasPrefix("New album/") == true }
        #expect(playing, "the new songs do not play:\n\(daemon.log)")
        #expect(daemon.state() == "playing")
        // Whether the player ended before the index found the new songs (the case this is about) or heard of
        // them in time, the log says which.
        let ended = daemon.log.contains("found so far") || daemon.log.contains("found meanwhile")
        let how = ended ? "ended before the new songs were indexed" : "heard of them in time"
        print("replaced songs: the first player \(how)")
        #expect(daemon.stop() == 0)
    }

    /// A new stick whose first file looks whole to the index but does not decode (an Ogg Vorbis file whose
    /// codebooks are damaged): the player started for it finds nothing to play, and the songs indexed next
    /// play.
    @Test func aNewStickWhoseFirstFileDoesNotDecodePlaysTheRest() throws {
        let songs = try DaemonHarness.library(tracks: 24, seconds: 2)
        let daemon = try DaemonHarness()
        let staging = daemon.staging()
        try DaemonHarness.shell("cp", ["-a", songs.path, staging.appendingPathComponent("Songs").path], makeDir: true)
        let whole = try AudioFixtures.make(.init(.vorbis, seconds: 1), in: staging, name: "000 first")
        var bytes = [UInt8](try Data(contentsOf: whole))
        // The setup header: "\u{5}vorbis", the codebook count, then each codebook's sync "BCV". A wrong sync
        // fails the decoder's open; the index reads only the first two headers and the last page.
        let marker: [UInt8] = [5] + Array("vorbis".utf8)
        let setup = try #require(
            (0...(bytes.count - 12)).first { Array(bytes[$0..<$0 + 7]) == marker && bytes[$0 + 8] == 0x42 })
        bytes[setup + 8] ^= 0xFF
        try Data(bytes).write(to: whole)
        try daemon.start()
        try daemon.plug(songs)
        let playing = DaemonHarness.wait(seconds: 10) { daemon.trackPath()?.hasPrefix("Songs/") == true }
        #expect(playing, "the songs after the broken file do not play:\n\(daemon.log)")
        // The index took the broken file for whole; the player tried it, found no audio and marked it so.
        let query = "SELECT status FROM files WHERE CAST(path AS TEXT) = '000 first.ogg'"
        let marked = DaemonHarness.wait(seconds: 5) { (try? daemon.sqlite(query))?.stdout == "unplayable\n" }
        #expect(marked, "the broken file was tried first:\n\(daemon.log)")
        #expect(daemon.stop() == 0)
    }
}
