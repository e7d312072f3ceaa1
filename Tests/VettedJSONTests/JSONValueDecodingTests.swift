import Foundation
import Testing
import VettedCore
import VettedJSON
import VettedRules

/// `decode(_:from: JSONValue)` reads strings and numbers from the value itself: no
/// JSON text is written or parsed, so nothing in a string needs escaping, and errors
/// carry a path without an offset.
@Suite struct JSONValueDecodingTests {
    struct Pair: Decodable, Equatable {
        var first: Int
        var second: String
    }

    struct Checked: Decodable, Validatable {
        var id: Int
        var name: String
        static let validation = Validation<Checked> {
            Field("id", .range(1...100))
        }
    }

    @Test func stringsNeedNoEscapingAndKeepEveryScalar() throws {
        let awkward = "a\"b\\c\n\u{0}\u{1B}é🎸\u{2028}"
        let value: JSONValue = [awkward: .string(awkward), "list": [.string(awkward), "plain"]]
        let decoded = try VettedJSONDecoder().decode([String: JSONValue].self, from: value)
        #expect(decoded[awkward] == .string(awkward))
        #expect(try VettedJSONDecoder().decode([String: [String]].self, from: ["k": [.string(awkward)]]) == ["k": [awkward]])
        // The same as decoding the value's text.
        let text = value.jsonBytes()
        #expect(try VettedJSONDecoder().decode([String: JSONValue].self, from: text) == decoded)
    }

    @Test func numbersKeepTheirLiterals() throws {
        let big = try #require(JSONNumber(literal: "18446744073709551615"))
        let exact = try #require(JSONNumber(literal: "1.50e0"))
        #expect(try VettedJSONDecoder().decode([UInt64].self, from: [.number(big)]) == [UInt64.max])
        #expect(try VettedJSONDecoder().decode([JSONValue].self, from: [.number(exact)]) == [.number(exact)])
        #expect(try VettedJSONDecoder().decode(Double.self, from: .number(exact)) == 1.5)
    }

    @Test func ofARepeatedKeyTheFirstCounts() throws {
        // "café" twice: once precomposed, once with a combining accent (the same String).
        let object = JSONObject([
            .init(key: "first", value: 1), .init(key: "second", value: "a"), .init(key: "first", value: 2),
            .init(key: "caf\u{E9}", value: 3), .init(key: "cafe\u{301}", value: 4),
        ])
        #expect(try VettedJSONDecoder().decode(Pair.self, from: .object(object)) == Pair(first: 1, second: "a"))
        #expect(try VettedJSONDecoder().decode([String: Int?].self, from: ["a": 1, "b": .null])["caf\u{E9}"] == nil)
        let counts = try VettedJSONDecoder().decode([String: JSONValue].self, from: .object(object))
        #expect(counts["cafe\u{301}"] == 3)
        #expect(counts["first"] == 1)
    }

    @Test func aWrongTypeIsReportedAtItsPathWithoutAnOffset() throws {
        let value: JSONValue = [["first": 1, "second": "a"], ["first": "one", "second": "b"]]
        let error = try #require(throws: DecodingError.self) { try VettedJSONDecoder().decode([Pair].self, from: value) }
        guard case .typeMismatch = error else {
            Issue.record("expected typeMismatch, got \(error)")
            return
        }
        #expect(error.vettedError == VettedError(code: .typeMismatch, path: [.index(1), .key("first")]))
        #expect(error.vettedError?.offset == nil)
    }

    @Test func aMissingKeyIsReportedAtItsObject() throws {
        let error = try #require(throws: DecodingError.self) { try VettedJSONDecoder().decode([Pair].self, from: [["first": 1]]) }
        #expect(error.vettedError == VettedError(code: .keyNotFound, path: [.index(0), .key("second")]))
    }

    @Test func aBrokenRuleIsReportedAtItsPathWithoutAnOffset() throws {
        let value: JSONValue = ["id": 500, "name": "x"]
        let error = try #require(throws: ValidationErrors.self) { try VettedJSONDecoder().decode(Checked.self, from: value) }
        #expect(error.errors.map(\.code) == [.outOfRange])
        #expect(error.errors.map(\.path) == [[.key("id")]])
        #expect(error.errors.map(\.offset) == [nil])
    }

    @Test func aValueDeeperThanAnyParseLimitDecodesAsAJSONValue() throws {
        var value = JSONValue.array([])
        for _ in 0..<2_000 { value = .array([value]) }
        #expect(try VettedJSONDecoder().decode(JSONValue.self, from: value) == value)
    }
}
