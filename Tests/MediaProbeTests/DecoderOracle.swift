import LibMPG123

/// libmpg123's own answer about a file, through the player's decoder (`LibMPG123.MP3Decoder`, the settings
/// the audio thread uses): decodes it to the end and counts what comes out. The probe must agree with it.
struct DecoderOracle: Equatable, CustomStringConvertible {
    /// PCM frames (per channel) decoded, at the first format's sample rate (after a format change, frames at
    /// another rate are scaled to it, as the probe counts them); 0 when the file does not open.
    var frames: Int64
    /// The first output format, nil when the file does not open.
    var sampleRate: Int?
    /// Channels of the first output format.
    var channels: Int?
    /// Whether the output format changed part way.
    var changedFormat = false

    /// Whether the decoder produces any audio from the file.
    var isPlayable: Bool { frames > 0 }

    var description: String {
        "\(frames) frames" + (sampleRate.map { " at \($0) Hz" } ?? "") + (changedFormat ? " (format changed)" : "")
    }

    /// Decodes the file at `path` to its end.
    static func decode(_ path: String) throws -> DecoderOracle { try decode(path: Array(path.utf8)) }

    /// Decodes the file at `path` (raw bytes: names need not be UTF-8) to its end.
    static func decode(path: [UInt8]) throws -> DecoderOracle {
        var decoder = try MP3Decoder()
        guard let format = try? decoder.open(path: path) else {
            return DecoderOracle(frames: 0, sampleRate: nil, channels: nil)
        }
        var current = format
        var result = DecoderOracle(frames: 0, sampleRate: format.sampleRate, channels: format.channels)
        var buffer = [Int16](repeating: 0, count: 16_384)
        var scaled: Int64 = 0
        var atThisFormat: Int64 = 0
        while true {
            switch try decoder.read(into: &buffer) {
            case .samples(let count): atThisFormat += Int64(count / current.channels)
            case .newFormat(let next):
                scaled += atThisFormat * Int64(format.sampleRate) / Int64(current.sampleRate)
                atThisFormat = 0
                if next != current { result.changedFormat = true }
                current = next
            case .done:
                result.frames = scaled + atThisFormat * Int64(format.sampleRate) / Int64(current.sampleRate)
                return result
            }
        }
    }
}
