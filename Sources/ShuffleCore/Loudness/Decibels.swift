/// Decibels and factors in pure Swift: the standard library has no `log` or `exp`, and ShuffleCore imports
/// no C module (not even Glibc's libm). Accurate to about 1e-14 relative, far finer than any gain needs.
public enum Decibels {
    private static let ln2 = 0.693_147_180_559_945_3
    private static let ln10 = 2.302_585_092_994_045_7

    /// 10^(decibels/20): the factor of a gain in dB.
    public static func factor(_ decibels: Double) -> Double { exp(decibels / 20 * ln10) }

    /// 20·log10(factor): a factor in dB (−infinity for 0, NaN below).
    public static func of(_ factor: Double) -> Double { 20 * log(factor) / ln10 }

    /// 10^(level/10): the power of a level in dB (LUFS).
    public static func power(_ level: Double) -> Double { exp(level / 10 * ln10) }

    /// 10·log10(power): a power as a level in dB.
    public static func ofPower(_ power: Double) -> Double { 10 * log(power) / ln10 }

    /// e^x: 2^k · e^r with |r| ≤ ln2/2, e^r by its Taylor series.
    static func exp(_ x: Double) -> Double {
        guard x.isFinite else { return x.isNaN ? x : (x > 0 ? .infinity : 0) }
        if x > 709 { return .infinity }
        if x < -745 { return 0 }
        let k = (x / ln2).rounded()
        let r = x - k * ln2
        var term = 1.0
        var sum = 1.0
        for n in 1...20 {
            term *= r / Double(n)
            sum += term
        }
        return sum * Double(sign: .plus, exponent: Int(k), significand: 1)
    }

    /// ln x: x = m·2^e with m in [1, 2), ln m = 2·atanh((m−1)/(m+1)) by its series.
    static func log(_ x: Double) -> Double {
        guard x > 0 else { return x == 0 ? -.infinity : .nan }
        guard x.isFinite else { return x }
        let e = Double(x.exponent)
        let m = x.significand
        let z = (m - 1) / (m + 1)
        let z2 = z * z
        var power = z
        var sum = 0.0
        var n = 1.0
        while n < 60 {
            sum += power / n
            power *= z2
            n += 2
        }
        return 2 * sum + e * ln2
    }
}
