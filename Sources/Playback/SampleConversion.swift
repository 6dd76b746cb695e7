/// Sample-format conversions between a decoded period and the device, in place of ALSA's plug layer (which
/// only truncates): a deeper stream reaching a narrower device is rounded to the nearest value, never
/// truncated, and a narrower stream is widened exactly. Tight loops over reused arrays; never allocate.
enum SampleConversion {
    /// 16-bit samples as 32-bit words: left-justified (`S32_LE`), or in the low 24 bits (`S24_LE`).
    static func widen(_ source: [Int16], into out: inout [Int32], count: Int, to24: Bool) {
        let shift: Int32 = to24 ? 8 : 16
        source.withUnsafeBufferPointer { input in
            out.withUnsafeMutableBufferPointer { output in
                for index in 0..<count { output[index] = Int32(input[index]) << shift }
            }
        }
    }

    /// Left-justified 32-bit samples to 16 bits, rounded to nearest (half a step added, then shifted: ties
    /// go up), clipped at full scale.
    static func round32to16(_ source: [Int32], into out: inout [Int16], count: Int) {
        source.withUnsafeBufferPointer { input in
            out.withUnsafeMutableBufferPointer { output in
                for index in 0..<count {
                    let rounded = (Int64(input[index]) + 0x8000) >> 16
                    output[index] = Int16(truncatingIfNeeded: min(rounded, Int64(Int16.max)))
                }
            }
        }
    }

    /// Left-justified 32-bit samples to `S24_LE` (the low 24 bits of a word), rounded, clipped at full scale.
    static func round32to24(_ source: [Int32], into out: inout [Int32], count: Int) {
        source.withUnsafeBufferPointer { input in
            out.withUnsafeMutableBufferPointer { output in
                for index in 0..<count {
                    let rounded = (Int64(input[index]) + 0x80) >> 8
                    output[index] = Int32(truncatingIfNeeded: min(rounded, Int64(0x7F_FFFF)))
                }
            }
        }
    }

    /// Floating-point samples (full scale ±1) to 16 bits as `ffmpeg -f s16le` makes them: times 32,768, rounded
    /// to nearest (ties to even), clipped at full scale; NaN is silence.
    static func roundFloatTo16(_ source: [Float], into out: inout [Int16], count: Int) {
        source.withUnsafeBufferPointer { input in
            out.withUnsafeMutableBufferPointer { output in
                for index in 0..<count {
                    let scaled = (input[index] * 32768).rounded(.toNearestOrEven)
                    output[index] = scaled.isNaN ? 0 : Int16(max(-32768, min(32767, scaled)))
                }
            }
        }
    }
}
