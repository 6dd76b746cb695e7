import Foundation
import ShuffleTestSupport
import Testing

/// `play` on files whose tags are huge: the decoder skips them by seeking, so memory stays small.
@Suite struct HostilePlaybackTests {
    @Test(.enabled(if: Run.canMeasurePeakMemory, "needs GNU time (scripts/install-deps test)"))
    func aTwoHundredMiBID3TagInFrontOfTheAudioIsSkippedNotRead() throws {
        let scratch = try TemporaryDirectory(prefix: "hostile-play")
        let stick = scratch.appending("stick")
        try FileManager.default.createDirectory(at: stick, withIntermediateDirectories: true)
        try HostileFiles.id3TagOf200MiBBeforeTheAudio.write(in: stick)
        let capture = scratch.appending("capture.raw")
        let (result, peakKiB) = try Run.shuffleboxMeasuringPeakMemory(
            ["play", stick.path, "--db", scratch.path + "/library.db", "--device", "capture", "--once"],
            environment: ALSATestDevices.captureEnvironment(file: capture))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("id3-200mib-tag.mp3"), "\(result.stdout)")
        let played = (try? Data(contentsOf: capture).count) ?? 0
        #expect(played == HostileFiles.framesPerFile * 1152 * 4, "every sample of the audio after the tag")
        #expect(peakKiB < 64 * 1024, "play peaked at \(peakKiB) KiB")
    }
}
