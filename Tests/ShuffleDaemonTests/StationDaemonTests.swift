import Foundation
import ShuffleTestSupport
import Testing

/// Stations from the stick end to end: the real daemon, a tmpfs stick of real MP3s with a `shufflebox.txt`
/// at its root, switched with `shufflebox ctl station` and Debian's `mpc`, played through the paced sink.
@Suite(
    .serialized,
    .enabled(if: DaemonHarness.canPlayForMPC, "needs root (mount), lame, pulseaudio and Debian's mpc"))
struct StationDaemonTests {
    /// A stick folder and the stick-relative paths of its tracks.
    struct Stick {
        var folder: URL
        /// The tracks in `Bedtime/`.
        var bedtime: Set<String>
        /// Every track of the stick.
        var all: Set<String>
    }

    /// A stick of 8 real MP3s (30 s each): 3 moved into `Bedtime/`, 5 left in their artist/album folders,
    /// and `shufflebox.txt` at its root holding `text` (none when nil).
    static func stick(in daemon: DaemonHarness, named name: String, file text: String?) throws -> Stick {
        let folder = daemon.directory.appending(name)
        try FileManager.default.copyItem(at: try DaemonHarness.library(tracks: 8, seconds: 30), to: folder)
        let enumerator = try #require(FileManager.default.enumerator(atPath: folder.path))
        var tracks: [String] = []
        while let relative = enumerator.nextObject() as? String {
            if relative.hasSuffix(".mp3") { tracks.append(relative) }
        }
        tracks.sort()
        #expect(tracks.count == 8, "the generated library: \(tracks)")
        let bedtimeFolder = folder.appendingPathComponent("Bedtime")
        try FileManager.default.createDirectory(at: bedtimeFolder, withIntermediateDirectories: true)
        var bedtime: Set<String> = []
        var all: Set<String> = []
        for (index, relative) in tracks.enumerated() {
            guard index < 3 else {
                all.insert(relative)
                continue
            }
            let moved = "Bedtime/\(index + 1) \((relative as NSString).lastPathComponent)"
            try FileManager.default.moveItem(
                at: folder.appendingPathComponent(relative), to: folder.appendingPathComponent(moved))
            bedtime.insert(moved)
            all.insert(moved)
        }
        if let text {
            try text.write(to: folder.appendingPathComponent("shufflebox.txt"), atomically: true, encoding: .utf8)
        }
        return Stick(folder: folder, bedtime: bedtime, all: all)
    }

    /// The daemon on the paced sink with the Bedtime stick plugged in (stop the sink when done).
    static func playingBedtimeStick(
        arguments: [String] = [], buttonFIFO: Bool = false
    ) throws -> (DaemonHarness, Stick, PacedSink) {
        let daemon = try DaemonHarness()
        // Scripted button edges (`DaemonHarness.press`) through the daemon's FIFO source.
        let environment = buttonFIFO ? ["SHUFFLEBOX_BUTTON_FIFO": daemon.directory.appending("buttons.fifo").path] : [:]
        let stick = try Self.stick(in: daemon, named: "bedtime-stick", file: Self.bedtimeFile)
        let sink = try PacedSink(directory: daemon.directory.appending("paced"))
        do {
            try daemon.start(
                device: "paced", arguments: arguments, environment: sink.environment.merging(environment) { $1 })
            try daemon.plug(stick.folder)
        } catch {
            try? sink.stop()
            throw error
        }
        return (daemon, stick, sink)
    }

    static let bedtimeFile = "# one station besides the whole stick\nstation = Bedtime\nsearch = folder:Bedtime\n"

    /// The queue as `mpc playlist` prints it, one file a line.
    static func queue(_ daemon: DaemonHarness) -> [String] {
        guard let result = try? daemon.mpc(["-f", "%file%", "playlist"]), result.status == 0 else { return [] }
        return result.stdout.split(separator: "\n").map(String.init)
    }

    /// The station `status --json` names.
    static func station(_ daemon: DaemonHarness) -> String? { (try? daemon.status())?["station"] as? String }

    /// `shufflebox ctl ARGS` against the daemon.
    static func ctl(_ daemon: DaemonHarness, _ arguments: [String]) throws -> Run.Result {
        try Run.shufflebox(["ctl", "--socket", daemon.socket] + arguments)
    }

    /// Waits until `station` plays (one of its `tracks` playing, exactly `tracks` queued), then checks that
    /// `status --json` names it: apart, so a wrong name fails at once and does not hold the wait.
    static func waitForStation(
        _ daemon: DaemonHarness, _ station: String, tracks: Set<String>,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let arrived = DaemonHarness.wait(seconds: 10) {
            daemon.state() == "playing" && daemon.trackPath().map { tracks.contains($0) } == true
                && Set(Self.queue(daemon)) == tracks
        }
        let queue = Self.queue(daemon)
        #expect(arrived, "station \(station) did not play:\n\(daemon.log)", sourceLocation: sourceLocation)
        let status = (try? daemon.status()) ?? [:]
        #expect(status["station"] as? String == station, "status --json: \(status)", sourceLocation: sourceLocation)
        #expect(Set(queue) == tracks, "the queue of \(station): \(queue)", sourceLocation: sourceLocation)
        #expect(queue.count == tracks.count, "each track once: \(queue)", sourceLocation: sourceLocation)
        let track = daemon.trackPath()
        #expect(
            track.map { tracks.contains($0) } == true, "playing \(track ?? "nothing")", sourceLocation: sourceLocation)
    }

    @Test func stationsAreListedAndSwitchedByCtlAndByMPDLoad() throws {
        let (daemon, stick, sink) = try Self.playingBedtimeStick()
        defer { try? sink.stop() }
        // The whole stick plays first.
        Self.waitForStation(daemon, "All", tracks: stick.all)

        let listed = try daemon.mpc(["lsplaylists"])
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stdout.split(separator: "\n").map(String.init) == ["All", "Bedtime"], "\(listed.stdout)")

        let toBedtime = try Self.ctl(daemon, ["station", "Bedtime"])
        #expect(toBedtime.status == 0, "\(toBedtime.stderr)")
        Self.waitForStation(daemon, "Bedtime", tracks: stick.bedtime)
        // `listplaylist` of the station playing lists its songs.
        let songs = try daemon.mpc(["-f", "%file%", "playlist", "Bedtime"])
        #expect(songs.status == 0, "\(songs.stderr)")
        #expect(Set(songs.stdout.split(separator: "\n").map(String.init)) == stick.bedtime, "\(songs.stdout)")

        let load = try daemon.mpc(["load", "All"])
        #expect(load.status == 0, "\(load.stderr)")
        Self.waitForStation(daemon, "All", tracks: stick.all)

        let next = try Self.ctl(daemon, ["station", "next"])
        #expect(next.status == 0, "\(next.stderr)")
        Self.waitForStation(daemon, "Bedtime", tracks: stick.bedtime)
        // Round the end: after the last station comes the first; before the first, the last.
        #expect(try Self.ctl(daemon, ["station", "next"]).status == 0)
        Self.waitForStation(daemon, "All", tracks: stick.all)
        #expect(try Self.ctl(daemon, ["station", "previous"]).status == 0)
        Self.waitForStation(daemon, "Bedtime", tracks: stick.bedtime)

        // A station the stick does not have: refused, and the one playing goes on.
        let unknown = try Self.ctl(daemon, ["station", "Nope"])
        #expect(unknown.status != 0)
        let unknownLoad = try daemon.mpc(["load", "Nope"])
        #expect(unknownLoad.status != 0)
        #expect(Self.station(daemon) == "Bedtime")
        #expect(Set(Self.queue(daemon)) == stick.bedtime)
        #expect(daemon.stop() == 0)
    }

    @Test func eachStationResumesWhereItWasAndARestartResumesTheStationPlaying() throws {
        let (daemon, stick, sink) = try Self.playingBedtimeStick()
        defer { try? sink.stop() }
        Self.waitForStation(daemon, "All", tracks: stick.all)
        #expect(try Self.ctl(daemon, ["station", "Bedtime"]).status == 0)
        Self.waitForStation(daemon, "Bedtime", tracks: stick.bedtime)

        // Off the station's first track, and 8 s into the next one: a restart from the top would differ.
        let first = try #require(daemon.trackPath())
        #expect(try daemon.mpc(["next"]).status == 0)
        #expect(DaemonHarness.wait(seconds: 5) { daemon.trackPath().map { $0 != first } == true }, "\(daemon.log)")
        #expect(try daemon.mpc(["seek", "0:08"]).status == 0)
        #expect(daemon.waitForPosition(over: 8_500), "\(daemon.log)")
        let track = try #require(daemon.trackPath())
        #expect(stick.bedtime.contains(track))
        let position = try daemon.status()["positionMs"] as? Int ?? 0

        #expect(try Self.ctl(daemon, ["station", "All"]).status == 0)
        Self.waitForStation(daemon, "All", tracks: stick.all)
        #expect(daemon.waitForPosition(over: 1_000), "All plays a while: \(daemon.log)")
        #expect(try Self.ctl(daemon, ["station", "Bedtime"]).status == 0)
        Self.waitForStation(daemon, "Bedtime", tracks: stick.bedtime)
        #expect(daemon.trackPath() == track, "Bedtime was at \(track)")
        let resumed = try daemon.status()["positionMs"] as? Int ?? -1
        print("stations: Bedtime left at \(position) ms of \(track), resumed at \(resumed) ms")
        #expect(abs(resumed - position) <= 5_000, "left at \(position) ms, resumed at \(resumed) ms")

        // A restart with Bedtime playing: Bedtime again, on the same track.
        #expect(daemon.waitForPosition(over: position + 500), "\(daemon.log)")
        let beforeStop = daemon.trackPath()
        #expect(daemon.stop() == 0)
        let again = try daemon.sibling()
        try again.start(device: "paced", environment: sink.environment)
        #expect(
            DaemonHarness.wait(seconds: 10) { again.state() == "playing" && again.trackPath() != nil }, "\(again.log)")
        #expect(Self.station(again) == "Bedtime", "\(again.log)")
        Self.waitForStation(again, "Bedtime", tracks: stick.bedtime)
        #expect(again.trackPath() == beforeStop)
        #expect(again.stop() == 0)
    }

    @Test func aSticksSettingsLowerTheBoxsCapButNeverRaiseIt() throws {
        let daemon = try DaemonHarness()
        let loud = try Self.stick(
            in: daemon, named: "loud-stick", file: "max-volume = 1000\nvolume = 1000\n" + Self.bedtimeFile)
        let quiet = try Self.stick(in: daemon, named: "quiet-stick", file: "max-volume = 3\n")
        let sink = try PacedSink(directory: daemon.directory.appending("paced"))
        defer { try? sink.stop() }
        try daemon.start(
            device: "paced", arguments: ["--volume", "8", "--max-volume", "12"], environment: sink.environment)
        func volume() -> Int? { (try? daemon.status())?["volume"] as? Int }
        func cap() -> Int? { (try? daemon.status())?["maxVolume"] as? Int }

        // A stick asking for more than the box allows: the box's cap and start volume.
        try daemon.plug(loud.folder, as: "loud")
        #expect(DaemonHarness.wait(seconds: 10) { daemon.state() == "playing" }, "\(daemon.log)")
        #expect(DaemonHarness.wait(seconds: 5) { volume() == 8 }, "volume \(volume() ?? -1):\n\(daemon.log)")
        #expect(cap() == 12)
        #expect(try Self.ctl(daemon, ["volume", "1000"]).status == 0)
        #expect(DaemonHarness.wait(seconds: 5) { volume() == 12 }, "volume \(volume() ?? -1)")
        // A volume command is carried out before it is answered: `status` after it shows its effect.
        #expect(try daemon.mpc(["volume", "100"]).status == 0)
        #expect(try Self.ctl(daemon, ["volume", "+5"]).status == 0)
        #expect(volume() == 12)
        #expect(cap() == 12)
        // A station of that stick changes nothing of it.
        #expect(try Self.ctl(daemon, ["station", "Bedtime"]).status == 0)
        Self.waitForStation(daemon, "Bedtime", tracks: loud.bedtime)
        #expect(cap() == 12)
        #expect(volume() == 12)

        // A stick with a lower cap: it holds, whatever asks for more.
        try daemon.unplug("loud")
        #expect(DaemonHarness.wait(seconds: 5) { daemon.state() == "no-library" }, "\(daemon.log)")
        try daemon.plug(quiet.folder, as: "quiet")
        #expect(DaemonHarness.wait(seconds: 10) { daemon.state() == "playing" }, "\(daemon.log)")
        #expect(DaemonHarness.wait(seconds: 5) { cap() == 3 }, "maxVolume \(cap() ?? -1):\n\(daemon.log)")
        #expect((volume() ?? 99) <= 3, "volume \(volume() ?? -1)")
        for request in [["volume", "1000"], ["volume", "+5"], ["volume", "12"]] {
            #expect(try Self.ctl(daemon, request).status == 0)
            #expect((volume() ?? 99) <= 3, "after ctl \(request): volume \(volume() ?? -1)")
        }
        #expect(try daemon.mpc(["volume", "100"]).status == 0)
        #expect((volume() ?? 99) <= 3, "after mpc volume 100: volume \(volume() ?? -1)")
        #expect(volume() == 3)
        #expect(cap() == 3)
        // Under the cap the volume still moves.
        #expect(try Self.ctl(daemon, ["volume", "1"]).status == 0)
        #expect(DaemonHarness.wait(seconds: 5) { volume() == 1 }, "volume \(volume() ?? -1)")

        // The quiet stick's cap leaves with it.
        try daemon.unplug("quiet")
        #expect(DaemonHarness.wait(seconds: 5) { daemon.state() == "no-library" }, "\(daemon.log)")
        try daemon.plug(loud.folder, as: "loud")
        #expect(DaemonHarness.wait(seconds: 10) { daemon.state() == "playing" }, "\(daemon.log)")
        #expect(DaemonHarness.wait(seconds: 5) { cap() == 12 }, "maxVolume \(cap() ?? -1):\n\(daemon.log)")
        #expect((volume() ?? 99) <= 12)
        #expect(daemon.stop() == 0)
    }

    @Test func aBrokenFileIsReportedByLineAndTheRestStillPlays() throws {
        let daemon = try DaemonHarness()
        let text = """
            # a stick whose file has mistakes
            bogus line
            station = Broken
            search = folder:"Bedtime
            station = Bedtime
            search = folder:Bedtime
            station = Nothing
            search = folder:Nowhere

            """
        let stick = try Self.stick(in: daemon, named: "broken-stick", file: text)
        let sink = try PacedSink(directory: daemon.directory.appending("paced"))
        defer { try? sink.stop() }
        try daemon.start(device: "paced", environment: sink.environment)
        try daemon.plug(stick.folder)
        #expect(DaemonHarness.wait(seconds: 10) { daemon.state() == "playing" }, "\(daemon.log)")
        Self.waitForStation(daemon, "All", tracks: stick.all)
        let log = daemon.log
        #expect(log.contains("shufflebox.txt:2:"), "the bogus line, by its number:\n\(log)")
        #expect(log.contains("shufflebox.txt:4:"), "the unclosed quote, by its number:\n\(log)")
        // The lines in error are left out; the rest applies.
        let listed = try daemon.mpc(["lsplaylists"])
        #expect(
            listed.stdout.split(separator: "\n").map(String.init) == ["All", "Bedtime", "Nothing"], "\(listed.stdout)")
        #expect(try Self.ctl(daemon, ["station", "Bedtime"]).status == 0)
        Self.waitForStation(daemon, "Bedtime", tracks: stick.bedtime)
        // A station whose search finds no song would leave the box silent: the whole stick plays instead.
        #expect(try Self.ctl(daemon, ["station", "Nothing"]).status == 0)
        Self.waitForStation(daemon, "All", tracks: stick.all)
        #expect(daemon.log.contains("station 'Nothing'"), "\(daemon.log)")
        #expect(daemon.state() == "playing")
        #expect(daemon.stop() == 0)
    }

    /// The buttons: a double click of volume-up goes to the next station and of volume-down to the previous one
    /// (the board files' default), the voice says the station's name, and a single click still moves the volume.
    @Test func aDoubleClickOfTheVolumeButtonsChangesStation() throws {
        let (daemon, stick, sink) = try Self.playingBedtimeStick(
            arguments: ["--board", "qemu", "--volume", "6", "--max-volume", "12"], buttonFIFO: true)
        defer { try? sink.stop() }
        let fifo = daemon.directory.appending("buttons.fifo").path
        Self.waitForStation(daemon, "All", tracks: stick.all)
        let double = { (button: String) in
            "0 \(button) press\n60 \(button) release\n150 \(button) press\n210 \(button) release\n"
        }
        try DaemonHarness.press(double("volume-up"), fifo: fifo)
        Self.waitForStation(daemon, "Bedtime", tracks: stick.bedtime)
        #expect(
            DaemonHarness.wait(seconds: 10) { daemon.log.contains("saying (station) en: Bedtime") },
            "the voice says the station's name:\n\(daemon.log)")
        #expect((try daemon.status())["volume"] as? Int == 6, "a double click is not two volume steps")
        try DaemonHarness.press(double("volume-down"), fifo: fifo)
        Self.waitForStation(daemon, "All", tracks: stick.all)
        try DaemonHarness.press("0 volume-up press\n60 volume-up release\n", fifo: fifo)
        #expect(
            DaemonHarness.wait(seconds: 5) { (try? daemon.status())?["volume"] as? Int == 7 }, "one click: one step")
        #expect(Self.station(daemon) == "All")
        #expect(daemon.stop() == 0)
    }
}
