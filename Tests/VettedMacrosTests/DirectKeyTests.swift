import Foundation
import Testing
import VettedCore
@_spi(Testing) import VettedJSON
import VettedMacros

/// Fields whose names are not all ASCII.
@Vetted struct AccentedKeys: Codable, Equatable {
    @Check(.range(1...10)) var größe: Int
    @Check(.length(1...3)) var name: String
}

/// Escaped and non-ASCII keys are read by the byte reader itself: decoded, looked up among
/// the type's spellings and compared with the object's other keys as Strings (canonical
/// equivalence), as the parser and the tape path compare them. Only a key equal to a
/// spelling as a String but not in bytes (another normalization) is left to the tape path.
@Suite struct DirectKeyTests {
    static let options = [DecoderOptions(), DecoderOptions(duplicates: .keepLast), DecoderOptions(mode: .failFast)]

    /// The byte reader's answer, the tape path's, and whether the byte reader gave it alone.
    static func answers<T: Decodable & Equatable>(_ type: T.Type, _ json: String, _ options: DecoderOptions) -> (Outcome, Outcome, Bool) {
        let data = Data(json.utf8)
        let decoder = options.decoder(generated: true)
        return (
            Outcome { try decoder.decode(T.self, from: data) },
            Outcome { try options.decoder(generated: true, direct: false).decode(T.self, from: data) },
            decoder.decodesDirectly(T.self, from: data)
        )
    }

    /// `once`: answered by the byte reader alone under the default options.
    static let accented: [(json: String, once: Bool)] = [
        (#"{"größe": 2, "name": "a"}"#, true),
        (#"{"gr\u00f6\u00dfe": 2, "name": "a"}"#, true),
        (#"{"größe": 20, "name": "abcd"}"#, true),
        // A missing field: a structural error, recorded as the reader reads on (`.collect`).
        (#"{"name": "a"}"#, true),
        (#"{"größe": 2, "gr\u00f6\u00dfe": 3, "name": "a"}"#, true),
        (#"{"größe": 2, "name": "a", "é": 1, "e\u0301": 2}"#, true),
        (#"{"größe": 2, "name": "a", "\u212A": 1, "K": 2}"#, true),
        (#"{"größe": 2, "name": "a", "x": 1, "\u0078": 2}"#, true),
        (#"{"größe": 2, "name": "a", "\u0078": 1, "x": 2}"#, true),
        (#"{"größe": 2, "name": "a", "\ud800": 1, "\udc00": 2}"#, true),
        (#"{"größe": 2, "name": "a", "\u00e9": 1, "x": 2, "y" 3}"#, true),
        // Canonically equal to the field's name, other bytes: the tape path, whose path names the document's spelling.
        ("{\"gro\u{0308}ße\": 2, \"name\": \"a\"}", false),
    ]

    @Test func accentedAndEscapedKeysGiveTheTapePathsAnswer() {
        for options in Self.options {
            for (json, once) in Self.accented {
                let (direct, tape, answeredOnce) = Self.answers(AccentedKeys.self, json, options)
                #expect(direct == tape, "under \(options): \(json)")
                if options.duplicates == .reject, options.mode == .collect {
                    #expect(answeredOnce == once, "\(json)")
                }
            }
        }
    }

    @Test func anEscapedFieldNameIsTheField() throws {
        let decoder = VettedJSONDecoder()
        let json = Data(#"{"gr\u00f6\u00dfe": 20, "na\u006de": "abcd"}"#.utf8)
        #expect(decoder.decodesDirectly(AccentedKeys.self, from: json))
        let error = try #require(throws: ValidationErrors.self) { try decoder.decode(AccentedKeys.self, from: json) }
        #expect(error.errors.map { "\($0.code) \($0.path) @\($0.offset ?? -1)" } == [#"outOfRange $["größe"] @20"#, "tooLong $.name @37"])
    }

    /// A repeat spelled another way is the parser's error, with both places, in one pass.
    @Test func aRepeatSpelledAnotherWayIsTheParsersError() throws {
        let json = #"{"größe": 2, "name": "a", "\u212A": 1, "K": 2}"#
        let decoder = VettedJSONDecoder()
        #expect(decoder.decodesDirectly(AccentedKeys.self, from: Data(json.utf8)))
        let error = try #require(throws: DecodingError.self) { try decoder.decode(AccentedKeys.self, from: Data(json.utf8)) }
        let vetted = try #require(error.vettedError)
        #expect("\(vetted.code) \(vetted.path) @\(vetted.offset ?? -1) related \(vetted.relatedOffset ?? -1)" == "duplicateKey $.K @41 related 28")
    }

    /// The parser resumed after an escaped key registers it decoded: a later plain repeat is its duplicate.
    @Test func theParserResumesWithEscapedKeys() throws {
        let base = DirectSyntaxTests.base.replacingOccurrences(of: #""count""#, with: #""\u0063ount""#)
        let json = "[\(base), \(String(base.dropLast())), \"count\": 1}]"
        let (direct, tape, once) = DirectSyntaxTests.answers(json)
        #expect(direct == tape)
        #expect(once)
        let error = try DirectSyntaxTests.syntaxError(json)
        #expect(error.code == .duplicateKey)
        #expect("\(error.path)" == "$[1].count")
        #expect(error.offset == json.utf8.count - 12)
    }

    /// Escaped and non-ASCII keys in the generated corpus's documents: every option, one answer.
    @Test func escapedKeysInTheDirectCorpus() {
        let base = DirectSyntaxTests.base
        let variants = [
            base.replacingOccurrences(of: #""label""#, with: #""\u006cabel""#),
            base.replacingOccurrences(of: #""unknown""#, with: #""unkn\u00f6wn""#),
            base.replacingOccurrences(of: #""other""#, with: #""\u00f6ther", "ö\u0308ther": 1, "öther""#),
            base.replacingOccurrences(of: #""count": 5"#, with: #""count": 5, "\u0063ount": 6"#),
        ]
        for options in Self.options {
            for json in variants + variants.map({ "\($0), \($0)" }) {
                let direct = Outcome { try options.decoder(generated: true).decode([DirectItem].self, from: Data("[\(json)]".utf8)) }
                let tape = Outcome { try options.decoder(generated: true, direct: false).decode([DirectItem].self, from: Data("[\(json)]".utf8)) }
                #expect(direct == tape, "under \(options): \(json)")
            }
        }
    }
}
