import LibEBUR128
import ShuffleCore

/// Measures a track's EBU R128 integrated loudness and true peak (libebur128) from one decode of the file,
/// with the same decoder adapters the audio thread plays it with (so Opus's header gain, gapless trims and
/// every format's quirks are measured as heard). Owned by one thread: the background loudness scan.
public final class LoudnessMeasurer {
    private let decoders: DecoderSet
    private var buffer = SampleBuffer()
    private static let chunkFrames = 4096
    /// Audio frames decoded so far, over every file (for throughput figures).
    public private(set) var decodedFrames = 0
    /// Seconds of audio decoded so far.
    public private(set) var decodedSeconds = 0.0

    /// Makes the decoders (fails when the MP3 decoder cannot start).
    public init() throws {
        do {
            decoders = try DecoderSet()
        } catch {
            throw LoudnessMeasurementError(description: error.description, unreadable: false)
        }
    }

    /// Decodes `path` in full and measures it; nil when `isCancelled` said stop (checked between chunks).
    /// Throws when the file cannot be decoded or read.
    public func measure(path: [UInt8], isCancelled: () -> Bool = { false }) throws -> TrackLoudness? {
        defer { decoders.closeAll() }
        let opened: (decoder: any TrackDecoder, format: StreamFormat)
        do {
            opened = try decoders.open(path: path)
        } catch {
            throw LoudnessMeasurementError(description: error.description, unreadable: error.systemError != nil)
        }
        var format = opened.format
        buffer.reserve(frames: Self.chunkFrames, for: format)
        var meter = try LoudnessMeter(channels: format.channels, sampleRate: format.sampleRate)
        while true {
            if isCancelled() { return nil }
            let step: DecodeStep
            do {
                step = try opened.decoder.read(into: &buffer)
            } catch {
                throw LoudnessMeasurementError(description: error.description, unreadable: error.systemError != nil)
            }
            switch step {
            case .frames(let frames):
                if format.isWide {
                    try meter.add(buffer.wide, frames: frames)
                } else {
                    try meter.add(buffer.narrow, frames: frames)
                }
                decodedFrames += frames
                decodedSeconds += Double(frames) / Double(format.sampleRate)
            case .newFormat(let changed):
                format = changed
                buffer.reserve(frames: Self.chunkFrames, for: format)
                try meter.change(channels: format.channels, sampleRate: format.sampleRate)
            case .done:
                let integrated = try meter.integratedLoudness()
                let peak = try meter.truePeak()
                return TrackLoudness(
                    integratedLUFS: integrated.isFinite ? integrated : nil, truePeak: peak.isFinite ? peak : nil)
            }
        }
    }
}

/// A track that could not be measured: the decoder's sentence, and whether the medium could not be read
/// (a pulled stick: try again later) rather than the file holding no audio.
public struct LoudnessMeasurementError: Error, Sendable, CustomStringConvertible {
    /// The sentence.
    public var description: String
    /// Whether reading failed (rather than decoding).
    public var unreadable: Bool
}
