import Foundation
import Testing
import VettedCore
@_spi(Testing) import VettedJSON
import VettedMacros
@_spi(Testing) import VettedPlist
import VettedTestSupport

/// The same outcome through every path (an issue for each that differs); that outcome.
func everyPath<T: Decodable & Equatable>(_ type: T.Type, _ json: String, sourceLocation: SourceLocation = #_sourceLocation) -> ShapeOutcome<T> {
    let outcomes = ShapePath.allCases.map { $0.outcome(T.self, json) }
    for (path, outcome) in zip(ShapePath.allCases, outcomes) where outcome != outcomes[0] {
        Issue.record("\(json): \(path) gave \(outcome), bytes gave \(outcomes[0])", sourceLocation: sourceLocation)
    }
    return outcomes[0]
}

@Suite struct DefaultsAndAliasesTests {

    @Test func anAbsentKeyTakesTheDefaultThroughEveryPath() throws {
        #expect(everyPath(Page.self, #"{"id": 7}"#) == .value(Page(limit: 20, id: 7, language: "en", note: nil, tags: [])))
        #expect(
            everyPath(Page.self, #"{"limit": 5, "id": 7, "language": "fr", "tags": ["a"]}"#)
                == .value(Page(limit: 5, id: 7, language: "fr", note: nil, tags: ["a"])))
        #expect(VettedJSONDecoder().decodesDirectly(Page.self, from: Data(#"{"id": 7}"#.utf8)))
        // Foundation's decoder runs the generated init(from:): the same defaults.
        #expect(try JSONDecoder().decode(Page.self, from: Data(#"{"id": 7}"#.utf8)) == Page(limit: 20, id: 7, language: "en", note: nil, tags: []))
    }

    @Test func aPresentKeyOfTheWrongTypeOrNullIsAnErrorNeverTheDefault() throws {
        #expect(everyPath(Page.self, #"{"id": 7, "limit": null}"#) == .errors(["valueNotFound $.limit"]))
        #expect(everyPath(Page.self, #"{"id": 7, "limit": "5"}"#) == .errors(["typeMismatch $.limit"]))
        #expect(everyPath(Page.self, #"{"id": 7, "tags": null}"#) == .errors(["valueNotFound $.tags"]))
        // And a present value is checked: the default is not a fallback for a bad one.
        #expect(everyPath(Page.self, #"{"id": 7, "limit": 0}"#) == .errors(["outOfRange $.limit"]))
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Page.self, from: Data(#"{"id": 7, "limit": null}"#.utf8)) }
    }

    @Test func everySpellingIsAcceptedAndPathsShowTheOneUsed() throws {
        for key in ["id", "productId", "product_id"] {
            #expect(everyPath(Page.self, #"{"\#(key)": 9, "lang": "de"}"#) == .value(Page(limit: 20, id: 9, language: "de", note: nil, tags: [])))
        }
        #expect(everyPath(Page.self, #"{"product_id": 5000}"#) == .errors(["outOfRange $.product_id"]))
        #expect(everyPath(Page.self, #"{"productId": "x"}"#) == .errors(["typeMismatch $.productId"]))
        #expect(everyPath(Page.self, #"{"limit": 5}"#) == .errors(["keyNotFound $.id"]))
    }

    @Test func twoSpellingsOfOneFieldAreADuplicateKeyNamingBoth() throws {
        let json = #"{"id": 1, "limit": 5, "product_id": 2}"#
        #expect(everyPath(Page.self, json) == .errors(["duplicateKey $.product_id"]))
        let error = try #require(throws: DecodingError.self) { try VettedJSONDecoder().decode(Page.self, from: Data(json.utf8)) }
        let vetted = try #require(error.vettedError)
        #expect(vetted.code == .duplicateKey)
        #expect(vetted.offset == 36)  // the value of the second spelling
        #expect(vetted.message == #"keys "id" and "product_id" both spell one field"#)
        // Foundation's decoder, through the generated init(from:): the same code.
        let foundation = try #require(throws: DecodingError.self) { try JSONDecoder().decode(Page.self, from: Data(json.utf8)) }
        #expect(foundation.vettedError?.code == .duplicateKey)
    }

    @Test func aDefaultThatBreaksItsRulesIsADeclarationErrorInEveryMode() throws {
        for path in ShapePath.allCases {
            do {
                _ = try path.decode(HiddenDefault.self, #"{"name": "x"}"#)
                Issue.record("\(path): decoded")
            } catch let error as VettedError {
                #expect(error.code == .defaultBreaksRule && error.code.isRuleDeclaration, "\(path)")
                #expect(error.path.description == "$.HiddenDefault.count", "\(path)")
            } catch {
                Issue.record("\(path): \(error)")
            }
        }
        // A present key is the document's: checked as always.
        #expect(ShapePath.tape.outcome(HiddenDefault.self, #"{"name": "x", "count": 0}"#) == .errors(["outOfRange $.count"]))
        #expect(ShapePath.bytes.outcome(HiddenDefault.self, #"{"name": "x", "count": 3}"#) == .value(HiddenDefault(count: 3, name: "x")))
    }

    @Test func encodingWritesThePropertysOwnKey() throws {
        let page = Page(limit: 3, id: 4, language: "it", note: nil, tags: [])
        let text = String(decoding: try JSONEncoder().encode(page), as: UTF8.self)
        #expect(text.contains(#""id":4"#) && text.contains(#""language":"it""#))
        #expect(try VettedJSONDecoder().decode(Page.self, from: Data(text.utf8)) == page)
    }

    @Test func theDeclarationCheckSeesOneSpellingPerField() {
        #expect(Validation.checkDeclarations(of: Page.self) == [])
    }

    /// A default that breaks a rule the macro cannot check is found without sample data
    /// (before: `[]`, and a 500 at the first document without the key).
    @Test func theDeclarationCheckFindsADefaultThatBreaksItsRule() {
        let errors = Validation.checkDeclarations(of: HiddenDefault.self)
        #expect(errors.map { "\($0.code) \($0.path)" } == ["defaultBreaksRule $.HiddenDefault.count"])
    }

    /// Foundation's decoder, through the generated `init(from:)`, refuses the default too
    /// (before: `count` 0 stood in, breaking its own rule).
    @Test func foundationsDecoderRefusesADefaultThatBreaksItsRule() throws {
        let error = try #require(throws: VettedError.self) { try JSONDecoder().decode(HiddenDefault.self, from: Data(#"{"name": "x"}"#.utf8)) }
        #expect(error.code == .defaultBreaksRule && error.path.description == "$.HiddenDefault.count")
        #expect(try JSONDecoder().decode(Page.self, from: Data(#"{"id": 5}"#.utf8)) == Page(limit: 20, id: 5, language: "en", note: nil, tags: []))
    }

    @Test func arraysOfTheModelTakeDefaultsPerElement() {
        #expect(
            everyPath([Page].self, #"[{"id": 1}, {"productId": 2, "limit": 9}]"#)
                == .value([Page(limit: 20, id: 1, language: "en", note: nil, tags: []), Page(limit: 9, id: 2, language: "en", note: nil, tags: [])]))
        #expect(everyPath([Page].self, #"[{"id": 1}, {"productId": 2, "id": 3}]"#) == .errors(["duplicateKey $[1].id"]))
    }
}
