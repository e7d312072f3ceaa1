import Foundation
import Testing
import VettedCore
import VettedTestSupport
import VettedJSON

@Suite struct NestingTests {
    /// 100,000 opening brackets end in a depth error under every limit
    /// setting, in a child process that must exit normally (no stack overflow).
    @Test func deepNestingFailsWithADepthErrorNeverAStackOverflow() async {
        await #expect(processExitsWith: .success) {
            for opener in [UInt8(ascii: "["), UInt8(ascii: "{")] {
                var input = [UInt8](repeating: UInt8(ascii: "["), count: 100_000)
                if opener == UInt8(ascii: "{") { input = Array(String(repeating: "{\"a\":", count: 100_000).utf8) }
                for limits in [Limits(), Limits.unlimited, Limits(maxDepth: .max), Limits(maxDepth: 0)] {
                    for validateOnly in [false, true] {
                        do {
                            let parser = JSONParser(limits: limits)
                            if validateOnly { try parser.validate(input) } else { _ = try parser.parse(input) }
                            exit(1)
                        } catch {
                            if (error as? VettedError)?.code != .depthLimitExceeded { exit(2) }
                        }
                    }
                }
            }
        }
    }

    /// Documents at the depth ceiling can be parsed, compared, hashed, written
    /// and released on a thread with a 512 KiB stack.
    @Test func valuesAtTheDepthCeilingAreSafeOnSmallStacks() async throws {
        let depth = Limits.depthCeiling
        let text = String(repeating: "[{\"k\":", count: depth / 2) + "1" + String(repeating: "}]", count: depth / 2)
        let ok = await onSmallStack {
            do {
                let value = try JSONParser(limits: .unlimited).parse(text)
                let again = try JSONParser(limits: .unlimited).parse(value.jsonBytes(.pretty))
                var hasher = Hasher()
                value.hash(into: &hasher)
                return value == again && value.description.utf8.count == text.utf8.count
            } catch {
                return false
            }
        }
        #expect(ok)
        // One level more is refused at the 1,025th opener: the `{` of the 512th `[{"k":`.
        let error = thrownError { () throws(VettedError) in _ = try JSONParser(limits: .unlimited).parse("[" + text + "]") }
        #expect(error?.code == .depthLimitExceeded)
        #expect(error?.offset == 2 + 6 * 511)
        #expect(error?.path.components.count == depth)
    }
}

@Suite struct MutationTests {
    static let documents: [String] = [
        #"{"id":1,"name":"Guitar","price":"150.00","sold":false,"tags":["music","instruments"],"url":"https://junk.example.com/1"}"#,
        #"[0,-1.5e+3,true,null,"\u00e9\ud83d\ude00\n",{"a":[{}],"b":""},12345678901234567890]"#,
        "{\"nested\":[[[[{\"k\":\"v\"}]]]],\"é\":\"😀\",\"e\":\"\\\"\\\\\\/\\b\"}",
    ]

    /// Every single-byte replacement of every document parses to a value or a
    /// typed error with an offset inside the input, and validate-only agrees.
    @Test(arguments: documents)
    func everySingleByteChangeGivesAValueOrATypedError(document: String) {
        let original = Array(document.utf8)
        let parser = JSONParser()
        var failures = 0
        for position in original.indices {
            for replacement in 0...UInt8.max where replacement != original[position] {
                var mutated = original
                mutated[position] = replacement
                let parsed = Result { () throws(VettedError) in try parser.parse(mutated) }
                let validated = Result { () throws(VettedError) in try parser.validate(mutated) }
                switch (parsed, validated) {
                case (.success, .success):
                    continue
                case (.failure(let parseError), .failure(let validateError)):
                    if parseError != validateError || !(0...mutated.count).contains(parseError.offset ?? -1) {
                        failures += 1
                        Issue.record("byte \(position) → \(replacement): \(parseError) vs \(validateError)")
                    }
                default:
                    failures += 1
                    Issue.record("byte \(position) → \(replacement): parse and validate disagree")
                }
                if failures > 10 { return }
            }
        }
    }

    /// Every prefix (truncation) fails with a located error or is a complete value.
    @Test(arguments: documents)
    func everyTruncationFailsCleanly(document: String) {
        let bytes = Array(document.utf8)
        for length in 0..<bytes.count {
            let prefix = Array(bytes[..<length])
            let result = Result { () throws(VettedError) in try JSONParser().parse(prefix) }
            if case .failure(let error) = result {
                #expect((0...length).contains(error.offset ?? -1))
            }
        }
    }
}

@Suite struct RoundTripTests {
    /// Random values written compact and pretty read back equal; the seed is printed.
    @Test func randomValuesRoundTrip() throws {
        let seed = SeededGenerator.seed(for: "randomValuesRoundTrip")
        var generator = SeededGenerator(seed: seed)
        for iteration in 0..<500 {
            let value = RandomJSON.value(depth: 0, using: &generator)
            for style in [JSONWriter.Style.compact, .pretty] {
                let bytes = value.jsonBytes(style)
                let parsed = try JSONParser(limits: .unlimited).parse(bytes)
                #expect(parsed == value, "seed \(seed), iteration \(iteration)")
                #expect(throws: Never.self, "seed \(seed), iteration \(iteration)") { try JSONParser().validate(bytes) }
                #expect(parsed.jsonBytes(style) == bytes, "seed \(seed), iteration \(iteration)")
            }
        }
    }

    /// Random values agree with Foundation's JSONSerialization on what they contain.
    @Test func randomValuesAgreeWithJSONSerialization() throws {
        let seed = SeededGenerator.seed(for: "randomValuesAgreeWithJSONSerialization")
        var generator = SeededGenerator(seed: seed)
        for iteration in 0..<200 {
            let value = RandomJSON.value(depth: 0, maxExponent: 200, using: &generator)
            let data = Data(value.jsonBytes())
            let foundation = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
            let reserialized = try JSONSerialization.data(withJSONObject: foundation, options: [.fragmentsAllowed, .sortedKeys])
            let ours = try JSONSerialization.data(
                withJSONObject: try JSONSerialization.jsonObject(with: Data(try JSONParser().parse(data).jsonBytes()), options: [.fragmentsAllowed]),
                options: [.fragmentsAllowed, .sortedKeys])
            #expect(ours == reserialized, "seed \(seed), iteration \(iteration)")
        }
    }
}

enum RandomJSON {
    /// `maxExponent` bounds number exponents; 200 keeps every number inside
    /// `Double`'s range, as Foundation requires.
    static func value(depth: Int, maxExponent: Int = 300, using generator: inout SeededGenerator) -> JSONValue {
        let choice = Int.random(in: 0..<(depth >= 5 ? 4 : 6), using: &generator)
        switch choice {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &generator))
        case 2: return .number(number(maxExponent: maxExponent, using: &generator))
        case 3: return .string(string(using: &generator))
        case 4:
            return .array(
                (0..<Int.random(in: 0...5, using: &generator)).map { _ in
                    value(depth: depth + 1, maxExponent: maxExponent, using: &generator)
                })
        default:
            var object = JSONObject()
            for _ in 0..<Int.random(in: 0...5, using: &generator) {
                object[string(using: &generator)] = value(depth: depth + 1, maxExponent: maxExponent, using: &generator)
            }
            return .object(object)
        }
    }

    static func number(maxExponent: Int, using generator: inout SeededGenerator) -> JSONNumber {
        var literal = Bool.random(using: &generator) ? "-" : ""
        literal += Bool.random(using: &generator) ? "0" : String(UInt64.random(in: 1...UInt64.max, using: &generator) >> UInt64.random(in: 0...63, using: &generator))
        if Bool.random(using: &generator) { literal += "." + String(UInt32.random(in: 0...999_999, using: &generator)) }
        if Int.random(in: 0..<4, using: &generator) == 0 {
            literal += ["e", "E", "e+", "e-"].randomElement(using: &generator) ?? "e"
            literal += String(Int.random(in: 0...maxExponent, using: &generator))
        }
        return JSONNumber(literal: literal) ?? JSONNumber(0)
    }

    static let alphabet: [Unicode.Scalar] = [
        "a", "Z", "0", " ", "\"", "\\", "/", "\n", "\t", "\u{0}", "\u{1F}", "\u{7F}", "é", "€", "\u{2028}",
        "\u{FEFF}", "😀", "\u{10FFFF}", "\u{FFFD}", "\u{202E}",
    ]

    static func string(using generator: inout SeededGenerator) -> String {
        var result = String.UnicodeScalarView()
        for _ in 0..<Int.random(in: 0...12, using: &generator) {
            if let scalar = alphabet.randomElement(using: &generator) { result.append(scalar) }
        }
        return String(result)
    }
}
