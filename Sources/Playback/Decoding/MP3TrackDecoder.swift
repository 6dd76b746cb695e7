import LibMPG123

/// MPEG audio through libmpg123 (gapless: the LAME/Info header's delay and padding are cut). 16-bit.
final class MP3TrackDecoder: TrackDecoder {
    private var decoder: MP3Decoder
    private var channels = 2

    init() throws(DecodeFailure) {
        do throws(MPG123Error) { decoder = try MP3Decoder() } catch { throw DecodeFailure(error) }
    }

    func open(path: [UInt8]) throws(DecodeFailure) -> StreamFormat {
        do throws(MPG123Error) {
            let format = try decoder.open(path: path)
            channels = format.channels
            return StreamFormat(sampleRate: format.sampleRate, channels: format.channels, bitsPerSample: 16)
        } catch { throw DecodeFailure(error) }
    }

    func read(into buffer: inout SampleBuffer) throws(DecodeFailure) -> DecodeStep {
        do throws(MPG123Error) {
            // libmpg123 fills as much of the array as it is given: hand it exactly one period's worth.
            let wanted = buffer.capacityFrames * channels
            if buffer.narrow.count != wanted { buffer.narrow = [Int16](repeating: 0, count: wanted) }
            switch try decoder.read(into: &buffer.narrow) {
            case .samples(let count): return .frames(count / channels)
            case .newFormat(let format):
                channels = format.channels
                return .newFormat(StreamFormat(sampleRate: format.sampleRate, channels: format.channels, bitsPerSample: 16))
            case .done: return .done
            }
        } catch { throw DecodeFailure(error) }
    }

    func seek(toFrame frame: Int) throws(DecodeFailure) -> Int {
        do throws(MPG123Error) { return try decoder.seek(toFrame: frame) } catch { throw DecodeFailure(error) }
    }

    func close() { decoder.close() }
}

extension DecodeFailure {
    init(_ error: MPG123Error) { self.init(description: error.description, systemError: error.systemError) }
}
