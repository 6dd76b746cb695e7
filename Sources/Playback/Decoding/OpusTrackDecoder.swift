import LibOpus

/// Ogg Opus through libopusfile: 48 kHz, pre-skip and end trim honoured, as `opusdec`. 16-bit.
final class OpusTrackDecoder: TrackDecoder {
    private var decoder = OpusDecoder()

    func open(path: [UInt8]) throws(DecodeFailure) -> StreamFormat {
        do throws(OpusError) {
            let shape = try decoder.open(path: path)
            return StreamFormat(sampleRate: shape.sampleRate, channels: shape.channels, bitsPerSample: 16)
        } catch { throw DecodeFailure(error) }
    }

    func read(into buffer: inout SampleBuffer) throws(DecodeFailure) -> DecodeStep {
        do throws(OpusError) {
            let frames = try decoder.read(into: &buffer.narrow, frames: buffer.capacityFrames)
            return frames > 0 ? .frames(frames) : .done
        } catch { throw DecodeFailure(error) }
    }

    func seek(toFrame frame: Int) throws(DecodeFailure) -> Int {
        do throws(OpusError) { return try decoder.seek(toFrame: frame) } catch { throw DecodeFailure(error) }
    }

    func close() { decoder.close() }
}

extension DecodeFailure {
    init(_ error: OpusError) { self.init(description: error.description, systemError: error.systemError) }
}
