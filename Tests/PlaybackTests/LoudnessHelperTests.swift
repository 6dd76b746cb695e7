import Foundation
import Glibc
import HelperWire
import ShuffleCore
import ShuffleTestSupport
import Testing

@testable import Playback

/// The loudness scan decodes in `shufflebox measure-loudness`, the real program built beside these tests: it
/// measures what the measurer in this process measures, and a helper that crashes costs one track, a
/// cancelled pass ends it mid-file, a missing one stops the pass.
@Suite(
    .serialized,
    .enabled(if: AudioFixtures.missingTool(for: .flac) == nil, "needs flac (scripts/install-deps test installs it)"))
struct LoudnessHelperTests {
    private func path(_ url: URL) -> [UInt8] { Array(url.path.utf8) }

    @Test func theHelperMeasuresExactlyWhatTheMeasurerInThisProcessMeasures() throws {
        let folder = try TemporaryDirectory()
        let files = [
            try AudioFixtures.make(.init(.flac, rate: 48_000, bits: 24, seconds: 3), in: folder.url, name: "wide"),
            try AudioFixtures.make(.init(.flac, channels: 1, seconds: 1), in: folder.url, name: "mono"),
        ]
        let here = try LoudnessMeasurer()
        let helper = LoudnessHelper()
        defer { helper.end() }
        for file in files {
            let expected = try #require(try here.measure(path: path(file)))
            #expect(expected.integratedLUFS != nil)
            let measured = try helper.measure(path: path(file), isCancelled: { false })
            #expect(measured == expected, "\(file.lastPathComponent)")
        }
        #expect(helper.decodedSeconds == here.decodedSeconds)
        #expect(abs(helper.decodedSeconds - 4) < 0.01)
        let pid = try #require(helper.processID)
        helper.end()
        #expect(kill(pid, 0) == -1 && errno == ESRCH, "the pass's end ends and reaps the helper")
    }

    @Test func aHelperThatCrashesMidFileCostsThatTrackAndTheNextStartsANewOne() throws {
        let folder = try TemporaryDirectory()
        let long = try AudioFixtures.make(.init(.flac, seconds: 8), in: folder.url, name: "long")
        let short = try AudioFixtures.make(.init(.flac, seconds: 1), in: folder.url, name: "short")
        let helper = LoudnessHelper()
        defer { helper.end() }
        var crashed: Int32?
        var failure: LoudnessMeasurementError?
        do {
            // The first progress report: the helper is mid-file. Ended as the kernel ends a process that faults.
            _ = try helper.measure(path: path(long)) {
                if crashed == nil, let pid = helper.processID {
                    crashed = pid
                    kill(pid, SIGKILL)
                }
                return false
            }
        } catch let error as LoudnessMeasurementError {
            failure = error
        }
        let said = try #require(failure)
        #expect(said.description.contains("stopped (killed by signal 9"), "\(said)")
        #expect(said.description.contains(long.path), "\(said)")
        #expect(!said.unreadable, "a crash fails the track; it is not a pulled stick")
        let pid = try #require(crashed)
        #expect(kill(pid, 0) == -1 && errno == ESRCH, "the crashed helper was reaped")
        #expect(try helper.measure(path: path(short), isCancelled: { false })?.integratedLUFS != nil)
        #expect(helper.processID != nil && helper.processID != pid)
    }

    @Test func aCancelledPassEndsTheHelperMidFile() throws {
        let folder = try TemporaryDirectory()
        let long = try AudioFixtures.make(.init(.flac, seconds: 8), in: folder.url, name: "long")
        let helper = LoudnessHelper()
        defer { helper.end() }
        var pid: Int32?
        let measured = try helper.measure(path: path(long)) {
            pid = helper.processID
            return true
        }
        #expect(measured == nil)
        let ended = try #require(pid)
        #expect(helper.processID == nil)
        #expect(kill(ended, 0) == -1 && errno == ESRCH, "ended and reaped, not waited for")
    }

    @Test func aFileThatIsNoAudioFailsWithTheDecodersSentenceAndAMissingOneStopsThePass() throws {
        let folder = try TemporaryDirectory()
        let noise = folder.url.appendingPathComponent("noise.flac")
        try Data(repeating: 0x5A, count: 4096).write(to: noise)
        let helper = LoudnessHelper()
        defer { helper.end() }
        #expect {
            try helper.measure(path: path(noise), isCancelled: { false })
        } throws: { error in
            let failure = error as? LoudnessMeasurementError
            return failure?.unreadable == false && failure?.description.contains(noise.path) == true
        }
        #expect {
            try helper.measure(path: path(folder.url.appendingPathComponent("gone.flac")), isCancelled: { false })
        } throws: { error in
            (error as? LoudnessMeasurementError)?.unreadable == true
        }
        let missing = LoudnessHelper(program: folder.path + "/no-such-shufflebox")
        #expect {
            try missing.measure(path: path(noise), isCancelled: { false })
        } throws: { error in
            let failure = error as? LoudnessMeasurementError
            return failure?.unreadable == true && failure?.description.contains("reinstall Shufflebox") == true
        }
    }

    @Test func theHelperRefusesToRunByHand() throws {
        let run = try Run.program(HelperProcess.besideExecutable("shufflebox"), [LoudnessHelper.argument])
        #expect(run.status == 2)
        #expect(run.stderr.contains("not to be run by hand"), "\(run.stderr)")
    }
}
