import Foundation
import Testing
import VettedCore
import VettedJSON
import VettedRules
import VettedTestSupport

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

/// Codable decoding recurses once per level of the model, in the model's own
/// `init(from:)`; a stack budget, not a level count, keeps that from
/// overflowing a small thread stack, whatever the build and the frames cost.
@Suite struct DecodingDepthTests {
    struct Level: Decodable, Validatable {
        var k: [Level]
        var n: Int

        static let validation = Validation<Level> {
            Field("n", Rule<Int>.range(0...10))
            Relation("n", after: "n", as: Int.self)
        }

        var depth: Int { 1 + (k.first?.depth ?? 0) }
    }

    /// `[{"k":…,"n":1}]` nested `levels` times, innermost `[]`.
    static func document(levels: Int) -> Data {
        Data((String(repeating: "[{\"k\":", count: levels) + "[]" + String(repeating: ",\"n\":1}]", count: levels)).utf8)
    }

    /// Decodes on a thread with a 512 KiB stack (or `stackSize`), with a stack budget of `budget`.
    static func decodeOnSmallStack(
        levels: Int, stackSize: Int = 512 * 1024, budget: Int = Limits.default.maxStackBytes
    ) async -> Result<[Level], any Error> {
        let data = document(levels: levels)
        return await onThread(stackSize: stackSize) {
            let decoder = VettedJSONDecoder()
            decoder.limits = .unlimited
            decoder.limits.maxStackBytes = budget
            return Result { try decoder.decode([Level].self, from: data) }
        }
    }

    /// `JSONValue` fields are built from the tape by recursion of the decoder's
    /// own: at the parser's ceiling it stays within a 512 KiB stack too.
    @Test func jsonValuesAtTheDepthCeilingDecodeOnASmallStack() async throws {
        let depth = Limits.depthCeiling
        let text = String(repeating: "[{\"k\":", count: depth / 2) + "1" + String(repeating: "}]", count: depth / 2)
        let result = await onSmallStack {
            let decoder = VettedJSONDecoder()
            decoder.limits = .unlimited
            return Result { try decoder.decode(JSONValue.self, from: Data(text.utf8)) }
        }
        #expect(try result.get() == JSONParser(limits: .unlimited).parse(text))
    }

    /// The budget is `Limits.maxStackBytes`: a smaller one stops shallower
    /// models, and says which limit stopped them.
    @Test func aSmallerStackBudgetStopsShallowerModels() async throws {
        let result = await Self.decodeOnSmallStack(levels: 200, budget: 16 << 10)
        guard case .failure(DecodingError.dataCorrupted(let context)) = result, let error = context.underlyingError as? VettedError else {
            Issue.record("expected a depth error, got \(result)")
            return
        }
        #expect(error.code == .depthLimitExceeded)
        #expect(error.message == "the model nests deeper than decoding may recurse on the stack (16 KiB, Limits.maxStackBytes)")
        #expect(error.path.components.count > 8 && error.path.components.count < 100)
    }

    /// A thread with more stack may allow more: at the parser's ceiling, on a
    /// 16 MiB stack with an 8 MiB budget, the model decodes whole. (A debug build
    /// spends about 8.2 KiB of stack per level of this model, so a 4 MiB budget was
    /// within 2% of its 511 levels, and a case added to a switch on the path tipped it.)
    @Test func aLargerStackBudgetOnABigStackDecodesTheParsersCeiling() async throws {
        let levels = Limits.depthCeiling / 2 - 1
        let decoded = try await Self.decodeOnSmallStack(levels: levels, stackSize: 16 << 20, budget: 8 << 20).get()
        #expect(decoded.first?.depth == levels)
        var level = decoded.first
        while var current = level, let next = current.k.popLast() {  // release iteratively
            level = next
        }
    }

    @Test func shallowModelsDecodeWhole() async throws {
        let levels = try await Self.decodeOnSmallStack(levels: 10).get()
        #expect(levels.first?.depth == 10)
    }

    /// At the parser's ceiling the budget runs out first: a typed error at a
    /// path of the document's own shape ($[0].k[0].k…), never a crash.
    @Test func modelsAtTheDepthCeilingFailWithADepthErrorOnASmallStack() async throws {
        let result = await Self.decodeOnSmallStack(levels: Limits.depthCeiling / 2 - 1)
        guard case .failure(DecodingError.dataCorrupted(let context)) = result, let error = context.underlyingError as? VettedError else {
            Issue.record("expected a depth error, got \(result)")
            return
        }
        #expect(error.code == .depthLimitExceeded)
        let components = error.path.components
        #expect(components.count >= 8 && components.count < Limits.depthCeiling)
        #expect(components.enumerated().allSatisfy { index, component in component == (index.isMultiple(of: 2) ? .index(0) : .key("k")) })
        #expect(context.codingPath.count == components.count)
    }
}

