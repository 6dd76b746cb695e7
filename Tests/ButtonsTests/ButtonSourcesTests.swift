import Buttons
import Foundation
import ShuffleCore
import Testing

/// The sources above the hardware edge: recorded input events, a pipe as the terminal, and the
/// GPIO source's messages on a machine without the board's chip.
@Suite struct ButtonSourcesTests {
    static let board = BoardConfig(
        name: "keys", source: .input, inputDevice: "button",
        buttons: [
            ButtonSettings(name: .play, keyCode: 164, actions: [.click: .playPause]),
            ButtonSettings(name: .next, keyCode: 163, actions: [.click: .next, .hold: .seekForward]),
        ])

    /// One `struct input_event` as the kernel writes it on this machine (timeval of two longs).
    static func record(seconds: Int, micros: Int, type: UInt16, code: UInt16, value: Int32) -> [UInt8] {
        var bytes: [UInt8] = []
        withUnsafeBytes(of: seconds.littleEndian) { bytes += $0 }
        withUnsafeBytes(of: micros.littleEndian) { bytes += $0 }
        withUnsafeBytes(of: type.littleEndian) { bytes += $0 }
        withUnsafeBytes(of: code.littleEndian) { bytes += $0 }
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
        return bytes
    }

    @Test func inputEventsBecomeEdgesWithTheirTimestampsAndFeedTheRecogniser() throws {
        var bytes: [UInt8] = []
        bytes += Self.record(seconds: 5, micros: 0, type: 1, code: 164, value: 1)  // play down
        bytes += Self.record(seconds: 5, micros: 0, type: 0, code: 0, value: 0)  // SYN_REPORT
        bytes += Self.record(seconds: 5, micros: 100_000, type: 1, code: 164, value: 0)  // play up
        bytes += Self.record(seconds: 6, micros: 0, type: 1, code: 30, value: 1)  // KEY_A: not mapped
        bytes += Self.record(seconds: 7, micros: 0, type: 1, code: 163, value: 1)  // next down
        bytes += Self.record(seconds: 7, micros: 300_000, type: 1, code: 163, value: 2)  // autorepeat: ignored
        bytes += Self.record(seconds: 7, micros: 700_000, type: 1, code: 163, value: 0)  // next up
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("events-\(UUID().uuidString)").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }

        let source = try InputEventSource(paths: [path], board: Self.board)
        var edges: [ButtonEdge] = []
        while !source.isFinished {
            for fd in source.fileDescriptors { edges += try source.readEvents(ready: fd) }
        }
        #expect(
            edges == [
                ButtonEdge(.play, .press, at: .seconds(5)), ButtonEdge(.play, .release, at: .milliseconds(5100)),
                ButtonEdge(.next, .press, at: .seconds(7)), ButtonEdge(.next, .release, at: .milliseconds(7700)),
            ])
        let gestures = ButtonReplay.run(edges, board: Self.board).gestures.map(\.description)
        #expect(
            gestures == [
                "5100ms play click play-pause", "7500ms next hold seek-forward", "7650ms next hold seek-forward",
            ])
    }

    @Test func aMissingInputDeviceSaysWhatToDo() {
        #expect {
            try InputEventSource.open(board: Self.board, sysfs: "/nonexistent")
        } throws: { error in
            (error as? ButtonSourceError)?.description.contains("gpio-key overlay") == true
        }
    }

    @Test func keysOnTheTerminalArePressReleasePairs() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let keyboard = KeyboardSource(descriptor: ends[0], pressLength: .milliseconds(50), clock: { .seconds(10) })
        _ = "n x+".withCString { write(ends[1], $0, 4) }
        let edges = try keyboard.readEvents(ready: ends[0])
        #expect(
            edges == [
                ButtonEdge(.next, .press, at: .milliseconds(10_000)),
                ButtonEdge(.next, .release, at: .milliseconds(10_050)),
                ButtonEdge(.play, .press, at: .milliseconds(10_100)),
                ButtonEdge(.play, .release, at: .milliseconds(10_150)),
                ButtonEdge(.volumeUp, .press, at: .milliseconds(10_200)),
                ButtonEdge(.volumeUp, .release, at: .milliseconds(10_250)),
            ])
        #expect(!keyboard.quitRequested)
        _ = "q".withCString { write(ends[1], $0, 1) }
        close(ends[1])
        #expect(try keyboard.readEvents(ready: ends[0]).isEmpty)
        #expect(keyboard.quitRequested)
        #expect(try keyboard.readEvents(ready: ends[0]).isEmpty)
        #expect(keyboard.isFinished)
    }

    @Test func aMissingGPIOChipIsReportedWithAdviceNotACrash() throws {
        // This machine has no Raspberry Pi chip (and, on a Pi, no chip is labelled like this).
        let text = "[board]\nchip = no-such-chip-label\n[button play]\ngpio = 17\npin = 11\nclick = play-pause\n"
        let board = try BoardFileParser.parse(text, file: "t.conf")
        let (source, errors) = GPIOButtonSource.open(board: board)
        #expect(source == nil)
        #expect(errors.count == 1)
        #expect(errors.first?.description.contains("GPIO chip 'no-such-chip-label'") == true)
        #expect(errors.first?.description.contains("gpiodetect") == true)
    }
}
