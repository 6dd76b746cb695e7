import Glibc
import LibEBUR128
import Testing

/// libebur128 through its wrapper, against EBU Tech 3341's first case: a 1 kHz stereo sine at −23 dBFS
/// measures −23.0 LUFS.
@Suite struct LoudnessMeterTests {
    static func sine(frames: Int, rate: Int, decibels: Double, scale: Double) -> [Double] {
        let amplitude = pow(10, decibels / 20) * scale
        return (0..<frames).flatMap { frame -> [Double] in
            let v = amplitude * sin(2 * .pi * 1000 * Double(frame) / Double(rate))
            return [v, v]
        }
    }

    @Test(arguments: [44_100, 48_000])
    func aMinus23DecibelSineMeasuresMinus23LUFSInBothDepths(rate: Int) throws {
        var narrow = try LoudnessMeter(channels: 2, sampleRate: rate)
        let samples16 = Self.sine(frames: rate * 5, rate: rate, decibels: -23, scale: 32_767).map {
            Int16($0.rounded())
        }
        for start in stride(from: 0, to: samples16.count, by: 8192) {
            let chunk = Array(samples16[start..<min(samples16.count, start + 8192)])
            try narrow.add(chunk, frames: chunk.count / 2)
        }
        let loudness = try narrow.integratedLoudness()
        let peak = try narrow.truePeak()
        #expect(abs(loudness + 23) < 0.1)
        #expect(abs(peak - pow(10, -23.0 / 20)) < 0.002)

        var wide = try LoudnessMeter(channels: 2, sampleRate: rate)
        let samples32 = Self.sine(frames: rate * 5, rate: rate, decibels: -23, scale: 2_147_483_647).map {
            Int32($0.rounded())
        }
        try wide.add(samples32, frames: samples32.count / 2)
        let wideLoudness = try wide.integratedLoudness()
        #expect(abs(wideLoudness + 23) < 0.1)
    }

    @Test func silenceHasNoLoudness() throws {
        var meter = try LoudnessMeter(channels: 1, sampleRate: 44_100)
        try meter.add([Int16](repeating: 0, count: 44_100 * 2), frames: 44_100 * 2)
        let loudness = try meter.integratedLoudness()
        let peak = try meter.truePeak()
        #expect(loudness == -.infinity)
        #expect(peak == 0)
    }
}
