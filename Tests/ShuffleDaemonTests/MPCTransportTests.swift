import Foundation
import ShuffleTestSupport
import Testing

/// Debian's `mpc` against the running daemon on a device that keeps real time: whatever the order of
/// pause, play, next and previous, the state `status` reports is what the listener hears.
@Suite(
    .serialized,
    .enabled(if: DaemonHarness.canPlayForMPC, "needs root (mount), lame, pulseaudio and Debian's mpc"))
struct MPCTransportTests {
    /// The `[playing]`/`[paused]` word of `mpc status`, or "stopped".
    static func mpcState(_ daemon: DaemonHarness) -> String {
        guard let out = try? daemon.mpc(["status"]).stdout else { return "unreachable" }
        if out.contains("[playing]") { return "playing" }
        if out.contains("[paused]") { return "paused" }
        return "stopped"
    }

    /// Runs `mpc ARGS` and checks that the state it then reports is `state`, and that the sound agrees.
    func step(
        _ daemon: DaemonHarness, _ heard: HeardAudio, _ arguments: [String], expect state: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let result = try daemon.mpc(arguments)
        #expect(result.status == 0, "mpc \(arguments): \(result.stderr)", sourceLocation: sourceLocation)
        #expect(Self.mpcState(daemon) == state, "after mpc \(arguments)", sourceLocation: sourceLocation)
        #expect(daemon.state() == state, "status --json after mpc \(arguments)", sourceLocation: sourceLocation)
        if state == "playing" {
            #expect(
                heard.waitForSound(), "reported playing after mpc \(arguments) but silent",
                sourceLocation: sourceLocation)
        } else {
            #expect(
                heard.waitForSilence(), "reported paused after mpc \(arguments) but music is heard",
                sourceLocation: sourceLocation)
        }
    }

    /// The sequences of issue 14: `pause`, `next`, `play` left the box silent while saying "playing";
    /// `pause`, `previous` did the same and inverted play and pause from then on.
    @Test func pauseThenSkipThenPlayIsHeardAndPlayAndPauseStayTheRightWayRound() throws {
        let (daemon, sink, heard) = try DaemonHarness.playingOnPacedSink()
        defer { try? sink.stop() }

        try step(daemon, heard, ["pause"], expect: "paused")
        try step(daemon, heard, ["next"], expect: "playing")
        try step(daemon, heard, ["play"], expect: "playing")

        try step(daemon, heard, ["pause"], expect: "paused")
        try step(daemon, heard, ["prev"], expect: "playing")
        try step(daemon, heard, ["pause"], expect: "paused")
        try step(daemon, heard, ["play"], expect: "playing")
        try step(daemon, heard, ["toggle"], expect: "paused")
        try step(daemon, heard, ["toggle"], expect: "playing")

        // Disabling the one output mutes the box (still playing); enabling it brings the sound back.
        #expect(try daemon.mpc(["disable", "1"]).status == 0)
        let disabled = try daemon.mpc(["outputs"]).stdout
        #expect(disabled.contains("is disabled"), "\(disabled)")
        #expect(heard.waitForSilence(), "a disabled output is silent")
        #expect(daemon.state() == "playing")
        #expect(try daemon.mpc(["enable", "1"]).status == 0)
        #expect(heard.waitForSound(), "enabled again, it is heard")
        #expect(daemon.stop() == 0)
    }
}
