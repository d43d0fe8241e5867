/// A random source that a seed fixes: the same seed gives the same exploration on every machine
/// and in every run (SplitMix64; `SystemRandomNumberGenerator` cannot be seeded).
package struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// The seed of run `index` of an exploration seeded with `seed`: runs are independent, so a
    /// shard or a job can start at any of them.
    package static func seed(ofRun index: Int, of seed: UInt64) -> UInt64 {
        var random = SeededRandom(seed: seed ^ (UInt64(truncatingIfNeeded: index) &* 0xD1B5_4A32_D192_ED03))
        return random.next()
    }

    /// `true` with probability `percent` / 100.
    package mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &self) < percent }
}
