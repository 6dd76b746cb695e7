import Dispatch
import Glibc
import LibLinux
import LibPThread
import ShuffleCore

/// One stick's stations and settings, read from `shufflebox.txt` at its root when it is mounted, and which
/// of its stations plays.
struct StickStations {
    /// The file's name at the stick's root (FAT and exFAT find it whatever its case).
    static let fileName = "shufflebox.txt"

    /// The parsed file (no file: the whole stick only, no settings).
    var file = StationFile()
    /// When the file was last changed, in seconds since 1970 (nil: no file).
    var modified: Int64?
    /// The index in `file.stations` of the station playing (0: the whole stick).
    var current = 0

    /// The station to hand the player: nil for the whole stick.
    var playing: Station? { current == 0 ? nil : file.stations[current] }

    /// The station's name.
    var currentName: String { file.stations[current].name }

    /// The mode the station plays in: its own, else the stick's, else nil (the box's).
    var mode: ShuffleMode? { file.stations[current].mode ?? file.settings.mode }

    /// Plays the station named `name` when the file still has it (the one stored as playing last).
    mutating func restore(_ name: String?) {
        guard let name, let index = file.stations.firstIndex(where: { $0.name == name }) else { return }
        current = index
    }

    /// How long the event loop waits for the file: a stick that does not answer (a failing one can hold a
    /// read for the USB stack's 30 s) costs the buttons at most this once, when it is mounted.
    static let readTimeout = 1.0

    /// Reads the file at the root of `mountPoint` on a thread of its own, waiting at most `readTimeout`: the
    /// loop's thread never reads from a stick. Errors are logged with their line numbers; the lines in error
    /// are skipped and the rest applies. A file that cannot be read in time (too large, not a file, an I/O
    /// error, a stick that does not answer) leaves the stick whole with the box's settings.
    static func read(
        mountPoint: String, log: Log,
        reading: @escaping @Sendable (String, Log) -> StickStations = { readNow(mountPoint: $0, log: $1) }
    ) -> StickStations {
        let result = Locked<StickStations?>(nil)
        let done = DispatchSemaphore(value: 0)
        PThread.startDetached(name: "shufflebox-stick") {
            let stick = reading(mountPoint, log)
            result.withLock { $0 = stick }
            done.signal()
        }
        if done.wait(timeout: .now() + readTimeout) == .success, let stick = result.withLock({ $0 }) { return stick }
        let path = mountPoint + "/" + fileName
        log.warning(
            "the stick does not answer: \(path) was not read within \(readTimeout) s; the whole stick plays, with the box's settings"
        )
        var stick = StickStations()
        stick.file.errors = [ConfigError(file: path, line: nil, message: "the stick did not answer")]
        return stick
    }

    /// Reads the file now, on the calling thread.
    static func readNow(mountPoint: String, log: Log) -> StickStations {
        let path = mountPoint + "/" + fileName
        var info = stat()
        guard lstat(path, &info) == 0 else { return StickStations() }
        do {
            let bytes = try FileSystem.contents(of: path, limit: StationFile.maxSize)
            var text = String(decoding: bytes, as: UTF8.self)
            // Windows' Notepad may begin the file with a byte-order mark.
            if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
            let file = StationFile(parsing: text, file: path)
            for error in file.errors { log.warning("\(error)") }
            let names = file.stations.dropFirst().map(\.name)
            if !names.isEmpty { log.info("\(path): stations \(names.joined(separator: ", "))") }
            return StickStations(file: file, modified: Int64(info.st_mtim.tv_sec))
        } catch {
            let reason = error.code == EFBIG ? "larger than \(StationFile.maxSize / 1024) KiB" : "\(error)"
            log.warning("cannot read \(path): \(reason); the whole stick plays, with the box's settings")
            var stations = StickStations()
            stations.file.errors = [ConfigError(file: path, line: nil, message: reason)]
            return stations
        }
    }
}
