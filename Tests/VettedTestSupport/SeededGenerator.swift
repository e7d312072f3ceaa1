// One reproducible generator for every test and benchmark (Vetted's tests, the
// example's tests and the benchmark corpus link to this file).

import Foundation

/// A reproducible generator (SplitMix64); tests print the seed they use.
public struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// `VETTED_SEED` from the environment, or a fresh one; printed either way.
    public static func seed(for test: String) -> UInt64 {
        let seed = ProcessInfo.processInfo.environment["VETTED_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 0...UInt64.max)
        print("\(test): seed \(seed) (replay with VETTED_SEED=\(seed))")
        return seed
    }
}

extension SeededGenerator {
    /// A value in `0..<bound` (bound > 0; the corpus generator's small bounds make the modulo bias negligible).
    public mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(max(1, bound))) }
}
