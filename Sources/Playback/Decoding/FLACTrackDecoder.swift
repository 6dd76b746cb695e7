import LibFLAC

/// FLAC through libFLAC: every sample exact, at the file's own depth (24-bit stays 24-bit).
final class FLACTrackDecoder: TrackDecoder {
    private let decoder: FLACDecoder
    private var format = StreamFormat(sampleRate: 0, channels: 0, bitsPerSample: 16)

    init() throws(DecodeFailure) {
        do throws(FLACError) { decoder = try FLACDecoder() } catch { throw DecodeFailure(error) }
    }

    func open(path: [UInt8]) throws(DecodeFailure) -> StreamFormat {
        do throws(FLACError) {
            let shape = try decoder.open(path: path)
            format = StreamFormat(sampleRate: shape.sampleRate, channels: shape.channels, bitsPerSample: shape.bitsPerSample)
            return format
        } catch { throw DecodeFailure(error) }
    }

    func read(into buffer: inout SampleBuffer) throws(DecodeFailure) -> DecodeStep {
        do throws(FLACError) {
            let frames =
                format.isWide
                ? try decoder.read(into: &buffer.wide, frames: buffer.capacityFrames)
                : try decoder.read(into: &buffer.narrow, frames: buffer.capacityFrames)
            return frames > 0 ? .frames(frames) : .done
        } catch { throw DecodeFailure(error) }
    }

    func seek(toFrame frame: Int) throws(DecodeFailure) -> Int {
        do throws(FLACError) { return try decoder.seek(toFrame: frame) } catch { throw DecodeFailure(error) }
    }

    func close() { decoder.close() }
}

extension DecodeFailure {
    init(_ error: FLACError) { self.init(description: error.description, systemError: error.systemError) }
}
