import Foundation
import Glibc
import ShuffleCore
import ShuffleTestSupport
import Testing

@testable import ShuffleDaemon

/// Reading a stick's `shufflebox.txt`: on a thread of its own, bounded in size and in time, whatever the stick
/// holds under that name.
@Suite struct StickStationsTests {
    let scratch: TemporaryDirectory
    let log = Log(label: "test", minimum: .error) { _ in }

    init() throws { scratch = try TemporaryDirectory(prefix: "stick-stations") }

    private var file: String { scratch.appending(StickStations.fileName).path }

    @Test func aFileIsReadWithItsStationsAndItsTime() throws {
        // Windows' Notepad writes a byte-order mark first; CRLF lines.
        try Data("\u{FEFF}volume = 4\r\nstation = Bedtime\r\nsearch = folder:Bedtime\r\n".utf8).write(
            to: URL(fileURLWithPath: file))
        let stick = StickStations.read(mountPoint: scratch.url.path, log: log)
        #expect(stick.file.errors == [])
        #expect(stick.file.stations.map(\.name) == ["All", "Bedtime"])
        #expect(stick.file.settings.startVolume == 4)
        #expect(stick.modified != nil)
        #expect(stick.playing == nil, "the whole stick plays until a station is chosen")
    }

    @Test func noFileIsTheWholeStickWithTheBoxsSettings() {
        let stick = StickStations.read(mountPoint: scratch.url.path, log: log)
        #expect(stick.file == StationFile())
        #expect(stick.modified == nil)
    }

    @Test func aFIFOOrAnOversizedFileIsAnErrorNotAWait() throws {
        #expect(mkfifo(file, 0o644) == 0)
        let fifo = StickStations.read(mountPoint: scratch.url.path, log: log)
        #expect(fifo.file.stations.count == 1)
        #expect(fifo.file.errors.count == 1, "no writer is waited for")
        unlink(file)
        try Data(repeating: UInt8(ascii: "#"), count: StationFile.maxSize + 1).write(to: URL(fileURLWithPath: file))
        let big = StickStations.read(mountPoint: scratch.url.path, log: log)
        #expect(big.file.errors.first?.message.contains("larger than 64 KiB") == true)
    }

    @Test func aStickThatDoesNotAnswerIsGivenUpOnAndPlaysWhole() {
        // A failing stick holds a read for as long as the USB stack retries: the loop waits `readTimeout`.
        let stick = StickStations.read(mountPoint: scratch.url.path, log: log) { mountPoint, log in
            usleep(3_000_000)
            return StickStations.readNow(mountPoint: mountPoint, log: log)
        }
        #expect(stick.file.stations.count == 1)
        #expect(stick.file.errors.first?.message == "the stick did not answer")
    }
}
