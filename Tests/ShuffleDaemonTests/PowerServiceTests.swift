import Glibc
import LibLinux
import ShuffleCore
import ShuffleTestSupport
import Testing

@testable import ShuffleDaemon

/// The goodbye before a power-off, on a manual clock with a voice the test answers for.
@Suite struct PowerServiceTests {
    let scratch: TemporaryDirectory
    let loop: EventLoop
    var marker: String { scratch.path + "/powered-off" }

    init() throws {
        scratch = try TemporaryDirectory(prefix: "power")
        loop = try EventLoop.manual()
    }

    private func service(_ sayGoodbye: @escaping (Announcer.Event, @escaping () -> Void) -> Void) -> PowerService {
        var config = DaemonConfig()
        config.powerOffCommand = ["/bin/sh", "-c", "echo off >> '\(marker)'"]
        let log = Log(label: "power", minimum: .debug) { _ in }
        return PowerService(loop: loop, config: config, log: log, sayGoodbye: sayGoodbye)
    }

    private func runs() throws -> String {
        guard access(marker, F_OK) == 0 else { return "" }
        return String(decoding: try FileSystem.contents(of: marker, limit: 100), as: UTF8.self)
    }

    @Test func thePowerOffWaitsForTheGoodbyeAndRunsOnce() throws {
        var heard: (() -> Void)?
        var said: [Announcer.Event] = []
        let power = service {
            said.append($0)
            heard = $1
        }
        power.powerOff(because: "test", goodbye: .poweringOff)
        power.powerOff(because: "pressed again", goodbye: .poweringOff)
        #expect(said == [.poweringOff])
        #expect(try runs() == "")
        heard?()
        #expect(try runs() == "off\n")
        loop.advance(by: PowerService.sayingBound)
        #expect(try runs() == "off\n")
    }

    /// A goodbye that never ends (cut off by another phrase, a failing device) holds the power-off up for
    /// `sayingBound` at most; if it ends later after all, the command does not run a second time.
    @Test func aGoodbyeNeverHeardHoldsThePowerOffUpForTheBoundOnly() throws {
        var heard: (() -> Void)?
        let power = service { heard = $1 }
        power.powerOff(because: "test", goodbye: .poweringOff)
        loop.advance(by: PowerService.sayingBound - .milliseconds(1))
        #expect(try runs() == "")
        loop.advance(by: .milliseconds(1))
        #expect(try runs() == "off\n")
        heard?()
        #expect(try runs() == "off\n")
    }

    /// The battery's goodbye is its own phrase; the sleep timer's power-off says nothing and does not wait.
    @Test func theBatterySaysItsOwnGoodbyeAndTheSleepTimerNone() throws {
        var said: [Announcer.Event] = []
        let power = service { event, heard in
            said.append(event)
            heard()
        }
        power.powerOff(because: "the battery is low", goodbye: .batteryLow)
        #expect(said == [.batteryLow])
        #expect(try runs() == "off\n")
        power.powerOff(because: "the sleep timer", goodbye: nil)
        #expect(said == [.batteryLow])
        #expect(try runs() == "off\noff\n")
    }
}
