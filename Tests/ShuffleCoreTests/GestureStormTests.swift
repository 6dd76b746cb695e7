import ShuffleCore
import Testing

/// 10,000 random edges on every button over 10 s of event time, driven like the daemon drives it.
@Suite struct GestureStormTests {
    /// A small deterministic generator (SplitMix64) so a failure can be replayed from its seed.
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test(arguments: [1, 2, 3, 42] as [UInt64])
    func aStormEmitsOnlyAllowedActionsAndSettles(seed: UInt64) {
        for board in [ButtonTestBoards.five, ButtonTestBoards.one] {
            var random = SplitMix(state: seed)
            let buttons = board.buttons.map(\.name)
            var times = (0..<10_000).map { _ in Int64.random(in: 0..<10_000_000, using: &random) }  // microseconds
            times.sort()
            var recognizer = GestureRecognizer(board: board)
            var emitted: [GestureEvent] = []
            let longestTimer = Duration.seconds(2)
            for micros in times {
                let time = Duration.microseconds(micros)
                while let deadline = recognizer.nextDeadline, deadline < time {
                    emitted += recognizer.advance(to: deadline)
                }
                let button = buttons[Int.random(in: 0..<buttons.count, using: &random)]
                let kind: ButtonEdge.Kind = Bool.random(using: &random) ? .press : .release
                emitted += recognizer.handle(ButtonEdge(button, kind, at: time))
                // Pending state is bounded: nothing is ever scheduled further out than the longest threshold.
                if let deadline = recognizer.nextDeadline { #expect(deadline <= recognizer.now + longestTimer) }
            }
            for button in buttons { emitted += recognizer.handle(ButtonEdge(button, .release, at: .seconds(10))) }
            var wakeUps = 0
            while let deadline = recognizer.nextDeadline, wakeUps < 1000 {
                emitted += recognizer.advance(to: deadline)
                wakeUps += 1
            }
            #expect(recognizer.isIdle)
            #expect(recognizer.nextDeadline == nil)
            // Output is bounded by the input and elapsed time, not by anything that accumulates.
            #expect(emitted.count <= 10_000 + 5 * (10_000 / 150) + 100)
            for event in emitted {
                for button in event.buttons {
                    if let action = event.action {
                        #expect(board.allowedActions(for: button).contains(action), "\(event)")
                    }
                }
                if event.gesture == .chord { #expect(event.action == .lock && event.buttons.count == 2) }
            }
            #expect(zip(emitted, emitted.dropFirst()).allSatisfy { $0.time <= $1.time })
        }
    }
}
