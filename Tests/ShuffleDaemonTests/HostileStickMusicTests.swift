import Foundation
import ShuffleTestSupport
import Testing

/// First music from a stick whose first files are huge sparse streams: the frame walk is bounded and the
/// first playable track is written while the walk goes on, so they hold nothing back.
@Suite(.serialized, .enabled(if: DaemonHarness.canMount && TestLibrary.isAvailable, "needs root (mount) and lame"))
struct HostileStickMusicTests {
    @Test func twoEightGiBSparseFilesBesideTheTracksDoNotHoldBackTheFirstSample() throws {
        let daemon = try DaemonHarness()
        let library = daemon.directory.appending("hostile-library")
        try FileManager.default.copyItem(at: try DaemonHarness.library(tracks: 20, seconds: 2), to: library)
        for name in ["000 huge one", "000 huge two"] {
            let url = try HostileFiles.eightGiBStream.write(in: library)
            try FileManager.default.moveItem(at: url, to: library.appendingPathComponent("\(name).mp3"))
        }
        try daemon.start()
        let plugged = Date()
        try daemon.plug(library)
        let played = DaemonHarness.wait(seconds: 10) {
            ((try? FileManager.default.attributesOfItem(atPath: daemon.capture.path))?[.size] as? Int ?? 0) > 0
        }
        #expect(played, "no audio within 10 s of the mount:\n\(daemon.log)")
        print("hostile stick: first audio \(Int(Date().timeIntervalSince(plugged) * 1000)) ms after the mount")
        #expect(daemon.stop() == 0)
    }
}
