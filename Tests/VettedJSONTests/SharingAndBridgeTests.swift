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

    struct Stamp: Codable, Equatable {
        var createdAt: Date
        var blob: Data
        var ratio: Double
    }

    /// Every strategy set through the `JSONDecoder` face is Vetted's: set on the Vetted decoder, read back from it, used.
    @Test func strategiesSetThroughTheJSONDecoderFaceAreVettedsOwn() throws {
        let vetted = VettedJSONDecoder()
        let decoder = vetted.asJSONDecoder
        decoder.dateDecodingStrategy = .secondsSince1970
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dataDecodingStrategy = .custom { decoder in Data(try decoder.singleValueContainer().decode(String.self).utf8) }
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
        let key = try #require(CodingUserInfoKey(rawValue: "tenant"))
        decoder.userInfo = [key: "shop"]
        guard case .secondsSince1970 = vetted.dateDecodingStrategy, case .convertFromSnakeCase = vetted.keyDecodingStrategy,
            case .custom = vetted.dataDecodingStrategy, case .convertFromString("+inf", "-inf", "nan") = vetted.nonConformingFloatDecodingStrategy
        else {
            Issue.record("a strategy set through the JSONDecoder face did not reach the Vetted decoder")
            return
        }
        #expect(vetted.userInfo[key] as? String == "shop")
        guard case .secondsSince1970 = decoder.dateDecodingStrategy, case .convertFromSnakeCase = decoder.keyDecodingStrategy else {
            Issue.record("the JSONDecoder face does not read back the Vetted decoder's strategies")
            return
        }
        let stamp = try decoder.decode(Stamp.self, from: Data(#"{"created_at": 86400, "blob": "hi", "ratio": "+inf"}"#.utf8))
        #expect(stamp == Stamp(createdAt: Date(timeIntervalSince1970: 86_400), blob: Data("hi".utf8), ratio: .infinity))
        // Duplicate keys are still refused: it is still Vetted decoding.
        #expect(throws: DecodingError.self) { try decoder.decode(Stamp.self, from: Data(#"{"created_at": 1, "created_at": 2, "blob": "", "ratio": 1}"#.utf8)) }
    }

    /// A setting Vetted does not have is refused loudly: every decode through that face throws until it is unset.
    @Test func settingsVettedDoesNotHaveAreRefusedLoudly() throws {
        let decoder = VettedJSONDecoder().asJSONDecoder
        let input = Data(#"{"points": 3}"#.utf8)
        for setting in ["allowsJSON5", "assumesTopLevelDictionary"] {
            if setting == "allowsJSON5" { decoder.allowsJSON5 = true } else { decoder.assumesTopLevelDictionary = true }
            let error = #expect(throws: VettedError.self) { try decoder.decode(Score.self, from: input) }
            #expect(error?.code == .unsupportedOption)
            #expect(error?.message.hasPrefix("\(setting) was set on a Vetted decoder's JSONDecoder face") == true)
            if setting == "allowsJSON5" { decoder.allowsJSON5 = false } else { decoder.assumesTopLevelDictionary = false }
            #expect(try decoder.decode(Score.self, from: input) == Score(points: 3))
        }
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

/// Short strings come from a cache made only after the first few: before it, while it fills
/// and once it is full (slots taken by other strings of the same length), every string read
/// is the one written.
@Suite struct ShortStringCacheTests {
    @Test func everyShortStringIsReadAsWrittenBeforeAndAfterTheCacheIsMade() throws {
        let words = (0..<600).map { index in
            // Lengths 0 to 16 (the cache's longest) and 17 (past it); many repeat.
            let length = index % 18
            let letter = Character(Unicode.Scalar(UInt8(ascii: "a") + UInt8(index % 7)))
            return String(repeating: letter, count: length) + (index % 3 == 0 ? "" : String(index % 5))
        }
        let document = "[" + words.map { "\"\($0)\"" }.joined(separator: ",") + "]"
        #expect(try JSONValue(parsing: document) == .array(words.map { .string($0) }))
        let keyed = "{" + words.enumerated().map { "\"\($1)\(Character(Unicode.Scalar(UInt8(65 + $0 % 26))))\($0)\": \"\($1)\"" }
            .joined(separator: ",") + "}"
        guard case .object(let object) = try JSONValue(parsing: keyed) else {
            Issue.record("not an object")
            return
        }
        #expect(object.values == words.map { .string($0) })
    }
}
