import Foundation
import Testing
import VettedCore
import VettedJSON
import VettedPlist
import VettedRules

/// The two structured decoders, fed the same document: JSON as written,
/// the property list made from it (binary).
enum StructuredDecoder: String, CaseIterable, CustomTestStringConvertible {
    case json
    case plist

    var testDescription: String { rawValue }

    func decode<T: Decodable>(
        _ type: T.Type, _ json: String, mode: ValidationMode = .collect, snakeCase: Bool = false
    ) throws -> T {
        switch self {
        case .json:
            let decoder = VettedJSONDecoder()
            decoder.validationMode = mode
            if snakeCase { decoder.keyDecodingStrategy = .convertFromSnakeCase }
            return try decoder.decode(type, from: Data(json.utf8))
        case .plist:
            let decoder = VettedPropertyListDecoder()
            decoder.validationMode = mode
            let value = try PlistDecoderDifferentialTests.plist(json)
            return try decoder.decode(type, from: Data(PlistWriter.binary(value)))
        }
    }

    /// The error `body` throws, which must be a `VettedError`.
    func declarationError(_ body: () throws -> Void, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> VettedError? {
        do {
            try body()
            Issue.record("expected a rule declaration error, got a value", sourceLocation: sourceLocation)
        } catch let error as VettedError {
            #expect(error.code.isRuleDeclaration, "\(error)", sourceLocation: sourceLocation)
            return error
        } catch {
            Issue.record("expected a VettedError, got \(error)", sourceLocation: sourceLocation)
        }
        return nil
    }

    /// The violations `body` throws.
    func violations(_ body: () throws -> Void, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> [VettedError] {
        do {
            try body()
            Issue.record("expected violations, got a value", sourceLocation: sourceLocation)
        } catch let error as ValidationErrors {
            return error.errors
        } catch {
            Issue.record("expected ValidationErrors, got \(error)", sourceLocation: sourceLocation)
        }
        return []
    }
}

/// A misdeclared rule is a loud programmer error in both decoders, in every
/// mode, at any depth: never a silent skip.
@Suite struct RuleDeclarationTests {
    struct Item: Codable, Equatable {
        var id: Int
        var name: String
        var note: String?
    }

    /// The issue's own example: a misspelt key.
    struct MisspeltKey: Codable, Validatable {
        var id: Int
        var name: String
        static let validation = Validation<MisspeltKey> { Field("idd", Rule<Int>.range(1...10)) }
    }

    /// The issue's own example: the rule's type is not the field's.
    struct WrongType: Codable, Validatable {
        var id: Int
        var name: String
        static let validation = Validation<WrongType> { Field("name", Rule<Int>.range(1...10)) }
    }

    struct RelationUnknownKey: Codable, Validatable {
        var start: Int
        var end: Int
        static let validation = Validation<RelationUnknownKey> { Relation("end", after: "begin", as: Int.self) }
    }

    struct RelationWrongType: Codable, Validatable {
        var start: Int
        var end: Int
        static let validation = Validation<RelationWrongType> { Relation("end", after: "start", as: Date.self) }
    }

    /// A key of the type's CodingKeys that its hand-written init(from:) never asks for.
    struct NeverDecoded: Decodable, Validatable {
        var id: Int
        var name: String = "default"
        enum CodingKeys: String, CodingKey { case id, name }
        init(from decoder: any Decoder) throws {
            id = try decoder.container(keyedBy: CodingKeys.self).decode(Int.self, forKey: .id)
        }
        static let validation = Validation<NeverDecoded> { Field(CodingKeys.name, Rule<String>.length(1...3)) }
    }

    /// Correct declarations: an optional field's rule names its wrapped type.
    struct Correct: Codable, Validatable {
        var id: Int
        var note: String?
        static let validation = Validation<Correct> {
            Field("id", Rule<Int>.range(1...10))
            Field("note", Rule<String>.length(1...3))
        }
    }

    /// An enum with associated values: its synthesized init(from:) reads
    /// `allKeys` and decodes one case's key, so a rule on another case's key is
    /// fine; a key that is no case is not.
    enum Payment: Codable, Validatable {
        case card(number: String)
        case cash(amount: Int)
        static let validation = Validation<Payment> { Field("cash", Rule<[String: Int]>.count(1...1)) }
    }

    enum BadPayment: Codable, Validatable {
        case card(number: String)
        case cash(amount: Int)
        static let validation = Validation<BadPayment> { Field("cheque", Rule<[String: Int]>.count(1...1)) }
    }

    struct Box<Inner: Codable>: Codable { var items: [Inner] }

    @Test(arguments: StructuredDecoder.allCases, [ValidationMode.collect, .failFast])
    func aMisspeltKeyFailsTheDecode(decoder: StructuredDecoder, mode: ValidationMode) throws {
        let error = decoder.declarationError { _ = try decoder.decode([MisspeltKey].self, #"[{"id": -5, "name": "x"}]"#, mode: mode) }
        #expect(error?.code == .ruleKeyUnknown)
        #expect(error?.path == [.index(0)])
        let type = String(reflecting: MisspeltKey.self)
        #expect(error?.message == "\(type) has a rule on \"idd\", but no key of \(type).CodingKeys has that string value")
    }

    @Test(arguments: StructuredDecoder.allCases, [ValidationMode.collect, .failFast])
    func aRuleOfAnotherTypeFailsTheDecode(decoder: StructuredDecoder, mode: ValidationMode) throws {
        let error = decoder.declarationError { _ = try decoder.decode([WrongType].self, #"[{"id": -5, "name": "x"}]"#, mode: mode) }
        #expect(error?.code == .ruleTypeMismatch)
        #expect(error?.path == [.index(0), .key("name")])
        #expect(error?.message == "\(String(reflecting: WrongType.self)) has a rule of type Int on \"name\", which decodes as String")
    }

    @Test(arguments: StructuredDecoder.allCases)
    func relationsNamingUnknownKeysOrOtherTypesFail(decoder: StructuredDecoder) throws {
        let unknown = decoder.declarationError { _ = try decoder.decode(RelationUnknownKey.self, #"{"start": 1, "end": 2}"#) }
        #expect(unknown?.code == .ruleKeyUnknown)
        #expect(unknown?.path == [])
        let wrongType = decoder.declarationError { _ = try decoder.decode(RelationWrongType.self, #"{"start": 1, "end": 2}"#) }
        #expect(wrongType?.code == .ruleTypeMismatch)
        #expect(wrongType?.path == [.key("end")])
    }

    @Test(arguments: StructuredDecoder.allCases)
    func aKeyTheTypeNeverDecodesFails(decoder: StructuredDecoder) throws {
        let error = decoder.declarationError { _ = try decoder.decode(NeverDecoded.self, #"{"id": 1, "name": "far too long"}"#) }
        #expect(error?.code == .ruleKeyNotDecoded)
        #expect(error?.message.contains("never looked that key up") == true)
    }

    /// At depth, the error names the path of the first value of the type.
    @Test(arguments: StructuredDecoder.allCases)
    func declarationErrorsAtDepth(decoder: StructuredDecoder) throws {
        let error = decoder.declarationError {
            _ = try decoder.decode(Box<WrongType>.self, #"{"items": [{"id": 1, "name": "a"}, {"id": 2, "name": "b"}]}"#)
        }
        #expect(error?.code == .ruleTypeMismatch)
        #expect(error?.path == [.key("items"), .index(0), .key("name")])
        let misspelt = decoder.declarationError { _ = try decoder.decode(Box<MisspeltKey>.self, #"{"items": [{"id": 1, "name": "a"}]}"#) }
        #expect(misspelt?.path == [.key("items"), .index(0)])
    }

    /// Right declarations decode, and an absent optional is not checked.
    @Test(arguments: StructuredDecoder.allCases)
    func correctDeclarationsRun(decoder: StructuredDecoder) throws {
        _ = try decoder.decode([Correct].self, #"[{"id": 1}, {"id": 2, "note": "abc"}]"#)
        let found = decoder.violations { _ = try decoder.decode([Correct].self, #"[{"id": 1}, {"id": 20, "note": "abcd"}]"#) }
        #expect(found.map(\.code) == [.outOfRange, .tooLong])
        #expect(found.map(\.path) == [[.index(1), .key("id")], [.index(1), .key("note")]])
    }

    /// A rule on one case of an enum with associated values is checked only for that case.
    @Test(arguments: StructuredDecoder.allCases)
    func enumCasesChooseTheirKeys(decoder: StructuredDecoder) throws {
        _ = try decoder.decode([Payment].self, #"[{"card": {"number": "1"}}, {"cash": {"amount": 3}}]"#)
        let error = decoder.declarationError { _ = try decoder.decode([BadPayment].self, #"[{"card": {"number": "1"}}]"#) }
        #expect(error?.code == .ruleKeyUnknown)
    }

    /// `.each` reports at the element, in both decoders.
    @Test(arguments: StructuredDecoder.allCases)
    func eachReportsAtTheElement(decoder: StructuredDecoder) throws {
        struct Tagged: Codable, Validatable {
            var tags: [String]
            static let validation = Validation<Tagged> { Field("tags", Rule<[String]>.each(.oneOf(["a", "b"]))) }
        }
        let found = decoder.violations { _ = try decoder.decode(Tagged.self, #"{"tags": ["a", "zz"]}"#) }
        #expect(found.map(\.path) == [[.key("tags"), .index(1)]])
        #expect(found.first?.code == .notAllowed)
    }

    /// Under `.convertFromSnakeCase` a rule names the coding key (`unitPrice`); the JSON spelling is caught.
    @Test func snakeCaseRulesNameTheCodingKey() throws {
        struct Priced: Codable, Validatable {
            var unitPrice: Int
            static let validation = Validation<Priced> { Field("unitPrice", Rule<Int>.range(1...10)) }
        }
        struct MisnamedPriced: Codable, Validatable {
            var unitPrice: Int
            static let validation = Validation<MisnamedPriced> { Field("unit_price", Rule<Int>.range(1...10)) }
        }
        let found = StructuredDecoder.json.violations { _ = try StructuredDecoder.json.decode(Priced.self, #"{"unit_price": 50}"#, snakeCase: true) }
        #expect(found.map(\.code) == [.outOfRange])
        let error = StructuredDecoder.json.declarationError {
            _ = try StructuredDecoder.json.decode(MisnamedPriced.self, #"{"unit_price": 50}"#, snakeCase: true)
        }
        #expect(error?.code == .ruleKeyUnknown)
    }
}

/// `Skipping<Element>` keeps what decodes and passes, in every mode, in both decoders.
@Suite struct SkippingTests {
    struct Score: Codable, Equatable, Validatable {
        var points: Int
        static let validation = Validation<Score> { Field("points", Rule<Int>.range(0...10)) }
    }

    static let page = #"[{"points": 1}, {"points": 50}, {"points": "x"}, {"points": 3}, {"nope": 1}]"#

    @Test(arguments: StructuredDecoder.allCases, [ValidationMode.collect, .failFast])
    func invalidElementsAreSetAside(decoder: StructuredDecoder, mode: ValidationMode) throws {
        let page = try decoder.decode(Skipping<Score>.self, Self.page, mode: mode)
        #expect(page.values == [Score(points: 1), Score(points: 3)])
        #expect(page.skipped.map(\.index) == [1, 2, 4])
        let rules = try #require(page.skipped.first?.error as? ValidationErrors)
        #expect(rules.errors.map(\.code) == [.outOfRange])
        #expect(rules.errors.map(\.path) == [[.index(1), .key("points")]])
        #expect(page.skipped[1].error is DecodingError)
        guard case .keyNotFound? = page.skipped[2].error as? DecodingError else {
            Issue.record("expected keyNotFound, got \(page.skipped[2].error)")
            return
        }
    }

    /// Inside a larger document, the rest still decodes and still reports.
    @Test(arguments: StructuredDecoder.allCases)
    func skippedViolationsDoNotFailTheWhole(decoder: StructuredDecoder) throws {
        struct Envelope: Decodable, Validatable {
            var scores: Skipping<Score>
            var total: Int
            static let validation = Validation<Envelope> { Field("total", Rule<Int>.range(0...100)) }
        }
        let envelope = try decoder.decode(Envelope.self, #"{"scores": [{"points": 1}, {"points": 50}], "total": 7}"#)
        #expect(envelope.scores.values == [Score(points: 1)])
        let found = decoder.violations { _ = try decoder.decode(Envelope.self, #"{"scores": [{"points": 50}], "total": 700}"#) }
        #expect(found.map(\.path) == [[.key("total")]])
    }
}

/// A decoder or container kept past its `init(from:)` and used after the
/// call: it reads the same input (never `""`), and its rules still fail loudly.
@Suite(.serialized) struct EscapedDecoderTests {
    /// Keeps the keyed container it was decoded from.
    struct Keeper: Decodable, Validatable {
        enum CodingKeys: String, CodingKey { case name, count, when }
        let name: String
        let kept: KeyedDecodingContainer<CodingKeys>
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decode(String.self, forKey: .name)
            _ = container.contains(.count)
            kept = container
        }
        static let validation = Validation<Keeper> {
            Field(CodingKeys.name, Rule<String>.length(1...10))
            Field(CodingKeys.count, Rule<Int>.range(0...5))
        }
    }

    @Test(arguments: StructuredDecoder.allCases)
    func readsAfterTheCallSeeTheInput(decoder: StructuredDecoder) throws {
        let keeper = try decoder.decode(Keeper.self, #"{"name": "lamp \u00e9", "count": 9}"#)
        #expect(keeper.name == "lamp é")
        let container = keeper.kept
        #expect(try container.decode(String.self, forKey: .name) == "lamp é")
        #expect(container.contains(.count))
        // The rule on `count` runs after the call: its violation is thrown, not lost.
        do {
            _ = try container.decode(Int.self, forKey: .count)
            Issue.record("expected the violation to be thrown")
        } catch let error as ValidationErrors {
            #expect(error.errors.map(\.code) == [.outOfRange])
            #expect(error.errors.map(\.path) == [[.key("count")]])
        }
    }
}

/// One property-list decoder shared by tasks that decode while others change
/// its options (CI runs this under ThreadSanitizer: no data race).
@Suite struct PlistDecoderSharingTests {
    struct Score: Codable, Equatable, Validatable {
        var points: Int
        static let validation = Validation<Score> { Field("points", Rule<Int>.range(0...10)) }
    }

    @Test func oneDecoderSharedByTasks() async throws {
        let decoder = VettedPropertyListDecoder()
        let input = PlistWriter.binary(.array([.dictionary(["points": .integer(.signed(1))]), .dictionary(["points": .integer(.signed(2))])]))
        try await withThrowingTaskGroup(of: Int.self) { group in
            for task in 0..<8 {
                group.addTask {
                    var decoded = 0
                    for round in 0..<200 {
                        if task % 2 == 0 {
                            decoder.validationMode = round % 2 == 0 ? .failFast : .collect
                            decoder.duplicateKeyPolicy = round % 3 == 0 ? .keepLast : .reject
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

/// Every failure read as one `VettedFailure`: its stage and its located errors.
@Suite struct VettedFailureTests {
    struct Score: Codable, Validatable {
        var points: Int
        static let validation = Validation<Score> { Field("points", Rule<Int>.range(0...10)) }
    }

    struct Misdeclared: Codable, Validatable {
        var points: Int
        static let validation = Validation<Misdeclared> { Field("point", Rule<Int>.range(0...10)) }
    }

    func failure(_ body: () throws -> Void) -> VettedFailure? {
        do {
            try body()
            Issue.record("expected a failure")
            return nil
        } catch {
            return VettedFailure(error)
        }
    }

    @Test(arguments: StructuredDecoder.allCases)
    func eachStageIsNamed(decoder: StructuredDecoder) {
        let rules = failure { _ = try decoder.decode(Score.self, #"{"points": 50}"#) }
        #expect(rules?.stage == .rules)
        #expect(rules?.errors.map(\.path) == [[.key("points")]])
        let structure = failure { _ = try decoder.decode(Score.self, #"{"score": 5}"#) }
        #expect(structure?.stage == .structure)
        #expect(structure?.errors.map(\.code) == [VettedError.Code("keyNotFound")])
        #expect(structure?.errors.map(\.path) == [[.key("points")]])
        let declaration = failure { _ = try decoder.decode(Misdeclared.self, #"{"points": 5}"#) }
        #expect(declaration?.stage == .declaration)
        #expect(declaration?.errors.map(\.code) == [.ruleKeyUnknown])
    }

    @Test func syntaxAndInput() {
        let syntax = failure { _ = try VettedJSONDecoder().decode(Score.self, from: Data(#"{"points": 5,}"#.utf8)) }
        #expect(syntax?.stage == .syntax)
        #expect(syntax?.errors.first?.offset == 12)  // the trailing comma
        let plistSyntax = failure { _ = try VettedPropertyListDecoder().decode(Score.self, from: Data("<plist><dict>".utf8)) }
        #expect(plistSyntax?.stage == .syntax)
        let input = failure { throw VettedError(code: .inputSizeLimitExceeded, message: "too large") }
        #expect(input?.stage == .input)
        #expect(VettedFailure(VettedFailure(ValidationErrors(errors: []))).stage == .rules)
    }
}
