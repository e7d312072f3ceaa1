import Foundation
public import Testing
public import VettedCore

/// The error `body` throws; `nil` (and a recorded issue) when it succeeds.
public func thrownError(
    _ body: () throws(VettedError) -> Void, sourceLocation: Testing.SourceLocation = #_sourceLocation
) -> VettedError? {
    do {
        try body()
        Issue.record("expected an error, got none", sourceLocation: sourceLocation)
        return nil
    } catch {
        return error
    }
}

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

/// The replacement values of single-byte mutation tests.
public enum SingleByteMutations {
    /// `VETTED_EXHAUSTIVE=1` (CI, in a release build): every other byte value.
    public static let exhaustive = ProcessInfo.processInfo.environment["VETTED_EXHAUSTIVE"] == "1"

    /// The values to put in place of `byte`: all 255 others when exhaustive, else those of
    /// `sample(byte)` that differ from it.
    public static func replacements(for byte: UInt8, sample: (UInt8) -> [UInt8]) -> Set<UInt8> {
        (exhaustive ? Set(0...UInt8.max) : Set(sample(byte))).subtracting([byte])
    }
}
