import Foundation
import Testing
import VettedCore
import VettedJSON
import VettedTestSupport

@Suite struct SharingAndBridgeTests {
    struct Score: Codable, Equatable, Validatable {
        var points: Int
        static let validation = Validation<Score> { Field("points", Rule<Int>.range(0...10)) }
    }

    /// Passed where a JSONDecoder is expected, the decoder keeps its rules and strictness.
    @Test func aVettedDecoderServesAsAJSONDecoder() throws {
        let vetted = VettedJSONDecoder()
        let decoder: JSONDecoder = vetted.asJSONDecoder
        #expect(try decoder.decode(Score.self, from: Data(#"{"points": 3}"#.utf8)) == Score(points: 3))
        do {
            _ = try decoder.decode(Score.self, from: Data(#"{"points": 30}"#.utf8))
            Issue.record("expected a violation")
        } catch let error as ValidationErrors {
            #expect(error.errors == [VettedError(code: .outOfRange, offset: 11, path: [.key("points")])])
        }
        // Duplicate keys: Foundation's own decoder keeps one; this one refuses.
        #expect(throws: DecodingError.self) { try decoder.decode(Score.self, from: Data(#"{"points": 3, "points": 4}"#.utf8)) }
        // Options set later on the Vetted decoder apply.
        vetted.duplicateKeyPolicy = .keepLast
        #expect(try decoder.decode(Score.self, from: Data(#"{"points": 3, "points": 4}"#.utf8)) == Score(points: 4))
    }

    /// One decoder shared by tasks that decode while others change its options
    /// (CI runs this under ThreadSanitizer: no data race).
    @Test func oneDecoderSharedByTasks() async throws {
        let decoder = VettedJSONDecoder()
        let input = Data(#"[{"points": 1}, {"points": 2}]"#.utf8)
        try await withThrowingTaskGroup(of: Int.self) { group in
            for task in 0..<8 {
                group.addTask {
                    var decoded = 0
                    for round in 0..<200 {
                        if task % 2 == 0 {
                            decoder.validationMode = round % 2 == 0 ? .failFast : .collect
                            decoder.limits = Limits(maxDepth: 64 + round % 3)
                        }
                        decoded += try decoder.decode([Score].self, from: input).count
                    }
                    return decoded
                }
            }
            var total = 0
            for try await count in group { total += count }
            #expect(total == 8 * 200 * 2)
        }
    }
}
