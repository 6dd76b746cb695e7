import Foundation
import ShuffleTestSupport
import Testing

/// The test devices must record exactly what a real ALSA client (aplay) wrote.
@Suite(.enabled(if: ExternalTool.aplay != nil, "needs aplay (alsa-utils)"))
struct ALSATestDevicesTests {
    /// 16384 stereo frames of a deterministic non-silent pattern: a whole number of aplay's periods below,
    /// so aplay adds no padding of its own.
    static let pcm: [UInt8] = {
        var state: UInt32 = 0x1234_5678
        var out: [UInt8] = []
        for _ in 0..<(16384 * 2) {
            state = state &* 1_664_525 &+ 1_013_904_223
            let sample = UInt16(truncatingIfNeeded: state >> 16) | 1  // never zero, so silence is told apart
            out += [UInt8(sample & 0xFF), UInt8(sample >> 8)]
        }
        return out
    }()

    static func wav(_ pcm: [UInt8], rate: Int = 44100, channels: Int = 2) -> Data {
        func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8((v >> (8 * $0)) & 0xFF) } }
        func le16(_ v: Int) -> [UInt8] { (0..<2).map { UInt8((v >> (8 * $0)) & 0xFF) } }
        var out = Array("RIFF".utf8) + le32(36 + pcm.count) + Array("WAVEfmt ".utf8) + le32(16) + le16(1)
        out += le16(channels) + le32(rate) + le32(rate * channels * 2) + le16(channels * 2) + le16(16)
        out += Array("data".utf8) + le32(pcm.count) + pcm
        return Data(out)
    }

    /// The bytes of the `data` chunk of a WAV file.
    static func dataChunk(_ wav: Data) -> Data? {
        let bytes = [UInt8](wav)
        var offset = 12
        while offset + 8 <= bytes.count {
            let size =
                Int(bytes[offset + 4]) | Int(bytes[offset + 5]) << 8 | Int(bytes[offset + 6]) << 16
                | Int(bytes[offset + 7]) << 24
            if bytes[offset..<offset + 4].elementsEqual("data".utf8) {
                return Data(bytes[(offset + 8)..<min(bytes.count, offset + 8 + size)])
            }
            offset += 8 + size
        }
        return nil
    }

    func play(_ wav: URL, device: String, environment: [String: String] = [:]) throws {
        let result = try Run.program(
            ExternalTool.aplay!, ["-q", "--period-size=1024", "--buffer-size=4096", "-D", device, wav.path],
            environment: environment)
        #expect(result.status == 0, "aplay -D \(device): \(result.stderr)")
    }

    @Test func captureWritesExactlyTheBytesThatWerePlayed() throws {
        let dir = try TemporaryDirectory()
        let input = dir.appending("in.wav")
        try Self.wav(Self.pcm).write(to: input)
        let output = dir.appending("out.raw")
        try play(input, device: ALSATestDevices.capture, environment: ALSATestDevices.captureEnvironment(file: output))
        #expect(try Data(contentsOf: output) == Data(Self.pcm))
    }

    @Test func captureWAVWritesAWAVWithTheSameSamples() throws {
        let dir = try TemporaryDirectory()
        let input = dir.appending("in.wav")
        try Self.wav(Self.pcm).write(to: input)
        let output = dir.appending("out.wav")
        try play(
            input, device: ALSATestDevices.captureWAV, environment: ALSATestDevices.captureEnvironment(file: output))
        let written = try Data(contentsOf: output)
        #expect(written.prefix(4) == Data("RIFF".utf8))
        #expect(Self.dataChunk(written) == Data(Self.pcm))
    }

    @Test func captureSegmentsKeepsEveryOpenInItsOwnFile() throws {
        let dir = try TemporaryDirectory()
        let stereo = dir.appending("stereo.wav")
        try Self.wav(Self.pcm).write(to: stereo)
        let mono = dir.appending("mono.wav")
        try Self.wav(Array(Self.pcm.prefix(8192 * 2)), rate: 22050, channels: 1).write(to: mono)
        let output = dir.appending("seg.raw")
        let environment = ALSATestDevices.captureEnvironment(file: output)
        try play(stereo, device: "capture_segments", environment: environment)
        try play(mono, device: "capture_segments", environment: environment)
        #expect(try Data(contentsOf: output) == Data(Self.pcm))
        // 8192 mono frames at 22.05 kHz become about 16384 stereo frames at 44.1 kHz (4 bytes each).
        let second = try Data(contentsOf: dir.appending("seg.raw.0001"))
        #expect(second.count >= 16000 * 4 && second.count % 4 == 0)
    }

    @Test func theBuiltInFileDeviceNeedsNoConfiguration() throws {
        let dir = try TemporaryDirectory()
        let input = dir.appending("in.wav")
        try Self.wav(Self.pcm).write(to: input)
        let output = dir.appending("direct.raw")
        try play(input, device: ALSATestDevices.fileDevice(output))
        #expect(try Data(contentsOf: output) == Data(Self.pcm))
    }

    @Test(.enabled(if: PacedSink.isAvailable, "needs pulseaudio, pulseaudio-utils and libasound2-plugins"))
    func pacedSinkRecordsWhatWasPlayedAmidSilence() throws {
        let dir = try TemporaryDirectory()
        let input = dir.appending("in.wav")
        try Self.wav(Self.pcm).write(to: input)
        let sink = try PacedSink(directory: dir.appending("paced"))
        let recording = dir.appending("heard.raw")
        try sink.record(to: recording)
        try play(input, device: PacedSink.device, environment: sink.environment)
        try sink.stop()
        let heard = [UInt8](try Data(contentsOf: recording))
        // Find the first non-silent frame; from there the recording must hold exactly what was played.
        var start = 0
        while start + 4 <= heard.count, heard[start..<start + 4].allSatisfy({ $0 == 0 }) { start += 4 }
        #expect(heard.count >= start + Self.pcm.count, "recorded \(heard.count) bytes, music from \(start)")
        #expect(heard.dropFirst(start).prefix(Self.pcm.count).elementsEqual(Self.pcm))
    }
}
