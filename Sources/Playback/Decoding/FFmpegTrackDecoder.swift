import LibFFmpeg

/// AAC and ALAC in MP4 through FFmpeg (libavformat, libavcodec): ALAC at its own depth, AAC as 16-bit; AAC's
/// priming and padding cut by the MP4 edit list, as `ffmpeg` does. (WAV and AIFF, which `FFmpegDecoder` can also
/// read, go to libsndfile: `SndFileTrackDecoder`.)
final class FFmpegTrackDecoder: TrackDecoder {
    private let decoder: FFmpegDecoder
    private var format = StreamFormat(sampleRate: 0, channels: 0, bitsPerSample: 16)

    init() throws(DecodeFailure) {
        do throws(FFmpegError) { decoder = try FFmpegDecoder() } catch { throw DecodeFailure(error) }
    }

    func open(path: [UInt8]) throws(DecodeFailure) -> StreamFormat {
        do throws(FFmpegError) {
            format = Self.format(try decoder.open(path: path))
            return format
        } catch { throw DecodeFailure(error) }
    }

    func read(into buffer: inout SampleBuffer) throws(DecodeFailure) -> DecodeStep {
        do throws(FFmpegError) {
            let result =
                format.isWide
                ? try decoder.read(into: &buffer.wide, frames: buffer.capacityFrames)
                : try decoder.read(into: &buffer.narrow, frames: buffer.capacityFrames)
            switch result {
            case .frames(let count): return .frames(count)
            case .newFormat(let shape):
                format = Self.format(shape)
                return .newFormat(format)
            case .done: return .done
            }
        } catch { throw DecodeFailure(error) }
    }

    func seek(toFrame frame: Int) throws(DecodeFailure) -> Int {
        do throws(FFmpegError) { return try decoder.seek(toFrame: frame) } catch { throw DecodeFailure(error) }
    }

    func close() { decoder.close() }

    private static func format(_ shape: FFmpegFormat) -> StreamFormat {
        StreamFormat(sampleRate: shape.sampleRate, channels: shape.channels, bitsPerSample: shape.bitsPerSample)
    }
}

extension DecodeFailure {
    init(_ error: FFmpegError) { self.init(description: error.description, systemError: error.systemError) }
}
