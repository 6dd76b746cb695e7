import HelperWire
import Foundation
import Glibc
import ShuffleTestSupport
import Testing

@testable import Playback

/// AAC and ALAC are decoded by FFmpeg in `shufflebox-decoder`, the real program built beside these tests: the
/// player survives it crashing, hanging or missing, each time with a sentence naming the decoder and the file.
@Suite(
    .serialized,
    .enabled(if: AudioFixtures.missingTool(for: .aac) == nil, "needs ffmpeg (scripts/install-deps test installs it)"))
struct DecoderProcessTests {
    private func path(_ url: URL) -> [UInt8] { Array(url.path.utf8) }

    /// Reads frames until `count` are out or the stream ends.
    private func readFrames(_ decoder: any TrackDecoder, format: StreamFormat, count: Int) throws -> Int {
        var buffer = SampleBuffer()
        buffer.reserve(frames: 1024, for: format)
        var total = 0
        while total < count {
            guard case .frames(let n) = try decoder.read(into: &buffer) else { break }
            total += n
        }
        return total
    }

    @Test func aDecoderThatCrashesMidTrackCostsThatTrackAndTheNextFileStartsANewOne() throws {
        let folder = try TemporaryDirectory()
        let first = try AudioFixtures.make(.init(.aac, seconds: 2), in: folder.url, name: "first")
        let second = try AudioFixtures.make(.init(.alac, seconds: 0.5), in: folder.url, name: "second")
        let decoders = try DecoderSet()
        let opened = try decoders.open(path: path(first))
        #expect(try readFrames(opened.decoder, format: opened.format, count: 10_000) >= 10_000)
        let crashed = try #require(decoders.decoderProcessID)
        // As the kernel ends a process that faults or runs out of memory (a SIGSEGV sent by another process
        // would only meet the Swift runtime's backtracer, which prints and carries on).
        kill(crashed, SIGKILL)
        // What was already sent over still plays; then the read fails, naming what happened and the file.
        var failure: DecodeFailure?
        do {
            _ = try readFrames(opened.decoder, format: opened.format, count: 200_000)
        } catch let error as DecodeFailure {
            failure = error
        }
        let said = try #require(failure).description
        #expect(said.contains("stopped (killed by signal 9"), "\(said)")
        #expect(said.contains(first.path), "\(said)")
        #expect(failure?.cause == .noAudio)
        #expect(kill(crashed, 0) == -1 && errno == ESRCH, "the crashed decoder was reaped")
        let next = try decoders.open(path: path(second))
        #expect(try readFrames(next.decoder, format: next.format, count: .max) == AudioFixtures.Spec(.alac, seconds: 0.5).frames)
        #expect(decoders.decoderProcessID != nil && decoders.decoderProcessID != crashed)
    }

    @Test func aDecoderThatHangsIsEndedAfterItsTimeAndTheNextFilePlays() throws {
        let folder = try TemporaryDirectory()
        let file = try AudioFixtures.make(.init(.aac, seconds: 1), in: folder.url, name: "tone")
        let decoders = try DecoderSet(decoderTimeoutMs: 300)
        let opened = try decoders.open(path: path(file))
        let hung = try #require(decoders.decoderProcessID)
        kill(hung, SIGSTOP)
        #expect {
            try readFrames(opened.decoder, format: opened.format, count: .max)
        } throws: { error in
            "\(error)".contains("did not answer within") && "\(error)".contains(file.path)
        }
        #expect(kill(hung, 0) == -1 && errno == ESRCH, "the hung decoder was killed and reaped")
        let again = try decoders.open(path: path(file))
        #expect(try readFrames(again.decoder, format: again.format, count: .max) == AudioFixtures.Spec(.aac, seconds: 1).frames)
    }

    @Test func aMissingDecoderProgramSaysWhatToDo() throws {
        let folder = try TemporaryDirectory()
        let file = try AudioFixtures.make(.init(.aac, seconds: 0.3), in: folder.url, name: "tone")
        let decoders = try DecoderSet(decoderProgram: folder.appending("no-such-decoder").path)
        #expect {
            try decoders.open(path: path(file))
        } throws: { error in
            "\(error)".contains("cannot start") && "\(error)".contains("reinstall Shufflebox")
        }
    }

    @Test func theDecoderProcessStartsWhenAnMP4IsNextAndNotForOtherFiles() throws {
        let folder = try TemporaryDirectory()
        let flac = try AudioFixtures.make(.init(.flac, seconds: 0.3), in: folder.url, name: "tone")
        let aac = try AudioFixtures.make(.init(.aac, seconds: 0.3), in: folder.url, name: "tone")
        let decoders = try DecoderSet()
        decoders.prepare(path: path(flac))
        #expect(decoders.decoderProcessID == nil)
        decoders.prepare(path: path(aac))
        #expect(decoders.decoderProcessID != nil)
    }

    @Test func theDecoderRefusesToRunByHand() throws {
        let run = try Run.program(HelperProcess.besideExecutable("shufflebox-decoder"), [])
        #expect(run.status == 2)
        #expect(run.stderr.contains("not to be run by hand"))
    }
}

/// The socket's messages: a header that claims too much, or is no message of ours, is refused before anything
/// is read; an end mid-message is `closed`, an end between messages is a clean end.
@Suite struct WireChannelTests {
    private func pair() -> (WireChannel, WireChannel) {
        var fds: [Int32] = [-1, -1]
        precondition(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
        return (WireChannel(fd: fds[0]), WireChannel(fd: fds[1]))
    }

    private func raw(_ channel: WireChannel, _ values: [Int64]) {
        _ = values.withUnsafeBytes { write(channel.fd, $0.baseAddress, $0.count) }
    }

    @Test func aMessageCrossesWhole() throws {
        let (a, b) = pair()
        defer { close(a.fd); close(b.fd) }
        let message = WireMessage(.failure, a: 5, b: -1, c: 7, payload: Array("no audio (x.m4a)".utf8))
        try a.send(message)
        #expect(try b.receive(timeoutMs: 1000) == message)
    }

    @Test func aLengthBeyondTheBoundIsRefusedUnread() {
        let (a, b) = pair()
        defer { close(a.fd); close(b.fd) }
        raw(a, [WireMessage.Kind.samples.rawValue, 1, 2, 0, Int64(WireMessage.maxPayload) + 1])
        #expect(throws: WireError.self) { try b.receive(timeoutMs: 1000) }
        raw(a, [WireMessage.Kind.samples.rawValue, 1, 2, 0, -4])
        #expect(throws: WireError.self) { try b.receive(timeoutMs: 1000) }
    }

    @Test func anUnknownKindIsRefused() {
        let (a, b) = pair()
        defer { close(a.fd); close(b.fd) }
        raw(a, [99, 0, 0, 0, 0])
        #expect(throws: WireError.malformed("unknown message kind 99")) { try b.receive(timeoutMs: 1000) }
    }

    @Test func anEndMidMessageIsClosedAndBetweenMessagesIsTheEnd() throws {
        let (a, b) = pair()
        defer { close(b.fd) }
        raw(a, [WireMessage.Kind.failure.rawValue, 0, 0, 0, 100])
        _ = [UInt8](repeating: 1, count: 10).withUnsafeBytes { write(a.fd, $0.baseAddress, $0.count) }
        close(a.fd)
        #expect(throws: WireError.closed) { try b.receive(timeoutMs: 1000) }
        #expect(try b.receive(timeoutMs: 1000) == nil)
    }

    @Test func silenceIsATimeout() {
        let (a, b) = pair()
        defer { close(a.fd); close(b.fd) }
        #expect(throws: WireError.timedOut) { try b.receive(timeoutMs: 50) }
    }
}
