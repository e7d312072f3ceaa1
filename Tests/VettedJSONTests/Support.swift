import Foundation
import Testing
import VettedCore
import VettedJSON

/// Third-party fixtures live beside the repository in `../shared`, never in it.
enum Fixtures {
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let jsonTestSuite = repositoryRoot
        .deletingLastPathComponent()
        .appendingPathComponent("shared/fixtures/JSONTestSuite/test_parsing")

    static var jsonTestSuiteAvailable: Bool {
        FileManager.default.fileExists(atPath: jsonTestSuite.path)
    }

    static func jsonTestSuiteFiles(prefix: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: jsonTestSuite.path)) ?? [])
            .filter { $0.hasPrefix(prefix) && $0.hasSuffix(".json") }
            .sorted()
    }

    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: jsonTestSuite.appendingPathComponent(name)))
    }
}

/// The error `body` throws; `nil` (and a recorded issue) when it succeeds.
func thrownError(
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

/// Parses and validates `input`; both must fail with exactly `code` at `offset` and `path`.
func expectFailure(
    _ input: [UInt8], _ code: VettedError.Code, at offset: Int, path: DocumentPath = [],
    parser: JSONParser = JSONParser(), sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
    let expected = VettedError(code: code, offset: offset, path: path)
    let parseError = thrownError({ () throws(VettedError) in _ = try parser.parse(input) }, sourceLocation: sourceLocation)
    #expect(parseError == expected, "parse: \(parseError?.description ?? "no error")", sourceLocation: sourceLocation)
    let validateError = thrownError({ () throws(VettedError) in try parser.validate(input) }, sourceLocation: sourceLocation)
    #expect(validateError == expected, "validate: \(validateError?.description ?? "no error")", sourceLocation: sourceLocation)
}

func expectFailure(
    _ input: String, _ code: VettedError.Code, at offset: Int, path: DocumentPath = [],
    parser: JSONParser = JSONParser(), sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
    expectFailure(Array(input.utf8), code, at: offset, path: path, parser: parser, sourceLocation: sourceLocation)
}

/// A reproducible generator (SplitMix64); tests print the seed they use.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// `VETTED_SEED` from the environment, or a fresh one; printed either way.
    static func seed(for test: String) -> UInt64 {
        let seed = ProcessInfo.processInfo.environment["VETTED_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 0...UInt64.max)
        print("\(test): seed \(seed) (replay with VETTED_SEED=\(seed))")
        return seed
    }
}
