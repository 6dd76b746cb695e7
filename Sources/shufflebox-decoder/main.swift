// shufflebox-decoder: AAC and ALAC (MP4) for the player, with FFmpeg, in a process of its own.
//
// The player (a `HelperProcess`, in Playback's `HelperTrackDecoder`) starts it beside itself with a Unix socket as its standard input
// and asks for one thing at a time (`WireMessage`): open a file, read up to N frames, seek, close. FFmpeg's
// libraries (every codec it was built with) and any crash in them on a hostile file
// stay here: the player sees a failed track and starts another decoder. It ends when the player closes the
// socket (or exits). Not for people: started by hand it says so and exits.
import HelperWire
import Glibc
import LibFFmpeg

let channel = HelperSide.playerChannel("shufflebox-decoder", purpose: "decodes AAC and ALAC")

/// The decoding side of the socket: FFmpeg, the open file's shape and the sample buffers.
struct DecoderServer {
    /// FFmpeg, loaded now (before the first request: the player starts this process as soon as an MP4 is
    /// next in line, so the loading overlaps the track that is playing).
    let loaded: Result<FFmpegDecoder, FFmpegError> = Result { () throws(FFmpegError) in try FFmpegDecoder() }
    var format: FFmpegFormat?
    /// The batch a read answers with.
    var narrow: [Int16] = []
    var wide: [Int32] = []
    /// One FFmpeg read's samples (it writes to the front of its buffer), before they join `narrow` or `wide`.
    var scratch16: [Int16] = []
    var scratch32: [Int32] = []
    /// A change of shape, the end or a failure met after some frames were already decoded for a read: the
    /// next read's answer.
    var pending: WireMessage?

    func failure(_ error: FFmpegError) -> WireMessage {
        WireMessage(.failure, a: Int64(error.systemError ?? 0), payload: Array(error.description.utf8))
    }

    func shape(_ kind: WireMessage.Kind, _ format: FFmpegFormat) -> WireMessage {
        WireMessage(kind, a: Int64(format.sampleRate), b: Int64(format.channels), c: Int64(format.bitsPerSample))
    }

    /// Copies the frames one FFmpeg read left at the front of `scratch` to `batch` from sample `offset` on.
    static func append<Sample>(
        _ result: FFmpegDecoder.ReadResult, from scratch: [Sample], to batch: inout [Sample], at offset: Int, channels: Int
    ) {
        guard case .frames(let count) = result else { return }
        batch.withUnsafeMutableBufferPointer { out in
            scratch.withUnsafeBufferPointer { (out.baseAddress! + offset).update(from: $0.baseAddress!, count: count * channels) }
        }
    }

    /// Decodes up to `frames` frames (FFmpeg hands out one codec frame, 1,024 to 4,096 samples, per call) and
    /// sends them; a change of shape or the end after some frames waits for the next read.
    mutating func read(frames: Int, from decoder: FFmpegDecoder, shape current: FFmpegFormat) throws(WireError) {
        if let answer = pending {
            pending = nil
            try channel.send(answer)
            return
        }
        let width = current.bitsPerSample > 16 ? 4 : 2
        let samples = frames * current.channels
        if width == 4, wide.count < samples { wide = [Int32](repeating: 0, count: samples) }
        if width == 2, narrow.count < samples { narrow = [Int16](repeating: 0, count: samples) }
        var filled = 0
        while filled < frames {
            let result: FFmpegDecoder.ReadResult
            do throws(FFmpegError) {
                // Into the front of a scratch array (FFmpeg writes there), then after what is already in the batch.
                let offset = filled * current.channels
                if width == 4 {
                    if scratch32.count < samples { scratch32 = [Int32](repeating: 0, count: samples) }
                    result = try decoder.read(into: &scratch32, frames: frames - filled)
                    Self.append(result, from: scratch32, to: &wide, at: offset, channels: current.channels)
                } else {
                    if scratch16.count < samples { scratch16 = [Int16](repeating: 0, count: samples) }
                    result = try decoder.read(into: &scratch16, frames: frames - filled)
                    Self.append(result, from: scratch16, to: &narrow, at: offset, channels: current.channels)
                }
            } catch {
                if filled > 0 {
                    pending = failure(error)
                    break
                }
                try channel.send(failure(error))
                return
            }
            switch result {
            case .frames(let n): filled += n
            case .newFormat(let changed):
                format = changed
                let message = shape(.newFormat, changed)
                if filled == 0 { return try channel.send(message) }
                pending = message
            case .done:
                if filled == 0 { return try channel.send(WireMessage(.done)) }
                pending = WireMessage(.done)
            }
            if pending != nil { break }
        }
        let bytes = filled * current.channels * width
        try channel.sendHeader(.samples, a: Int64(filled), b: Int64(width), length: bytes)
        if width == 4 {
            try wide.withUnsafeBytes { all in
                Result { () throws(WireError) in try channel.sendBytes(UnsafeRawBufferPointer(rebasing: all[..<bytes])) }
            }.get()
        } else {
            try narrow.withUnsafeBytes { all in
                Result { () throws(WireError) in try channel.sendBytes(UnsafeRawBufferPointer(rebasing: all[..<bytes])) }
            }.get()
        }
    }

    mutating func serve() throws(WireError) {
        while let request = try channel.receive() {
            let decoder: FFmpegDecoder
            switch loaded {
            case .success(let ready): decoder = ready
            case .failure(let error):
                try channel.send(request.kind == .close ? WireMessage(.closed) : failure(error))
                continue
            }
            switch request.kind {
            case .open:
                pending = nil
                let answer: WireMessage
                do throws(FFmpegError) {
                    let opened = try decoder.open(path: request.payload)
                    format = opened
                    answer = shape(.format, opened)
                } catch {
                    format = nil
                    answer = failure(error)
                }
                try channel.send(answer)
            case .read:
                guard let current = format else {
                    try channel.send(WireMessage(.failure, payload: Array("read: no file is open".utf8)))
                    continue
                }
                try read(frames: Int(clamping: min(max(request.a, 1), Int64(WireMessage.maxFrames))), from: decoder, shape: current)
            case .seek:
                pending = nil
                let answer: WireMessage
                do throws(FFmpegError) {
                    let landed = try decoder.seek(toFrame: Int(clamping: max(0, request.a)))
                    answer = WireMessage(.position, a: Int64(landed))
                } catch {
                    answer = failure(error)
                }
                try channel.send(answer)
            case .close:
                pending = nil
                decoder.close()
                format = nil
                try channel.send(WireMessage(.closed))
            default:
                throw .malformed("a reply's kind (\(request.kind.rawValue)) sent as a request")
            }
        }
    }
}

var server = DecoderServer()
HelperSide.finish("shufflebox-decoder") { () throws(WireError) in try server.serve() }
