internal import Glibc
import HelperWire
import LibPThread
import ShuffleCore

/// Decodes a track in full and measures its loudness: `LoudnessMeasurer` in this process, or
/// `LoudnessHelper` in a process of its own.
public protocol TrackLoudnessMeasuring: AnyObject {
    /// The track's loudness; nil when `isCancelled` said stop. Throws when it cannot be decoded or read.
    func measure(path: [UInt8], isCancelled: () -> Bool) throws -> TrackLoudness?
    /// Seconds of audio decoded so far, over every track.
    var decodedSeconds: Double { get }
}

extension LoudnessMeasurer: TrackLoudnessMeasuring {}

/// The loudness scan's decoding in a process of its own: `shufflebox measure-loudness`, the same executable
/// as the daemon (its code pages are the daemon's own, shared), started for a pass and ended with it.
///
/// Why apart: the scan decodes every untagged track of a stick, one after the other, in every format, so it
/// is where a hostile file meets the decoders most; a crash or a hang costs that track (measured as failed,
/// not tried again until the file changes), never the player. And the five decoders' state, libebur128's and
/// the pages of decoder code the scan touches stay out of the daemon, whose resting size is what a box on a
/// small board keeps.
///
/// The helper says how far it got every `progressFrames` (a few seconds of audio, milliseconds of work): the
/// scan's cancellation is heard then, and a helper silent for `timeoutMs` is taken to hang and is ended.
public final class LoudnessHelper: TrackLoudnessMeasuring {
    /// The word after the program's name that makes `shufflebox` the helper.
    public static let argument = "measure-loudness"
    /// How often the helper reports, in frames decoded.
    static let progressFrames = 65_536
    private let process: HelperProcess
    public private(set) var decodedSeconds = 0.0

    /// A helper that is `program measure-loudness` (by default the running executable, `shufflebox`).
    public init(program: String = HelperProcess.besideExecutable("shufflebox"), timeoutMs: Int32 = 60_000) {
        process = HelperProcess(
            program: program, arguments: [Self.argument], role: "the loudness scan's decoder", timeoutMs: timeoutMs)
    }

    /// Ends the process (the pass is over).
    public func end() { process.end() }

    /// The process's id while it runs (tests end it to see the scan carry on).
    public var processID: Int32? { process.processID }

    public func measure(path: [UInt8], isCancelled: () -> Bool) throws -> TrackLoudness? {
        let file = String(decoding: path, as: UTF8.self)
        if !process.isRunning {
            do throws(HelperFailure) { try process.start() } catch {
                // Not this track's fault: the pass stops, and the next one tries again.
                throw LoudnessMeasurementError(description: error.description, unreadable: true)
            }
        }
        var reply: HelperProcess.Reply
        do throws(HelperFailure) {
            reply = try process.ask(WireMessage(.measure, payload: path), file: file)
            while reply.kind == .progress {
                if isCancelled() {
                    // Mid-file: the process is ended rather than waited for (a long file on a stick being pulled).
                    process.end()
                    return nil
                }
                reply = try process.next(file: file)
            }
        } catch {
            // It crashed, hung or answered nonsense on this file: the track failed, the next starts a new helper.
            throw LoudnessMeasurementError(description: error.description, unreadable: false)
        }
        switch reply.kind {
        case .loudness:
            guard reply.payload.count == 3 * MemoryLayout<Double>.size else { break }
            let values = reply.payload.withUnsafeBytes { bytes in
                (0..<3).map { bytes.loadUnaligned(fromByteOffset: $0 * 8, as: Double.self) }
            }
            guard values[2].isFinite, values[2] >= 0 else { break }
            decodedSeconds += values[2]
            return TrackLoudness(
                integratedLUFS: values[0].isFinite ? values[0] : nil, truePeak: values[1].isFinite ? values[1] : nil)
        case .failure:
            throw LoudnessMeasurementError(
                description: String(decoding: reply.payload, as: UTF8.self), unreadable: reply.a != 0)
        default: break
        }
        process.end()
        throw LoudnessMeasurementError(
            description: "the loudness scan's decoder answered a \(reply.kind) of \(reply.length) bytes and was ended "
                + "(\(file))", unreadable: false)
    }

    /// The helper's end: serves `measure` requests on its standard input until the scan closes it, at the
    /// lowest priority, as the scan's thread ran. Started by hand it says what it is for and exits.
    public static func serve() -> Never {
        let name = "shufflebox \(argument)"
        let channel = HelperSide.playerChannel(name, purpose: "measures the loudness of tracks")
        _ = PThread.lowerCurrentThreadPriority()
        guard let measurer = try? LoudnessMeasurer() else {
            HelperSide.complain(name, "the MP3 decoder cannot start (reinstall Shufflebox)")
            exit(1)
        }
        HelperSide.finish(name) { () throws(WireError) in
            do throws(WireError) { try serve(channel, with: measurer) } catch .closed {
                // The scan ended the pass, or cancelled it, mid-file: nothing to say.
            }
        }
    }

    private static func serve(_ channel: WireChannel, with measurer: LoudnessMeasurer) throws(WireError) {
        while let request = try channel.receive() {
            guard request.kind == .measure else {
                throw .malformed("a \(request.kind) request (this helper only measures)")
            }
            try measure(request.payload, with: measurer, on: channel)
        }
    }

    private static func measure(_ path: [UInt8], with measurer: LoudnessMeasurer, on channel: WireChannel)
        throws(WireError)
    {
        let before = measurer.decodedFrames
        let secondsBefore = measurer.decodedSeconds
        var reported = before
        var sendFailure: WireError?
        let result: Result<TrackLoudness?, any Error> = Result {
            try measurer.measure(path: path) {
                guard measurer.decodedFrames - reported >= progressFrames else { return false }
                reported = measurer.decodedFrames
                do throws(WireError) {
                    try channel.send(WireMessage(.progress, a: Int64(measurer.decodedFrames - before)))
                    return false
                } catch {
                    // The scan went away: stop decoding.
                    sendFailure = error
                    return true
                }
            }
        }
        if let sendFailure { throw sendFailure }
        switch result {
        case .success(let loudness):
            guard let loudness else { throw .closed }
            let seconds = measurer.decodedSeconds - secondsBefore
            let values = [loudness.integratedLUFS ?? .nan, loudness.truePeak ?? .nan, seconds]
            try channel.send(WireMessage(.loudness, payload: values.withUnsafeBytes { Array($0) }))
        case .failure(let error):
            let unreadable = (error as? LoudnessMeasurementError)?.unreadable ?? false
            try channel.send(WireMessage(.failure, a: unreadable ? 1 : 0, payload: Array("\(error)".utf8)))
        }
    }
}
