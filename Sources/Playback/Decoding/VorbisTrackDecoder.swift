import LibVorbis

/// Ogg Vorbis through libvorbisfile: trimmed to the granule positions, as `oggdec`. 16-bit.
final class VorbisTrackDecoder: TrackDecoder {
    private let decoder = VorbisDecoder()
    private var channels = 2

    func open(path: [UInt8]) throws(DecodeFailure) -> StreamFormat {
        do throws(VorbisError) {
            let shape = try decoder.open(path: path)
            channels = shape.channels
            return StreamFormat(sampleRate: shape.sampleRate, channels: shape.channels, bitsPerSample: 16)
        } catch { throw DecodeFailure(error) }
    }

    func read(into buffer: inout SampleBuffer) throws(DecodeFailure) -> DecodeStep {
        do throws(VorbisError) {
            switch try decoder.read(into: &buffer.narrow, frames: buffer.capacityFrames) {
            case .frames(let count): return .frames(count)
            case .newFormat(let shape):
                channels = shape.channels
                return .newFormat(StreamFormat(sampleRate: shape.sampleRate, channels: shape.channels, bitsPerSample: 16))
            case .done: return .done
            }
        } catch { throw DecodeFailure(error) }
    }

    func seek(toFrame frame: Int) throws(DecodeFailure) -> Int {
        do throws(VorbisError) { return try decoder.seek(toFrame: frame) } catch { throw DecodeFailure(error) }
    }

    func close() { decoder.close() }
}

extension DecodeFailure {
    init(_ error: VorbisError) { self.init(description: error.description, systemError: error.systemError) }
}
