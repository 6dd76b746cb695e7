import Foundation

/// Yardsticks for tests of the box's voice: espeak-ng's own rendering of a text, a signal's level, the
/// amplitude of one tone in it, and PCM files written or read by test code.
public enum SpeechReference {
    /// The 16-bit samples (22,050 Hz mono) of `espeak-ng -v VOICE --stdout TEXT` (a WAV file on stdout).
    public static func espeak(_ text: String, voice: String) throws -> [Int16] {
        guard let espeak = ExternalTool.find("espeak-ng") else {
            throw TestSupportError("espeak-ng is not installed (apt-get install espeak-ng)")
        }
        let result = try Run.program(espeak, ["-v", voice, "--stdout", text])
        guard result.status == 0 else { throw TestSupportError("espeak-ng failed: \(result.stderr)") }
        let bytes = [UInt8](result.stdoutData)
        // RIFF header, then chunks: find "data" and read what follows (espeak-ng streams it, so its size field
        // may be a placeholder; the rest of the output is the samples).
        var index = 12
        while index + 8 <= bytes.count {
            let id = String(decoding: bytes[index..<index + 4], as: UTF8.self)
            let size =
                Int(bytes[index + 4]) | Int(bytes[index + 5]) << 8 | Int(bytes[index + 6]) << 16
                | Int(bytes[index + 7]) << 24
            if id == "data" { return samples(Array(bytes[(index + 8)...])) }
            index += 8 + size
        }
        throw TestSupportError("no data chunk in espeak-ng's output")
    }

    /// Little-endian 16-bit samples from raw bytes (a trailing odd byte is dropped).
    public static func samples(_ bytes: [UInt8]) -> [Int16] {
        stride(from: 0, to: bytes.count - 1, by: 2).map { Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8) }
    }

    /// The root mean square of `samples`.
    public static func rms(_ samples: ArraySlice<Int16>) -> Double {
        guard !samples.isEmpty else { return 0 }
        return (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count)).squareRoot()
    }

    /// The sum of the squares of `samples`.
    public static func energy(_ samples: [Int16]) -> Double { samples.reduce(0.0) { $0 + Double($1) * Double($1) } }

    /// The amplitude of the `frequency` Hz component of `samples` at `rate` (the Goertzel algorithm).
    public static func toneAmplitude(_ samples: ArraySlice<Int16>, frequency: Double, rate: Double) -> Double {
        let omega = 2 * Double.pi * frequency / rate
        let coefficient = 2 * cos(omega)
        var previous = 0.0
        var earlier = 0.0
        for sample in samples {
            let current = Double(sample) + coefficient * previous - earlier
            earlier = previous
            previous = current
        }
        let power = previous * previous + earlier * earlier - coefficient * previous * earlier
        return 2 * power.squareRoot() / Double(max(1, samples.count))
    }

    /// Writes a 16-bit mono WAV file of a sine at `frequency` Hz and `amplitude` (0…1) for `seconds`
    /// (amplitude 0: digital silence).
    public static func writeTone(
        _ url: URL, frequency: Double, amplitude: Double, seconds: Double, rate: Int = 44_100
    ) throws {
        let count = Int(seconds * Double(rate))
        var data = Data()
        func put32(_ value: Int) { withUnsafeBytes(of: UInt32(value).littleEndian) { data.append(contentsOf: $0) } }
        func put16(_ value: Int) { withUnsafeBytes(of: UInt16(value).littleEndian) { data.append(contentsOf: $0) } }
        data.append(contentsOf: Array("RIFF".utf8))
        put32(36 + count * 2)
        data.append(contentsOf: Array("WAVEfmt ".utf8))
        put32(16)
        put16(1)
        put16(1)
        put32(rate)
        put32(rate * 2)
        put16(2)
        put16(16)
        data.append(contentsOf: Array("data".utf8))
        put32(count * 2)
        for index in 0..<count {
            let value = amplitude * 32_767 * sin(2 * Double.pi * frequency * Double(index) / Double(rate))
            put16(Int(UInt16(bitPattern: Int16(value.rounded()))))
        }
        try data.write(to: url)
    }
}
