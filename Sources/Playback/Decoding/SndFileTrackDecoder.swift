import LibSndFile

/// PCM in WAV and AIFF through libsndfile: every sample exact at the file's own depth (8- and 16-bit as 16-bit,
/// 24- and 32-bit as left-justified 32-bit words), floating point rounded to 16-bit as `ffmpeg -f s16le` rounds
/// it (as FFmpeg's adapter did before); seeks exact. No FFmpeg for these files: loading it maps every codec
/// library FFmpeg was built with (README, "Formats").
final class SndFileTrackDecoder: TrackDecoder {
    private let decoder = SndFileDecoder()
    /// Whether the open file holds floating-point samples.
    private var isFloat = false
    private var format = StreamFormat(sampleRate: 0, channels: 0, bitsPerSample: 16)
    /// Floating-point samples read, before rounding (sized once for the largest period asked for).
    private var floats: [Float] = []

    func open(path: [UInt8]) throws(DecodeFailure) -> StreamFormat {
        let source: SndFileFormat
        do throws(SndFileError) {
            source = try decoder.open(path: path)
        } catch { throw DecodeFailure(error) }
        isFloat = source.isFloat
        let bits = source.isFloat || source.bitsPerSample <= 16 ? 16 : source.bitsPerSample
        format = StreamFormat(sampleRate: source.sampleRate, channels: source.channels, bitsPerSample: bits)
        return format
    }

    func read(into buffer: inout SampleBuffer) throws(DecodeFailure) -> DecodeStep {
        let frames: Int
        do throws(SndFileError) {
            if isFloat {
                let samples = buffer.capacityFrames * format.channels
                if floats.count < samples { floats = [Float](repeating: 0, count: samples) }
                frames = try decoder.read(into: &floats, frames: buffer.capacityFrames)
                SampleConversion.roundFloatTo16(floats, into: &buffer.narrow, count: frames * format.channels)
            } else if format.isWide {
                frames = try decoder.read(into: &buffer.wide, frames: buffer.capacityFrames)
            } else {
                frames = try decoder.read(into: &buffer.narrow, frames: buffer.capacityFrames)
            }
        } catch { throw DecodeFailure(error) }
        return frames > 0 ? .frames(frames) : .done
    }

    func seek(toFrame frame: Int) throws(DecodeFailure) -> Int {
        do throws(SndFileError) { return try decoder.seek(toFrame: frame) } catch { throw DecodeFailure(error) }
    }

    func close() { decoder.close() }
}

extension DecodeFailure {
    init(_ error: SndFileError) { self.init(description: error.description, systemError: error.systemError) }
}
