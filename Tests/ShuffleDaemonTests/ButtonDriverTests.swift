import Buttons
import ShuffleCore
import Testing

@testable import ShuffleDaemon

/// Lines already active when the buttons are opened, on a manual clock: a lines source stands in for the GPIO
/// chip (the hardware edge), the recogniser and the driver are the daemon's own.
@Suite struct ButtonDriverTests {
    /// Lines that read active at open and never report an edge.
    final class HeldLines: ButtonSource {
        let held: [ButtonName]
        init(_ held: [ButtonName]) { self.held = held }
        var name: String { "held lines" }
        var fileDescriptors: [Int32] { [] }
        var isFinished: Bool { false }
        func readEvents(ready descriptor: Int32) throws(ButtonSourceError) -> [ButtonEdge] { [] }
        func activeAtOpen() -> [ButtonName] { held }
    }

    static let board = """
        [board]
        name = test
        source = gpio
        chip = no-such-chip
        active-low = yes
        long-press = 800ms

        [button play]
        gpio = 0
        click = play-pause

        [button power]
        gpio = 5
        long = power-off

        [button battery]
        gpio = 6
        long = battery-low
        """

    /// A box switched on with its battery already low: the battery board's line is low before the daemon
    /// starts, so no falling edge ever comes. It is taken as pressed at open, and switches the box off once
    /// held for the long press. A button held at open (the power button still down from waking the board) is
    /// not taken as pressed.
    @Test func aBatteryLineLowAtStartSwitchesOffAndAHeldButtonDoesNot() throws {
        let loop = try EventLoop.manual()
        let board = try BoardFileParser.parse(Self.board, file: "test.conf")
        var actions: [ButtonAction] = []
        let driver = ButtonDriver(
            loop: loop, board: board, extra: [HeldLines([.play, .power, .battery])],
            log: Log(label: "buttons", minimum: .debug) { _ in }
        ) { actions.append($0) }
        loop.advance(by: .milliseconds(700))
        #expect(actions.isEmpty)
        loop.advance(by: .milliseconds(200))
        #expect(actions == [.batteryLow])
        loop.advance(by: .seconds(5))
        #expect(actions == [.batteryLow])
        driver.stop()
    }

    /// The yardstick: the same lines not active at open do nothing.
    @Test func linesNotActiveAtOpenDoNothing() throws {
        let loop = try EventLoop.manual()
        let board = try BoardFileParser.parse(Self.board, file: "test.conf")
        var actions: [ButtonAction] = []
        let driver = ButtonDriver(
            loop: loop, board: board, extra: [HeldLines([])], log: Log(label: "buttons", minimum: .debug) { _ in }
        ) { actions.append($0) }
        loop.advance(by: .seconds(5))
        #expect(actions.isEmpty)
        driver.stop()
    }
}
