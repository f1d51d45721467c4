/// A seeded, deterministic random number generator (Steele, Lea and Flood's SplitMix64), so that tests of
/// jittered delays give the same numbers on every run and every platform.
public struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A generator that always returns the same word: `.min` makes `Double.random(in: 0..<1)` return 0, `.max`
/// makes it return the largest value below 1, so a test can pin jitter to either end of its range.
public struct ConstantGenerator: RandomNumberGenerator {
    let word: UInt64

    public init(word: UInt64) { self.word = word }

    public mutating func next() -> UInt64 { word }
}
