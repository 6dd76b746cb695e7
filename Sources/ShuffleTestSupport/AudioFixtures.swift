import Foundation

/// Real audio files of every format the player decodes, made in a test from a deterministic tone written as
/// WAV (or AIFF) by this code, then encoded by Debian's own encoders (`flac`, `oggenc`, `opusenc`, `ffmpeg`);
/// and the reference decoders' own PCM of each file (`flac -d`, `oggdec`, `opusdec`, `ffmpeg -f s16le`),
/// the yardstick the player's output is held to.
public enum AudioFixtures {
    /// A format and the encoder that makes it.
    public enum Format: String, Sendable, CaseIterable, CustomStringConvertible {
        case flac, vorbis, opus, aac, alac, wav, aiff

        /// The file extension.
        public var fileExtension: String {
            switch self {
            case .flac: "flac"
            case .vorbis: "ogg"
            case .opus: "opus"
            case .aac, .alac: "m4a"
            case .wav: "wav"
            case .aiff: "aiff"
            }
        }

        /// The programs making and measuring it.
        var tools: [String] {
            switch self {
            case .flac: ["flac"]
            case .vorbis: ["oggenc", "oggdec"]
            case .opus: ["opusenc", "opusdec"]
            case .aac, .alac, .wav, .aiff: ["ffmpeg"]
            }
        }

        /// Whether decoding gives back the tone's samples exactly.
        public var isLossless: Bool { ![.vorbis, .opus, .aac].contains(self) }

        /// The name.
        public var description: String { rawValue }
    }

    /// What to make: a tone of `frames` frames.
    public struct Spec: Sendable, CustomStringConvertible {
        /// The format.
        public var format: Format
        /// Frames per second of the source (Opus always decodes at 48 kHz).
        public var sampleRate: Int
        /// 1 or 2.
        public var channels: Int
        /// 16 or 24 (lossy formats are encoded from 16-bit).
        public var bits: Int
        /// Length in frames.
        public var frames: Int

        /// Creates a spec (`seconds` of tone).
        public init(_ format: Format, rate: Int = 44_100, channels: Int = 2, bits: Int = 16, seconds: Double = 2) {
            self.format = format
            sampleRate = rate
            self.channels = channels
            self.bits = bits
            frames = Int(Double(rate) * seconds)
        }

        /// The rate the file decodes at.
        public var decodedRate: Int { format == .opus ? 48_000 : sampleRate }

        /// Whether the player hands it out as 32-bit words.
        public var isWide: Bool { bits > 16 }

        /// "flac 24-bit 48000 Hz 1 ch".
        public var description: String { "\(format) \(bits)-bit \(sampleRate) Hz \(channels) ch" }
    }

    /// Every encoder and reference decoder of every format that is not installed.
    public static var missingTools: [String] {
        Set(Format.allCases.flatMap(\.tools)).filter { ExternalTool.find($0) == nil }.sorted()
    }

    /// The first encoder or reference decoder `spec` needs that is not installed, if any.
    public static func missingTool(for format: Format) -> String? {
        format.tools.first { ExternalTool.find($0) == nil }
    }

    /// The tone: a few sines per channel plus a little deterministic noise, at about half of full scale, as
    /// integers at `bits` (the noise makes the low bits of a 24-bit tone matter).
    public static func tone(frames: Int, channels: Int, bits: Int, rate: Int) -> [Int32] {
        var samples = [Int32](repeating: 0, count: frames * channels)
        let peak = Double((1 << (bits - 1)) - 1) * 0.45
        var noise: UInt32 = 0x1234_5678
        for frame in 0..<frames {
            let t = Double(frame) / Double(rate)
            for channel in 0..<channels {
                let f = 220.0 * Double(channel + 1)
                var v = 0.7 * sin(2 * .pi * f * t) + 0.25 * sin(2 * .pi * (f * 3.01) * t)
                noise = noise &* 1_664_525 &+ 1_013_904_223
                v += 0.04 * (Double(noise >> 8) / Double(1 << 24) - 0.5)
                samples[frame * channels + channel] = Int32((v * peak).rounded())
            }
        }
        return samples
    }

    /// Makes the file for `spec` in `directory` as `name`; returns its URL.
    public static func make(_ spec: Spec, in directory: URL, name: String) throws -> URL {
        let bits = spec.format.isLossless ? spec.bits : 16
        let samples = tone(frames: spec.frames, channels: spec.channels, bits: bits, rate: spec.sampleRate)
        let out = directory.appendingPathComponent("\(name).\(spec.format.fileExtension)")
        let wav = directory.appendingPathComponent("\(name).source.wav")
        try writeWAV(samples, rate: spec.sampleRate, channels: spec.channels, bits: bits, to: wav)
        defer { try? FileManager.default.removeItem(at: wav) }
        switch spec.format {
        case .wav:
            try FileManager.default.copyItem(at: wav, to: out)
        case .aiff:
            try writeAIFF(samples, rate: spec.sampleRate, channels: spec.channels, bits: bits, to: out)
        case .flac:
            try tool("flac", ["-s", "-f", "-o", out.path, wav.path])
        case .vorbis:
            try tool("oggenc", ["-Q", "-q", "3", "-o", out.path, wav.path])
        case .opus:
            try tool("opusenc", ["--quiet", "--bitrate", "96", wav.path, out.path])
        case .aac:
            try tool("ffmpeg", ["-v", "error", "-y", "-i", wav.path, "-c:a", "aac", "-b:a", "128k", out.path])
        case .alac:
            try tool("ffmpeg", ["-v", "error", "-y", "-i", wav.path, "-c:a", "alac", out.path])
        }
        return out
    }

    /// What a reference decoder made of a file: interleaved samples, left-justified in 32 bits when `wide`,
    /// else 16-bit values.
    public struct Reference: Sendable {
        /// The samples (16-bit values, or left-justified 32-bit ones).
        public var samples: [Int32]
        /// Interleaved channels.
        public var channels: Int
        /// Frames per channel.
        public var frames: Int { samples.count / max(1, channels) }
    }

    /// Decodes `file` with the format's own command-line decoder; `wide` asks for 32-bit words (for 24-bit
    /// lossless files).
    public static func reference(_ file: URL, _ spec: Spec) throws -> Reference {
        let wide = spec.isWide && spec.format.isLossless
        let data: Data
        switch spec.format {
        case .flac:
            data = try tool(
                "flac", ["-s", "-d", "-c", "--force-raw-format", "--endian=little", "--sign=signed", file.path])
            return Reference(samples: samples(data, bytes: wide ? 3 : 2, wide: wide), channels: spec.channels)
        case .vorbis:
            data = try tool("oggdec", ["-Q", "-R", "-o", "-", file.path])
        case .opus:
            data = try tool("opusdec", ["--quiet", "--rate", "48000", file.path, "-"])
        case .aac, .alac, .wav, .aiff:
            data = try tool("ffmpeg", ["-v", "error", "-i", file.path, "-f", wide ? "s32le" : "s16le", "-"])
            var decoded = samples(data, bytes: wide ? 4 : 2, wide: wide)
            if spec.format == .aac {
                // FFmpeg 5.1 (Debian 12) cuts the priming the MP4 edit list names but plays the padding after
                // its end; the edit list's length is what ffprobe reports as the stream's duration.
                let probe = try tool(
                    "ffprobe",
                    ["-v", "error", "-select_streams", "a:0", "-show_entries", "stream=duration_ts", "-of", "csv=p=0",
                     file.path])
                let text = String(decoding: probe, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                if let length = Int(text), length * spec.channels < decoded.count {
                    decoded = Array(decoded.prefix(length * spec.channels))
                }
            }
            return Reference(samples: decoded, channels: spec.channels)
        }
        return Reference(samples: samples(data, bytes: 2, wide: false), channels: spec.channels)
    }

    /// Little-endian signed samples of `bytes` bytes each; 3- and 4-byte ones left-justified when `wide`.
    public static func samples(_ data: Data, bytes: Int, wide: Bool) -> [Int32] {
        let raw = [UInt8](data)
        let count = raw.count / bytes
        var out = [Int32](repeating: 0, count: count)
        for index in 0..<count {
            let base = index * bytes
            switch bytes {
            case 2: out[index] = Int32(Int16(bitPattern: UInt16(raw[base]) | UInt16(raw[base + 1]) << 8))
            case 3:
                let word = UInt32(raw[base]) << 8 | UInt32(raw[base + 1]) << 16 | UInt32(raw[base + 2]) << 24
                out[index] = Int32(bitPattern: word)
            default:
                let word = UInt32(raw[base]) | UInt32(raw[base + 1]) << 8 | UInt32(raw[base + 2]) << 16
                    | UInt32(raw[base + 3]) << 24
                out[index] = Int32(bitPattern: word)
            }
        }
        return out
    }

    // MARK: - Writing PCM files

    /// Writes a canonical PCM WAV file (16- or 24-bit little-endian).
    public static func writeWAV(_ samples: [Int32], rate: Int, channels: Int, bits: Int, to url: URL) throws {
        let bytes = bits / 8
        var data = Data()
        func u32(_ v: Int) { withUnsafeBytes(of: UInt32(v).littleEndian) { data.append(contentsOf: $0) } }
        func u16(_ v: Int) { withUnsafeBytes(of: UInt16(v).littleEndian) { data.append(contentsOf: $0) } }
        let payload = samples.count * bytes
        data.append(contentsOf: Array("RIFF".utf8))
        u32(36 + payload)
        data.append(contentsOf: Array("WAVEfmt ".utf8))
        u32(16)
        u16(1)
        u16(channels)
        u32(rate)
        u32(rate * channels * bytes)
        u16(channels * bytes)
        u16(bits)
        data.append(contentsOf: Array("data".utf8))
        u32(payload)
        data.append(contentsOf: pack(samples, bytes: bytes, bigEndian: false))
        try data.write(to: url)
    }

    /// Writes an AIFF file (16- or 24-bit big-endian; the rate as an 80-bit extended float).
    public static func writeAIFF(_ samples: [Int32], rate: Int, channels: Int, bits: Int, to url: URL) throws {
        let bytes = bits / 8
        var data = Data()
        func u32(_ v: Int) { withUnsafeBytes(of: UInt32(v).bigEndian) { data.append(contentsOf: $0) } }
        func u16(_ v: Int) { withUnsafeBytes(of: UInt16(v).bigEndian) { data.append(contentsOf: $0) } }
        let payload = samples.count * bytes
        data.append(contentsOf: Array("FORM".utf8))
        u32(4 + 26 + 16 + payload)
        data.append(contentsOf: Array("AIFFCOMM".utf8))
        u32(18)
        u16(channels)
        u32(samples.count / channels)
        u16(bits)
        // 80-bit extended: sign+exponent (bias 16383), then a 64-bit mantissa with an explicit leading 1.
        var exponent = 0
        while (rate >> exponent) > 1 { exponent += 1 }
        u16(16383 + exponent)
        withUnsafeBytes(of: (UInt64(rate) << (63 - exponent)).bigEndian) { data.append(contentsOf: $0) }
        data.append(contentsOf: Array("SSND".utf8))
        u32(8 + payload)
        u32(0)
        u32(0)
        data.append(contentsOf: pack(samples, bytes: bytes, bigEndian: true))
        try data.write(to: url)
    }

    /// Samples as `bytes`-byte integers in either byte order.
    private static func pack(_ samples: [Int32], bytes: Int, bigEndian: Bool) -> [UInt8] {
        var pcm = [UInt8](repeating: 0, count: samples.count * bytes)
        for (index, sample) in samples.enumerated() {
            let word = UInt32(bitPattern: sample)
            for byte in 0..<bytes {
                let shift = 8 * (bigEndian ? bytes - 1 - byte : byte)
                pcm[index * bytes + byte] = UInt8(truncatingIfNeeded: word >> shift)
            }
        }
        return pcm
    }

    /// Runs the installed program `name` and returns what it wrote to stdout; throws with its stderr when it fails.
    @discardableResult
    public static func tool(_ name: String, _ arguments: [String]) throws -> Data {
        guard let path = ExternalTool.find(name) else { throw TestSupportError("\(name) is not installed") }
        let result = try Run.program(path, arguments)
        guard result.status == 0 else {
            throw TestSupportError("\(name) \(arguments.joined(separator: " ")) failed (\(result.status)): \(result.stderr)")
        }
        return result.stdoutData
    }
}
