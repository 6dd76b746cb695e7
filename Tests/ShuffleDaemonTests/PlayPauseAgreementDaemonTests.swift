import Foundation
import ShuffleTestSupport
import Testing

/// Every ordered pair of play, pause, next, previous, seek, volume and track end, sent over the control
/// socket to the real daemon (real engine, real audio thread, a device that keeps real time): after each
/// one, the daemon's state, the player machine's, the audio thread's and what the sink hears all agree.
@Suite(
    .serialized,
    .enabled(
        if: DaemonHarness.canMount && TestLibrary.isAvailable && PacedSink.isAvailable,
        "needs root (mount), lame and pulseaudio"))
struct PlayPauseAgreementDaemonTests {
    enum Step: Int, CaseIterable {
        case play, pause, next, previous, seek, volume, trackEnd
    }

    /// A de Bruijn sequence over `k` symbols for pairs, made linear: every ordered pair of symbols (repeats
    /// included) appears exactly once as neighbours.
    static func everyPair(_ k: Int) -> [Int] {
        var cycle: [Int] = []
        var a = [Int](repeating: 0, count: 3)
        func extend(_ t: Int, _ p: Int) {
            if t > 2 {
                if 2 % p == 0 { cycle += a[1...p] }
                return
            }
            a[t] = a[t - p]
            extend(t + 1, p)
            var j = a[t - p] + 1
            while j < k {
                a[t] = j
                extend(t + 1, t)
                j += 1
            }
        }
        extend(1, 1)
        return cycle + [cycle[0]]
    }

    @Test func theSequenceCoversEveryPair() {
        let sequence = Self.everyPair(Step.allCases.count)
        var pairs = Set<[Int]>()
        for index in 1..<sequence.count { pairs.insert([sequence[index - 1], sequence[index]]) }
        #expect(pairs.count == Step.allCases.count * Step.allCases.count)
        #expect(sequence.count == pairs.count + 1)
    }

    @Test func everyPairOfEventsLeavesStateAndSoundAgreeing() throws {
        let (daemon, sink, heard) = try DaemonHarness.playingOnPacedSink()
        defer { try? sink.stop() }
        let client = try MPDConnection(socket: daemon.socket)

        var paused = false
        var flip = false
        var path: [String] = []
        for symbol in Self.everyPair(Step.allCases.count) {
            guard let step = Step(rawValue: symbol) else { continue }
            path.append(String(describing: step))
            flip.toggle()
            let before = try client.dictionary("status")
            switch step {
            case .play:
                try client.run("play")
                paused = false
            case .pause:
                try client.run("pause 1")
                paused = true
            case .next:
                try client.run("next")
                paused = false
            case .previous:
                try client.run("previous")
                paused = false
            case .seek:
                try client.run(flip ? "seekcur +2" : "seekcur -1")
            case .volume:
                try client.run(flip ? "volume +5" : "volume -5")
            case .trackEnd:
                let duration = Double(before["duration"] ?? "") ?? 8
                try client.run("seekcur \(max(0, duration - 0.6))")
                if !paused {
                    // Playing, the track now ends by itself within a second and the next one follows.
                    let moved = DaemonHarness.wait(seconds: 8) {
                        let now = try? client.dictionary("status")
                        return now?["songid"] != nil && now?["songid"] != before["songid"]
                    }
                    #expect(moved, "the track did not end: \(path)")
                }
            }
            let where_ = path.suffix(2).joined(separator: ", ")
            let state = paused ? "pause" : "play"
            let flag = paused ? "1" : "0"
            var status: [String: String] = [:]
            let agreed = DaemonHarness.wait(seconds: 5) {
                status = (try? client.dictionary("status")) ?? [:]
                return status["state"] == state && status["x-player-paused"] == flag
                    && status["x-output-paused"] == flag
            }
            #expect(agreed, "after \(where_): expected \(state), status says \(status)")
            if paused {
                #expect(heard.waitForSilence(), "after \(where_): reported paused, but music is heard")
            } else {
                #expect(heard.waitForSound(), "after \(where_): reported playing, but nothing is heard")
            }
        }
        #expect(path.count == 50)
        #expect(daemon.stop() == 0)
    }
}
