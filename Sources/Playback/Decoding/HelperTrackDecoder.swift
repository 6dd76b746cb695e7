import HelperWire

/// AAC and ALAC in MP4, decoded by FFmpeg in `shufflebox-decoder` (a `HelperProcess`): ALAC at its own depth,
/// AAC as 16-bit; AAC's priming and padding cut by the MP4 edit list, as `ffmpeg` does. Frames come over in
/// batches of `batchFrames` (one exchange per ~190 ms of audio, not per period) and are handed out a period
/// at a time. Every number in a reply is checked before it is used: the other process is FFmpeg reading a
/// file from the stick.
final class HelperTrackDecoder: TrackDecoder {
    let process: HelperProcess
    private var format = StreamFormat(sampleRate: 0, channels: 0, bitsPerSample: 16)
    private var file = ""
    private var isOpen = false
    /// The last batch, and how many of its frames are handed out.
    private var staged16: [Int16] = []
    private var staged32: [Int32] = []
    private var stagedFrames = 0
    private var stagedOffset = 0
    static let batchFrames = 8192

    init(process: HelperProcess) { self.process = process }

    /// The AAC/ALAC decoder's process, `shufflebox-decoder` at `program`, given `timeoutMs` to answer.
    static func process(program: String, timeoutMs: Int32) -> HelperProcess {
        HelperProcess(program: program, role: "the AAC/ALAC decoder", timeoutMs: timeoutMs)
    }

    func open(path: [UInt8]) throws(DecodeFailure) -> StreamFormat {
        file = String(decoding: path, as: UTF8.self)
        dropStaged()
        isOpen = false
        let reply = try ask(WireMessage(.open, payload: path), file: file)
        switch reply.kind {
        case .format:
            format = try shape(reply)
            isOpen = true
            return format
        default: throw failure(reply)
        }
    }

    func read(into buffer: inout SampleBuffer) throws(DecodeFailure) -> DecodeStep {
        if stagedOffset >= stagedFrames {
            let reply = try ask(WireMessage(.read, a: Int64(Self.batchFrames)), file: file)
            switch reply.kind {
            case .samples: try receive(reply)
            case .newFormat:
                format = try shape(reply)
                return .newFormat(format)
            case .done: return .done
            default: throw failure(reply)
            }
        }
        let frames = min(buffer.capacityFrames, stagedFrames - stagedOffset)
        let from = stagedOffset * format.channels
        let count = frames * format.channels
        if format.isWide {
            buffer.wide.withUnsafeMutableBufferPointer { out in
                staged32.withUnsafeBufferPointer { out.baseAddress!.update(from: $0.baseAddress! + from, count: count) }
            }
        } else {
            buffer.narrow.withUnsafeMutableBufferPointer { out in
                staged16.withUnsafeBufferPointer { out.baseAddress!.update(from: $0.baseAddress! + from, count: count) }
            }
        }
        stagedOffset += frames
        return .frames(frames)
    }

    func seek(toFrame frame: Int) throws(DecodeFailure) -> Int {
        dropStaged()
        let reply = try ask(WireMessage(.seek, a: Int64(frame)), file: file)
        guard reply.kind == .position, reply.a >= 0 else { throw failure(reply) }
        return Int(reply.a)
    }

    func close() {
        dropStaged()
        guard isOpen, process.isRunning else { return }
        isOpen = false
        // The file's descriptor is the other process's; a decoder that cannot say it closed it is ended.
        if (try? process.ask(WireMessage(.close), file: file))?.kind != .closed { process.end() }
    }

    /// `process.ask`, its failure as the track's.
    private func ask(_ request: WireMessage, file: String) throws(DecodeFailure) -> HelperProcess.Reply {
        do throws(HelperFailure) { return try process.ask(request, file: file) } catch {
            throw DecodeFailure(description: error.description, systemError: nil)
        }
    }

    private func dropStaged() {
        stagedFrames = 0
        stagedOffset = 0
    }

    /// Reads a batch into the staging array, after checking it is what was asked for.
    private func receive(_ reply: HelperProcess.Reply) throws(DecodeFailure) {
        let width = format.isWide ? 4 : 2
        guard reply.b == width, reply.a > 0, reply.a <= Self.batchFrames,
            reply.length == Int(reply.a) * format.channels * width
        else {
            process.end()
            throw DecodeFailure(
                description: "the AAC/ALAC decoder sent \(reply.a) frames of \(reply.b) bytes in \(reply.length) "
                    + "bytes for \(format) and was ended (\(file))", systemError: nil)
        }
        let samples = Int(reply.a) * format.channels
        do throws(HelperFailure) { try receiveSamples(reply, samples: samples) } catch {
            throw DecodeFailure(description: error.description, systemError: nil)
        }
        stagedFrames = Int(reply.a)
        stagedOffset = 0
    }

    private func receiveSamples(_ reply: HelperProcess.Reply, samples: Int) throws(HelperFailure) {
        if format.isWide {
            if staged32.count < samples { staged32 = [Int32](repeating: 0, count: Self.batchFrames * format.channels) }
            try staged32.withUnsafeMutableBytes { bytes in
                Result { () throws(HelperFailure) in
                    try process.receiveSamples(into: UnsafeMutableRawBufferPointer(rebasing: bytes[..<reply.length]), file: file)
                }
            }.get()
        } else {
            if staged16.count < samples { staged16 = [Int16](repeating: 0, count: Self.batchFrames * format.channels) }
            try staged16.withUnsafeMutableBytes { bytes in
                Result { () throws(HelperFailure) in
                    try process.receiveSamples(into: UnsafeMutableRawBufferPointer(rebasing: bytes[..<reply.length]), file: file)
                }
            }.get()
        }
    }

    /// A `format` or `newFormat` reply as a stream shape; a shape no device could take is a broken reply.
    private func shape(_ reply: HelperProcess.Reply) throws(DecodeFailure) -> StreamFormat {
        guard (1...768_000).contains(reply.a), (1...8).contains(reply.b), (1...32).contains(reply.c) else {
            process.end()
            throw DecodeFailure(
                description: "the AAC/ALAC decoder gave an impossible shape (\(reply.a) Hz, \(reply.b) ch, "
                    + "\(reply.c)-bit) and was ended (\(file))", systemError: nil)
        }
        return StreamFormat(sampleRate: Int(reply.a), channels: Int(reply.b), bitsPerSample: Int(reply.c))
    }

    /// A `failure` reply as the error it carries; any other unexpected reply as a broken exchange.
    private func failure(_ reply: HelperProcess.Reply) -> DecodeFailure {
        guard reply.kind == .failure else {
            process.end()
            return DecodeFailure(
                description: "the AAC/ALAC decoder answered \(reply.kind) out of turn and was ended (\(file))",
                systemError: nil)
        }
        let code = Int32(clamping: reply.a)
        return DecodeFailure(description: String(decoding: reply.payload, as: UTF8.self), systemError: code > 0 ? code : nil)
    }
}
