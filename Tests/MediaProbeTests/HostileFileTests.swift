import Foundation
import ShuffleCore
import ShuffleTestSupport
import Testing

@testable import MediaProbe

/// Sparse files that claim gigabyte tags: the probe reads what it chooses to, never what the file claims.
@Suite struct HostileFileTests {
    let folder: TemporaryDirectory

    init() throws { folder = try TemporaryDirectory(prefix: "shufflebox-hostile") }

    @Test(arguments: HostileFiles.all)
    func aHugeClaimedLengthIsNeverAllocatedOrRead(_ hostile: HostileFiles.Case) throws {
        let url = try hostile.write(in: folder.url)
        let (outcome, reads, _) = MediaProbe.measuredProbe(path: PathBytes(url.path))
        #expect(reads.largest <= ByteSource.maxRead, "one read of \(reads.largest) bytes")
        #expect(reads.total <= 4 * ByteSource.maxRead, "\(reads.total) bytes read in all")
        if hostile.isPlayable {
            guard case .audio(_, let stream) = outcome else {
                Issue.record("\(hostile.name): \(outcome)")
                return
            }
            #expect(stream.frames == Int64(HostileFiles.framesPerFile * 1152))
        } else {
            guard case .unplayable = outcome else {
                Issue.record("\(hostile.name): \(outcome)")
                return
            }
        }
    }

    @Test func aFrameWalkIntoAnEightGiBHoleStopsWhereTheDecoderGivesUp() throws {
        // 40 frames, then 8 GiB of zeros: libmpg123 resyncs 64 KiB at a time and the player's decoder gives up
        // after 9 failed reads, so the 40 frames are the track, and the walk reads about as far.
        let url = try HostileFiles.eightGiBStream.write(in: folder.url)
        let (outcome, reads, _) = MediaProbe.measuredProbe(path: PathBytes(url.path))
        guard case .audio(_, let stream) = outcome else {
            Issue.record("\(outcome)")
            return
        }
        #expect(!stream.isEstimate)
        #expect(stream.frames == Int64(HostileFiles.framesPerFile * 1152))
        let walked = MPEGFrameWalk.failedReadsToEnd * MPEGFrameWalk.resyncLimit
        #expect(reads.total <= walked + 4 * ByteSource.maxRead, "\(reads.total) bytes read")
    }

    @Test func aStreamLongerThanTheWalkBudgetGetsAnEstimateFromWhatWasWalked() throws {
        let frames = ByteSource.defaultWalkBudget / 417 + 2000
        guard case .audio(_, let stream) = MediaProbe.probe(bytes: MP3Builder.frames(frames), fileName: "long.mp3")
        else {
            Issue.record("not audio")
            return
        }
        #expect(stream.isEstimate)
        #expect(abs(stream.frames - Int64(frames * 1152)) <= Int64(frames * 1152) / 100)
    }

    @Test func theFullProbeCountsWhatTheFirstProbeEstimated() throws {
        let frames = ByteSource.defaultWalkBudget / 417 + 2000
        let url = folder.url.appendingPathComponent("long.mp3")
        try Data(MP3Builder.frames(frames)).write(to: url)
        guard case .audio(_, let first) = MediaProbe.probe(path: PathBytes(url.path)),
            case .audio(_, let full) = MediaProbe.probeInFull(path: PathBytes(url.path), isCancelled: { false })
        else {
            Issue.record("not audio")
            return
        }
        #expect(first.isEstimate)
        #expect(!full.isEstimate)
        #expect(full.frames == Int64(frames * 1152))
    }

    @Test func aCancelledFullProbeGivesNoAnswerRatherThanAShortCount() throws {
        let frames = ByteSource.defaultWalkBudget / 417 + 2000
        let url = folder.url.appendingPathComponent("long-cancelled.mp3")
        try Data(MP3Builder.frames(frames)).write(to: url)
        final class Asked { var count = 0 }
        let asked = Asked()
        // Stopped a few hundred blocks into the walk, as a pulled stick or a new one stops it.
        let outcome = MediaProbe.probeInFull(path: PathBytes(url.path)) {
            asked.count += 1
            return asked.count > 300
        }
        #expect(outcome == nil)
        #expect(asked.count == 301, "no read is asked for once it said stop")
    }

    @Test func aStreamWithinTheBudgetIsCountedExactly() throws {
        let bytes = MP3Builder.frames(200)
        guard case .audio(_, let stream) = MediaProbe.probe(bytes: bytes, fileName: "exact.mp3") else {
            Issue.record("not audio")
            return
        }
        #expect(!stream.isEstimate)
        #expect(stream.frames == 200 * 1152)
    }

    @Test func anAPEItemClaimingTheWholeTagIsSkippedAndTheItemsBeforeItAreKept() throws {
        let url = try HostileFiles.apeTagClaimingAGibibyteWithHeader.write(in: folder.url)
        guard case .audio(let tags, _) = MediaProbe.probe(path: PathBytes(url.path)) else {
            Issue.record("not audio")
            return
        }
        #expect(tags.title == "Hostile APE")
    }

    @Test func aTextFrameAfterAnUnsynchronisedPictureBeyondTheFirstMiBEndsTheWalkButKeepsWhatCameBefore() {
        let title = MP3Builder.text("Before", encoding: 0)
        let picture = [UInt8](repeating: 0x41, count: 2 * ByteSource.maxRead)
        let after = MP3Builder.text("After", encoding: 0)
        let tag = MP3Builder.id3v2(
            major: 3, [("TIT2", title), ("APIC", picture), ("TPE1", after)], flags: 0x80)
        guard case .audio(let tags, _) = MediaProbe.probe(bytes: tag + MP3Builder.frames(6), fileName: "u.mp3") else {
            Issue.record("not audio")
            return
        }
        #expect(tags.title == "Before")
        #expect(tags.artist == nil)
    }

    @Test func aTagOfTensOfThousandsOfEmptyFramesIsWalkedOnlySoFar() {
        let empty = Array("TXXX".utf8) + [0, 0, 0, 0, 0, 0]
        let frames = [UInt8](Array(repeating: empty, count: 50_000).joined())
        let title = MP3Builder.id3v2(major: 3, [("TIT2", MP3Builder.text("Late", encoding: 0))])
        let body = frames + title.dropFirst(10)
        let tag = [0x49, 0x44, 0x33, 3, 0, 0] + MP3Builder.syncsafe(body.count) + body
        guard case .audio(let tags, _) = MediaProbe.probe(bytes: tag + MP3Builder.frames(6), fileName: "Many.mp3")
        else {
            Issue.record("not audio")
            return
        }
        // The title frame comes after the frame limit: not read, so the file name stands in.
        #expect(tags.title == "Many")
    }
}
