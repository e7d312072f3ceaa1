import Foundation
import Testing
import VettedCore
@_spi(Testing) import VettedJSON
import VettedMacros
@_spi(Testing) import VettedPlist
import VettedTestSupport

// One input, one answer: a `@Vetted` type with defaults and aliases read by
// generated decoding (from the bytes, from the tape) and by its generated
// `init(from:)` (the path a key strategy takes, and the property-list decoder
// with generated decoding off) gives the same value or the same errors (code,
// path, offset, message, in the same order) on every mutation, under every option.

/// An event whose payload spells a field two ways.
@Vetted struct MovedItem: Codable, Equatable {
    @Check(.range(1...1_000)) @Alias("item_id") var itemId: Int
    @Check(.count(1...3)) var path: [Int]
}

@Vetted(tag: "type") enum AliasedEvent: Codable, Equatable {
    case moved(MovedItem)
    case created(TestCreated)
}

/// A field whose rule its literal default breaks (the macro does not check `length`).
@Vetted struct LongDefault: Codable, Equatable {
    @Check(.length(1...3)) @Default("toolong") var code: String
    @Alias("naïve") var name: String
}

/// Unions held by a struct's fields, alone, optional and in an array: read by the byte reader too.
@Vetted struct UnionHolder: Codable, Equatable {
    @Check(.length(1...5)) var name: String
    var first: TestEvent
    var maybe: WrappedEvent?
    @Check(.count(0...3)) var events: [TestEvent]
}

enum OneAnswerCorpus {
    static let replacements = [
        "null", "0", "-0", "-0.0", "7", "101", "5000", "1.5", "1e400", #""x""#, #""toolong""#, #""""#, "[]", "[1, 2, 3, 4]", "{}", "true",
    ]

    /// Every single mutation of `base`, then each aliased key spelled each way and
    /// repeated by another spelling before and after the others (valid and invalid values).
    static func documents(_ base: Members, spellings: [[String]]) -> [String] {
        var documents = GenCorpus.documents(base: base, replacements: replacements)
        for group in spellings {
            guard let index = base.members.firstIndex(where: { group.contains($0.key) }) else { continue }
            for spelling in group {
                var respelled = base
                respelled.members[index].key = spelling
                documents.append(respelled.text)
                for value in [base.members[index].value, "0", #""x""#] where spelling != base.members[index].key {
                    var front = base
                    front.members.insert((spelling, value), at: 0)
                    documents.append(front.text)
                    var back = base
                    back.members.append((spelling, value))
                    documents.append(back.text)
                    // With a broken earlier field: which error comes first is the same everywhere.
                    var broken = back
                    broken.members[0].value = #"{"no": 1}"#
                    documents.append(broken.text)
                }
            }
        }
        return documents
    }

    static let page = Members(members: [("limit", "5"), ("product_id", "7"), ("lang", #""fr""#), ("note", #""n""#), ("tags", #"["a"]"#)])
    static let pageSpellings = [["id", "productId", "product_id"], ["language", "lang"]]
    static let event = Members(members: [("type", #""moved""#), ("item_id", "5"), ("path", "[1]")])
    static let eventSpellings = [["itemId", "item_id"]]
    static let longDefault = Members(members: [("code", #""abc""#), ("naïve", #""n""#)])
    static let longDefaultSpellings = [["name", "naïve"]]
    static let holder = Members(members: [
        ("name", #""n""#), ("first", #"{"type": "created", "id": 1, "name": "x"}"#),
        ("maybe", #"{"type": "listing.sold", "data": {"id": 2, "price": 3}}"#),
        ("events", #"[{"type": "listing.sold", "id": 1, "price": 0}, {"type": "created", "id": 2, "name": "y"}]"#),
    ])
}

@Suite struct OneAnswerDifferentialTests {
    /// The JSON paths: the bytes, the tape, the bytes under a `custom` key strategy that keeps
    /// every key, and `init(from:)` under that strategy on the tape.
    func jsonOutcomes<T: Decodable & Equatable>(_ type: T.Type, _ document: String, _ options: DecoderOptions) -> [(String, Outcome)] {
        let data = Data(document.utf8)
        return [
            ("bytes", Outcome { try options.decoder(generated: true, direct: true).decode(T.self, from: data) }),
            ("tape", Outcome { try options.decoder(generated: true, direct: false).decode(T.self, from: data) }),
            ("the bytes under a custom key strategy", Outcome { try options.convertingDecoder().decode(T.self, from: data) }),
            ("init(from:) on the tape", Outcome { try options.decoder(generated: false).decode(T.self, from: data) }),
        ]
    }

    /// Records each path that answers otherwise than the first; whether all agreed.
    func agree(_ outcomes: [(String, Outcome)], _ what: String) -> Bool {
        guard let (firstName, first) = outcomes.first else { return true }
        var agreed = true
        for (name, outcome) in outcomes.dropFirst() where outcome != first {
            Issue.record("\(what)\n  \(firstName): \(first)\n  \(name): \(outcome)")
            agreed = false
        }
        return agreed
    }

    func check<T: Decodable & Equatable>(_ type: T.Type, _ documents: [String]) {
        var failures = 0
        for options in GeneratedDecodingDifferentialTests.configurations {
            for document in documents where failures < 5 {
                if !agree(jsonOutcomes(T.self, document, options), "\(T.self) under \(options): \(document)") { failures += 1 }
                let array = "[\(document), \(document)]"
                if !agree(jsonOutcomes([T].self, array, options), "[\(T.self)] under \(options): \(array)") { failures += 1 }
            }
        }
        // Property lists: generated decoding and init(from:) on the same values.
        for document in documents where failures < 5 {
            var parser = JSONParser()
            parser.options.duplicateKeys = .keepLast
            guard let value = try? parser.parse(Data(document.utf8)) else { continue }
            let bytes = PlistWriter.binary(ShapePath.plist(value))
            let outcomes = [true, false].map { generated in
                let decoder = VettedPropertyListDecoder()
                decoder.generatedDecoding = generated
                return (generated ? "generated" : "init(from:)", Outcome { try decoder.decode(T.self, from: bytes) })
            }
            if !agree(outcomes, "\(T.self) as a property list: \(document)") { failures += 1 }
        }
    }

    @Test func defaultsAndAliasesGiveOneAnswer() {
        check(Page.self, OneAnswerCorpus.documents(OneAnswerCorpus.page, spellings: OneAnswerCorpus.pageSpellings))
    }

    @Test func aUnionPayloadsAliasesGiveOneAnswer() {
        check(AliasedEvent.self, OneAnswerCorpus.documents(OneAnswerCorpus.event, spellings: OneAnswerCorpus.eventSpellings))
    }

    @Test func unionsInAStructsFieldsGiveOneAnswer() throws {
        check(UnionHolder.self, OneAnswerCorpus.documents(OneAnswerCorpus.holder, spellings: []))
        let valid = Data(OneAnswerCorpus.holder.text.utf8)
        #expect(VettedJSONDecoder().decodesDirectly(UnionHolder.self, from: valid))
        #expect(VettedJSONDecoder().decodesDirectly([UnionHolder].self, from: Data("[\(OneAnswerCorpus.holder.text)]".utf8)))
        // Under `convertFromSnakeCase` too (before: the tape path's), since no tag or content key has an underscore.
        let snake = VettedJSONDecoder()
        snake.keyDecodingStrategy = .convertFromSnakeCase
        #expect(snake.decodesDirectly(UnionHolder.self, from: valid))
        #expect(try snake.decode(UnionHolder.self, from: valid) == VettedJSONDecoder().decode(UnionHolder.self, from: valid))
    }

    @Test func aDefaultThatBreaksItsRuleGivesOneAnswer() {
        check(LongDefault.self, OneAnswerCorpus.documents(OneAnswerCorpus.longDefault, spellings: OneAnswerCorpus.longDefaultSpellings))
    }

    // The four differences a hand-written twin found, each on every path.

    /// Before: under a key strategy `{"productId": 0}` decoded with `id` 0 (the rule was looked up by the spelling).
    @Test func aRuleRunsOnEverySpellingOfItsField() throws {
        for options in GeneratedDecodingDifferentialTests.configurations {
            for generated in [true, false] {
                let decoder = options.decoder(generated: generated)
                let error = try #require(throws: (any Error).self) {
                    try decoder.decode(AliasedEvent.self, from: Data(#"{"type": "moved", "item_id": 0, "path": [1]}"#.utf8))
                }
                let located = try #require(Self.firstError(error))
                #expect("\(located.code) \(located.path) @\(located.offset ?? -1)" == "outOfRange $.item_id @29", "\(options) generated \(generated)")
            }
        }
        let snake = VettedJSONDecoder()
        snake.keyDecodingStrategy = .convertFromSnakeCase
        let error = try #require(throws: ValidationErrors.self) { try snake.decode(Page.self, from: Data(#"{"productId": 0}"#.utf8)) }
        #expect(error.errors.map { "\($0.code) \($0.path) @\($0.offset ?? -1)" } == ["outOfRange $.productId @14"])
    }

    /// A default that breaks its rule is `defaultBreaksRule` on every path and option.
    @Test func aDefaultThatBreaksItsRuleIsRefusedEverywhere() throws {
        for options in GeneratedDecodingDifferentialTests.configurations {
            for generated in [true, false] {
                let error = try #require(throws: VettedError.self) {
                    try options.decoder(generated: generated).decode(LongDefault.self, from: Data(#"{"name": "n"}"#.utf8))
                }
                #expect("\(error.code) \(error.path)" == "defaultBreaksRule $.LongDefault.code", "\(options) generated \(generated)")
            }
        }
    }

    /// Before: init(from:) reported the second spelling in declaration order (`$["naïve"]`).
    @Test func twoSpellingsAreReportedAtTheSecondInTheDocument() throws {
        let json = Data(#"{"code": "abc", "naïve": "b", "name": "a"}"#.utf8)
        for options in GeneratedDecodingDifferentialTests.configurations {
            for generated in [true, false] {
                let error = try #require(throws: DecodingError.self) { try options.decoder(generated: generated).decode(LongDefault.self, from: json) }
                let vetted = try #require(error.vettedError)
                #expect("\(vetted.code) \(vetted.path) @\(vetted.offset ?? -1)" == "duplicateKey $.name @39", "\(options) generated \(generated)")
                #expect(vetted.message == #"keys "naïve" and "name" both spell one field"#)
            }
        }
    }

    /// Before: `-0` read as a `Double` was `+0.0` on every Vetted path (`-0.0` in Foundation).
    @Test func minusZeroKeepsItsSign() throws {
        for direct in [true, false] {
            let decoder = VettedJSONDecoder()
            decoder.directDecoding = direct
            let values = try decoder.decode([Double].self, from: Data("[-0, 0, -0.0, -0e5]".utf8))
            #expect(values.map(\.sign) == [.minus, .plus, .minus, .minus])
            #expect(try decoder.decode(Double.self, from: Data("-0".utf8)).sign == .minus)
            #expect(try decoder.decode(Float.self, from: Data("-0".utf8)).sign == .minus)
        }
        #expect(try JSONDecoder().decode(Double.self, from: Data("-0".utf8)).sign == .minus)
    }

    static func firstError(_ error: any Error) -> VettedError? {
        if let errors = error as? ValidationErrors { return errors.errors.first }
        if let vetted = error as? VettedError { return vetted }
        return (error as? DecodingError)?.vettedError
    }
}
