/// A small seeded random number generator (SplitMix64, Steele, Lea & Flood 2014): the same seed gives the
/// same sequence on every machine, which `--seed N` and the tests rely on. Not for secrets.
public struct SplitMix64: RandomNumberGenerator, Sendable, Equatable {
    private var state: UInt64

    /// Starts the sequence at `seed`.
    public init(seed: UInt64) { state = seed }

    /// A seed from the system's random source (`getrandom(2)` on Linux), for real listening.
    public static func randomSeed() -> UInt64 {
        var system = SystemRandomNumberGenerator()
        return system.next()
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
