import Foundation
import Testing
import VettedCore
import VettedJSON
import VettedRules

/// One error story for structure: a value that is not the model's shape is
/// reported at one stage and one `$`-path whatever failed before it in the
/// document, and carries its located `VettedError` as a parse error does.
@Suite struct StructuralErrorTests {
    enum Terrain: String, Codable { case hill, sea, forest }

    struct Trip: Codable, Validatable {
        var id: Int
        var terrains: [Terrain]
        static let validation = Validation<Trip> {
            Field("id", .range(1...100))
        }
    }

    let decoder = VettedJSONDecoder()

    func failure<T: Decodable>(_ type: T.Type, _ json: String, mode: ValidationMode = .collect) throws -> DecodingError {
        let decoder = VettedJSONDecoder()
        decoder.validationMode = mode
        return try #require(throws: DecodingError.self) { try decoder.decode(type, from: Array(json.utf8)) }
    }

    /// The issue's reproducer: a bad enum value after a rule violation (id 0)
    /// and without one (id 1) gives the same error, at `$[1].terrains[2]`.
    @Test(arguments: [0, 1])
    func aBadEnumValueReportsTheSameWhateverFailedBefore(firstID: Int) throws {
        let json = #"[{"id": \#(firstID), "terrains": ["hill"]}, {"id": 2, "terrains": ["hill", "sea", "bogus"]}]"#
        let error = try failure([Trip].self, json)
        guard case .dataCorrupted(let context) = error else {
            Issue.record("expected dataCorrupted, got \(error)")
            return
        }
        #expect(context.codingPath.map(\.stringValue) == ["Index 1", "terrains", "Index 2"])
        let located = try #require(error.vettedError)
        let offset = try #require(json.utf8.firstRange(of: #""bogus""#.utf8)).lowerBound
        let expectedOffset = json.utf8.distance(from: json.utf8.startIndex, to: offset)
        #expect(located == VettedError(code: .invalidValue, offset: expectedOffset, path: [.index(1), .key("terrains"), .index(2)]))
        #expect("\(located.path)" == "$[1].terrains[2]")
        #expect(located.excerpt?.text.contains("bogus") == true)
        #expect(VettedFailure(error).stage == .structure)
        #expect(VettedFailure(error).errors == [located])
    }

    /// The standard library's message quotes the raw value; the located error's
    /// is escaped and capped, so logging it cannot forge lines or flood a log.
    @Test func theTypesOwnMessageIsEscapedAndCapped() throws {
        let hostile = "\u{1B}[2J" + String(repeating: "x", count: 5_000) + "\n"
        let escapedJSON = hostile.unicodeScalars.map { $0.value < 0x20 ? String(format: "\\u%04x", $0.value) : String($0) }.joined()
        let json = #"{"id": 1, "terrains": ["\#(escapedJSON)"]}"#
        let located = try #require(try failure(Trip.self, json).vettedError)
        #expect(located.code == .invalidValue)
        #expect(!located.message.contains("\u{1B}"))
        #expect(!located.message.contains("\n"))
        #expect(located.message.utf8.count < 200)
        // In the document's terms, and none of the input (before: "invalid value: Cannot initialize
        // Terrain from invalid String value \u{1B}[2Jxxx…", 69 bytes of the input).
        #expect(located.message == "not one of the allowed values")
        #expect(!located.message.contains("xxx") && !located.message.contains("Terrain"))
    }

    /// A description of the type's own (a custom `init(from:)`) is shown up to an excerpt's 40 bytes.
    @Test func aCustomDescriptionIsCappedAtAnExcerpt() throws {
        struct Odd: Decodable {
            init(from decoder: any Decoder) throws {
                let text = try decoder.singleValueContainer().decode(String.self)
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not odd: " + text))
            }
        }
        struct Holder: Decodable { var odd: Odd }
        let long = String(repeating: "y", count: 300)
        let located = try #require(try failure(Holder.self, #"{"odd": "\#(long)"}"#).vettedError)
        #expect(located.message == #""odd": invalid value: not odd: "# + String(repeating: "y", count: 28) + "…")
    }

    @Test func aMissingKeyIsLocatedAtItsObject() throws {
        let json = #"[{"id": 1, "terrains": []}, {"id": 2}]"#
        let error = try failure([Trip].self, json)
        guard case .keyNotFound(let key, _) = error else {
            Issue.record("expected keyNotFound, got \(error)")
            return
        }
        #expect(key.stringValue == "terrains")
        // The object `{"id": 2}` starts at offset 28.
        #expect(error.vettedError == VettedError(code: .keyNotFound, offset: 28, path: [.index(1), .key("terrains")]))
    }

    @Test func aNullAndAWrongTypeAreLocatedAtTheirValues() throws {
        let null = try failure(Trip.self, #"{"id": null, "terrains": []}"#)
        #expect(null.vettedError == VettedError(code: .valueNotFound, offset: 7, path: [.key("id")]))
        let mismatch = try failure(Trip.self, #"{"id": 1, "terrains": {"a": 1}}"#)
        #expect(mismatch.vettedError == VettedError(code: .typeMismatch, offset: 22, path: [.key("terrains")]))
        #expect(mismatch.vettedError?.location == LineColumn(line: 1, column: 23))
    }

    /// Nested containers: the opening bracket of the innermost one, found back
    /// over whitespace and the outer brackets' first members.
    @Test func aContainerIsLocatedAtItsOpeningBracket() throws {
        let json = "[1,\n  [[\"a\"]]]"
        let error = try failure([Int].self, json)
        #expect(error.vettedError == VettedError(code: .typeMismatch, offset: 6, path: [.index(1)]))
        #expect(error.vettedError?.location == LineColumn(line: 2, column: 3))
    }

    /// Fail-fast stops at the first defect in document order: the violation, when it comes first.
    @Test func failFastReportsTheFirstDefect() throws {
        let decoder = VettedJSONDecoder()
        decoder.validationMode = .failFast
        let json = #"[{"id": 0, "terrains": ["hill"]}, {"id": 2, "terrains": ["bogus"]}]"#
        let error = try #require(throws: ValidationErrors.self) { try decoder.decode([Trip].self, from: Array(json.utf8)) }
        #expect(error.errors == [VettedError(code: .outOfRange, offset: 8, path: [.index(0), .key("id")])])
    }

    /// `Skipping` sets an element aside with the same located error.
    @Test func aSkippedElementCarriesTheLocatedError() throws {
        let json = #"[{"id": 0, "terrains": ["bogus"]}, {"id": 2, "terrains": ["sea"]}]"#
        let page = try decoder.decode(Skipping<Trip>.self, from: Array(json.utf8))
        #expect(page.values.map(\.id) == [2])
        let skipped = try #require(page.skipped.first)
        #expect(skipped.index == 0)
        let error = try #require(skipped.error as? DecodingError)
        #expect(error.vettedError == VettedError(code: .invalidValue, offset: 24, path: [.index(0), .key("terrains"), .index(0)]))
    }

    /// Under a key strategy the path is the coding keys', and the location still found.
    @Test func aConvertedKeyIsFound() throws {
        struct Snake: Decodable { var lastUpdated: Int }
        let decoder = VettedJSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let error = try #require(throws: DecodingError.self) {
            try decoder.decode(Snake.self, from: Array(#"{"last_updated": "x"}"#.utf8))
        }
        #expect(error.vettedError == VettedError(code: .typeMismatch, offset: 17, path: [.key("lastUpdated")]))
    }
}
