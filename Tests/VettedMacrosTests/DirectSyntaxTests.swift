import Foundation
import Testing
import VettedCore
@_spi(Testing) import VettedJSON
import VettedMacros
import VettedTestSupport

/// A document that is not JSON is answered in one pass: the byte reader hands its open
/// containers to the parser, which goes on from the last boundary passed and gives the
/// error a parse from the start gives — code, offset, path, message, related offset.
@Suite struct DirectSyntaxTests {
    static let base = GenCorpus.directBase(date: "1533390784.5").text
    static let document = "[\(base), \(base)]"

    /// Everything the error says, for comparison.
    static func describe(_ error: VettedError) -> String {
        "\(error.code) @\(error.offset ?? -1) \(error.path) related \(error.relatedOffset ?? -1): \(error.message) | \(error.excerpt?.text ?? "")"
    }

    /// The answer of the byte reader and of the tape path, and whether the byte reader gave it alone.
    static func answers(_ json: String, _ options: DecoderOptions = DecoderOptions()) -> (direct: Outcome, tape: Outcome, once: Bool) {
        let data = Data(json.utf8)
        let decoder = options.decoder(generated: true)
        return (
            Outcome { try decoder.decode([DirectItem].self, from: data) },
            Outcome { try options.decoder(generated: true, direct: false).decode([DirectItem].self, from: data) },
            decoder.decodesDirectly([DirectItem].self, from: data)
        )
    }

    /// The located error of a decode that fails as not JSON.
    static func syntaxError(_ json: String, _ decoder: VettedJSONDecoder = VettedJSONDecoder()) throws -> VettedError {
        let error = try #require(throws: DecodingError.self) { try decoder.decode([DirectItem].self, from: Data(json.utf8)) }
        guard case .dataCorrupted = error else {
            Issue.record("not dataCorrupted: \(error)")
            throw error
        }
        return try #require(error.vettedError)
    }

    /// Every byte of the second element deleted, or replaced by or preceded by a byte that
    /// breaks the syntax: the same answer as the tape path's, under every option that bears on it.
    @Test(arguments: [DecoderOptions(), DecoderOptions(duplicates: .keepLast), DecoderOptions(mode: .failFast)])
    func everyByteMutationGivesTheTapePathsAnswer(_ options: DecoderOptions) {
        let bytes = Array(Self.document.utf8)
        let second = bytes.count - Self.base.utf8.count - 1
        var failures = 0
        var once = 0
        var syntax = 0
        for position in second..<bytes.count where failures < 5 {
            var variants: [[UInt8]] = [Array(bytes[..<position] + bytes[(position + 1)...])]
            for byte in Array(",:}\"".utf8) { variants.append(Array(bytes[..<position] + [byte] + bytes[position...])) }
            for byte in Array("]x".utf8) { variants.append(Array(bytes[..<position] + [byte] + bytes[(position + 1)...])) }
            for variant in variants {
                let json = String(decoding: variant, as: UTF8.self)
                let (direct, tape, answeredOnce) = Self.answers(json, options)
                if direct != tape {
                    Issue.record("under \(options):\n  \(json)\n  direct: \(direct)\n  tape: \(tape)")
                    failures += 1
                }
                if case .decoding(let text) = tape, text.hasPrefix("dataCorrupted  The given data was not valid JSON") {
                    syntax += 1
                    if answeredOnce { once += 1 }
                }
            }
        }
        // Nearly every syntax error is answered in one pass; the rest (a repeat the policy keeps,
        // an escaped key before the error) are the tape path's.
        #expect(syntax > 500)
        #expect(Double(once) >= 0.95 * Double(syntax), "\(once) of \(syntax) syntax errors answered in one pass")
    }

    @Test func aMissingColonNearTheEndIsTheParsersError() throws {
        let json = Self.document.replacingOccurrences(of: #""other": {}}]"#, with: #""other" {}}]"#)
        let (_, _, once) = Self.answers(json)
        #expect(once)
        let error = try Self.syntaxError(json)
        let offset = DirectFailureTests.offset(of: "{}}]", in: json)
        #expect(Self.describe(error) == "missingColon @\(offset) $[1].other related -1: expected ':' after the key | \(error.excerpt?.text ?? "")")
    }

    @Test func aRepeatedKeyIsTheParsersErrorWithBothPlaces() throws {
        let json = String(Self.document.dropLast(2)) + #", "count": 1}]"#
        let (_, _, once) = Self.answers(json)
        #expect(once)
        let error = try Self.syntaxError(json)
        let bytes = Array(json.utf8)
        let later = bytes.count - 12
        let first = DirectFailureTests.offset(of: #""count""#, in: json, after: Array(("[" + Self.base + ", ").utf8).count)
        #expect(error.code == .duplicateKey)
        #expect(error.offset == later)
        #expect(error.relatedOffset == first)
        #expect("\(error.path)" == "$[1].count")
        // Kept by the policy: no error, the tape path decides which value counts.
        let keepLast = VettedJSONDecoder()
        keepLast.duplicateKeyPolicy = .keepLast
        #expect(try keepLast.decode([DirectItem].self, from: Data(json.utf8)).last?.count == 1)
    }

    @Test func trailingDataAndAnUnclosedArrayAreTheParsersErrors() throws {
        let trailing = Self.document + " x"
        #expect(Self.answers(trailing).once)
        #expect(Self.describe(try Self.syntaxError(trailing)).hasPrefix("trailingData @\(trailing.utf8.count - 1) $ "))
        let unclosed = String(Self.document.dropLast())
        #expect(Self.answers(unclosed).once)
        let unclosedError = try Self.syntaxError(unclosed)
        #expect(Self.describe(unclosedError).hasPrefix("unterminatedArray @0 $[1] "), "\(Self.describe(unclosedError))")
    }

    /// Fuzz finding generated-crash-b5bf262d (`[\0]`): the byte reader stopped at the NUL, and the
    /// parser resumed there; a parse from the start first finds the document is not UTF-8.
    @Test func fuzzGeneratedEncodingBeforeTheFirstDoubt() throws {
        let json = "[\u{0}]"
        let (direct, tape, once) = Self.answers(json)
        #expect(direct == tape)
        #expect(once)
        #expect(Self.describe(try Self.syntaxError(json)).hasPrefix("unsupportedEncoding @0 $ "))
    }

    /// Fuzz finding generated-crash-e22ae588: an adjacently tagged union whose payload (a struct)
    /// has keys that are no field, holding an object, and whose own object is never closed. The
    /// answer is the parser's `unterminatedObject` on every path and mode.
    @Test func fuzzGeneratedAnUnclosedAdjacentUnion() throws {
        let json = #"{"type":"listing.sold","data":{"type":"listing.sold","data":{"i`":1,""# + String(repeating: "\u{FFFD}", count: 35) + #"price":3}}"#
        for mode in CollectedStructuralDifferentialTests.modes {
            let tape = VettedJSONDecoder()
            tape.validationMode = mode
            tape.directDecoding = false
            let bytes = VettedJSONDecoder()
            bytes.validationMode = mode
            let expected = try #require(throws: DecodingError.self) { try tape.decode(WrappedEvent.self, from: Data(json.utf8)) }.vettedError
            let found = try #require(throws: DecodingError.self) { try bytes.decode(WrappedEvent.self, from: Data(json.utf8)) }.vettedError
            #expect(found.map(Self.describe) == expected.map(Self.describe), "\(mode)")
            #expect(found?.code == .unterminatedObject, "\(mode)")
        }
    }

    /// The parser's limits count from the start of the document, not from where it resumed.
    @Test func limitsCountTheWholeDocument() throws {
        let decoder = VettedJSONDecoder()
        let values = try #require(
            {
                let tape = VettedJSONDecoder()
                tape.directDecoding = false
                tape.limits = Limits(maxValues: 70)
                return try? #require(throws: DecodingError.self) { try tape.decode([DirectItem].self, from: Data(Self.document.utf8)) }.vettedError
            }())
        decoder.limits = Limits(maxValues: 70)
        let error = try Self.syntaxError(Self.document, decoder)
        #expect(Self.describe(error) == Self.describe(values))
        #expect(error.code == .valueLimitExceeded)
        #expect(decoder.decodesDirectly([DirectItem].self, from: Data(Self.document.utf8)))
    }
}
