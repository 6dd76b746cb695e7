/// Tells whether two renderings are the same speech, by correlating two features per 10 ms frame, the
/// loudness (RMS) and the hiss (zero crossings), after aligning them in time. espeak-ng carries state from
/// one phrase to the next: a second rendering's waveform is not the first one's (voiced-sound phase,
/// noise), and a pause after a comma can come out 50 ms longer after another voice spoke (measured:
/// "Halo, by Beyoncé" after "Виктор" in `ru`). The syllables, sounds and pauses are the same speech all
/// the same; dynamic time warping within ±`band` frames lines the two up, every frame of both takes part,
/// and the lower of the two correlations is the score, so speech that is missing, extra, other words or
/// another voice scores lower (measured: same speech 0.996; same words in another order 0.08, another
/// voice 0.95, "Hello, my Beyoncé" 0.94).
public enum SpeechComparison {
    /// RMS of each `frame`-sample frame.
    public static func envelope(_ samples: [Int16], frame: Int = 220) -> [Double] {
        stride(from: 0, to: samples.count, by: frame).map { start in
            let end = min(samples.count, start + frame)
            var energy = 0.0
            for index in start..<end { energy += Double(samples[index]) * Double(samples[index]) }
            return (energy / Double(end - start)).squareRoot()
        }
    }

    /// The lower Pearson correlation of the envelopes and the zero crossings of `a` and `b` along their best
    /// alignment (time shifts of up to `band` frames, 10 ms each at 22,050 Hz): near 1 for the same speech.
    public static func correlation(_ a: [Int16], _ b: [Int16], band: Int = 8) -> Double {
        let x = normalised(envelope(a))
        let y = normalised(envelope(b))
        guard !x.isEmpty, !y.isEmpty else { return 0 }
        let pairs = alignment(x, y, band: max(band, abs(x.count - y.count) + 1))
        return min(pearson(pairs, x, y), pearson(pairs, crossings(a), crossings(b)))
    }

    /// The zero crossings of each frame, per sample: high for hiss (s, f, t), low for vowels. With the
    /// envelope it tells words apart that are equally loud in the same places.
    public static func crossings(_ samples: [Int16], frame: Int = 220) -> [Double] {
        stride(from: 0, to: samples.count, by: frame).map { start in
            let end = min(samples.count, start + frame)
            var count = 0
            for index in (start + 1)..<max(start + 1, end) where (samples[index] >= 0) != (samples[index - 1] >= 0) {
                count += 1
            }
            return Double(count) / Double(end - start)
        }
    }

    static func pearson(_ pairs: [(Int, Int)], _ x: [Double], _ y: [Double]) -> Double {
        let n = Double(pairs.count)
        let meanX = pairs.reduce(0) { $0 + x[$1.0] } / n
        let meanY = pairs.reduce(0) { $0 + y[$1.1] } / n
        var covariance = 0.0
        var varianceX = 0.0
        var varianceY = 0.0
        for (i, j) in pairs {
            covariance += (x[i] - meanX) * (y[j] - meanY)
            varianceX += (x[i] - meanX) * (x[i] - meanX)
            varianceY += (y[j] - meanY) * (y[j] - meanY)
        }
        guard varianceX > 0, varianceY > 0 else { return 0 }
        return covariance / (varianceX * varianceY).squareRoot()
    }

    static func normalised(_ values: [Double]) -> [Double] {
        let peak = values.max() ?? 0
        return peak > 0 ? values.map { $0 / peak } : values
    }

    /// The index pairs of the cheapest monotonic path from (0, 0) to the ends, within `band` of the diagonal.
    static func alignment(_ x: [Double], _ y: [Double], band: Int) -> [(Int, Int)] {
        let n = x.count
        let m = y.count
        let infinity = Double.greatestFiniteMagnitude
        var cost = [[Double]](repeating: [Double](repeating: infinity, count: m), count: n)
        func diagonal(_ i: Int) -> Int { n > 1 ? i * (m - 1) / (n - 1) : 0 }
        for i in 0..<n {
            let centre = diagonal(i)
            for j in max(0, centre - band)...min(m - 1, centre + band) {
                let step = abs(x[i] - y[j])
                if i == 0 && j == 0 {
                    cost[i][j] = step
                    continue
                }
                var previous = infinity
                if i > 0 { previous = min(previous, cost[i - 1][j]) }
                if j > 0 { previous = min(previous, cost[i][j - 1]) }
                if i > 0 && j > 0 { previous = min(previous, cost[i - 1][j - 1]) }
                if previous < infinity { cost[i][j] = previous + step }
            }
        }
        var pairs: [(Int, Int)] = [(n - 1, m - 1)]
        var i = n - 1
        var j = m - 1
        while i > 0 || j > 0 {
            let options = [(i - 1, j - 1), (i - 1, j), (i, j - 1)].filter { $0.0 >= 0 && $0.1 >= 0 }
            let next = options.min { cost[$0.0][$0.1] < cost[$1.0][$1.1] } ?? (0, 0)
            (i, j) = next
            pairs.append(next)
        }
        return pairs.reversed()
    }
}
