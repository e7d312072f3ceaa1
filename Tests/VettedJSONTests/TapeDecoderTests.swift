import Foundation
import Testing
import VettedCore
import VettedJSON

/// Paths of the tape decoder that the differential tests reach only by
/// chance: key lookups out of document order, containers used after their
/// parent moved on, repeated keys kept by policy, `JSONValue` input.
@Suite struct TapeDecoderTests {
    struct Pair: Decodable, Equatable {
        var first: Int
        var second: String
    }

    @Test func keysAreFoundInAnyOrderAndMissingOnesNamed() throws {
        let decoder = VettedJSONDecoder()
        #expect(try decoder.decode(Pair.self, from: Data(#"{"second": "b", "first": 1}"#.utf8)) == Pair(first: 1, second: "b"))
        #expect(try decoder.decode([Pair].self, from: Data(#"[{"first": 1, "x": 0, "second": "a"}, {"second": "b", "first": 2}]"#.utf8))
            == [Pair(first: 1, second: "a"), Pair(first: 2, second: "b")])
        #expect {
            try decoder.decode([Pair].self, from: Data(#"[{"first": 1, "second": "a"}, {"second": "b"}]"#.utf8))
        } throws: { error in
            guard case DecodingError.keyNotFound(let key, let context) = error else { return false }
            return key.stringValue == "first" && context.codingPath.map(\.stringValue) == ["Index 1"]
        }
    }

    /// Decodes `inner.value` after a sibling: the nested container keeps its own path.
    struct Interleaved: Decodable {
        enum Keys: String, CodingKey { case inner, other, value }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            let inner = try container.nestedContainer(keyedBy: Keys.self, forKey: .inner)
            _ = try container.decode([Int].self, forKey: .other)
            _ = try inner.decode(Int.self, forKey: .value)
        }
    }

    @Test func nestedContainersKeepTheirPathAfterTheParentMovesOn() {
        #expect {
            try VettedJSONDecoder().decode(Interleaved.self, from: Data(#"{"inner": {"value": "x"}, "other": [1, 2]}"#.utf8))
        } throws: { error in
            guard case DecodingError.typeMismatch(_, let context) = error else { return false }
            return context.codingPath.map(\.stringValue) == ["inner", "value"]
        }
    }

    @Test func repeatedKeysFollowThePolicy() throws {
        let json = Data(#"{"first": 1, "second": "a", "first": 2}"#.utf8)
        let decoder = VettedJSONDecoder()
        decoder.duplicateKeyPolicy = .keepFirst
        #expect(try decoder.decode(Pair.self, from: json) == Pair(first: 1, second: "a"))
        #expect(try decoder.decode([String: Int?].self, from: Data(#"{"a": 1, "a": null}"#.utf8)) == ["a": 1])
        decoder.duplicateKeyPolicy = .keepLast
        #expect(try decoder.decode(Pair.self, from: json) == Pair(first: 2, second: "a"))
        #expect(try decoder.decode([String: Int?].self, from: Data(#"{"a": 1, "a": null}"#.utf8)) == ["a": Int?.none])
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        #expect(try decoder.decode(Pair.self, from: json) == Pair(first: 2, second: "a"))
    }

    @Test func escapedKeysAndStringsDecode() throws {
        let pair = try VettedJSONDecoder().decode(Pair.self, from: Data(#"{"fir\u0073t": 7, "second": "a\"b\u00e9\ud83c\udfb8"}"#.utf8))
        #expect(pair == Pair(first: 7, second: "a\"bé🎸"))
    }

    @Test func jsonValuesDecodeAndJSONValueFieldsKeepTheirLiterals() throws {
        struct Wrapper: Decodable { var any: JSONValue }
        let value: JSONValue = ["first": .number(JSONNumber(3)), "second": "s"]
        #expect(try VettedJSONDecoder().decode(Pair.self, from: value) == Pair(first: 3, second: "s"))
        let wrapper = try VettedJSONDecoder().decode(Wrapper.self, from: Data(#"{"any": [1.50, {"k": null}, "t"]}"#.utf8))
        #expect(wrapper.any == [.number(try #require(JSONNumber(literal: "1.50"))), ["k": .null], "t"])
    }
}
