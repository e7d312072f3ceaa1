import Foundation
import Testing
import VettedCore
import VettedJSON
import VettedTestSupport

/// Declarations checked with no sample data, and misdeclared rules loud at decode time, even under `Skipping`.
@Suite struct DeclarationCheckTests {
    struct Good: Codable, Validatable {
        enum Kind: String, Codable, CaseIterable { case a, b }
        var id: Int
        var note: String?
        var kind: Kind
        var tags: [String]
        var inner: Inner
        static let validation = Validation<Good> {
            Field("id", Rule<Int>.range(1...10))
            Field("note", Rule<String>.length(1...5))
            Field("tags", Rule<[String]>.count(0...3))
        }
    }

    struct Inner: Codable, Validatable {
        var count: Int?
        static let validation = Validation<Inner> { Field("count", Rule<String>.length(1...3)) }  // wrong type, on an optional
    }

    /// A misspelt key and a rule of the wrong type on an optional: both only ever found by a value that is present.
    struct Misdeclared: Codable, Validatable {
        var price: Double?
        var tags: [String]
        static let validation = Validation<Misdeclared> {
            Field("price", Rule<Int>.range(0...10))
            Field("tgas", Rule<[String]>.count(1...3))
            Field("tags", Rule<[String]>.each(.pattern("[a-")))
        }
    }

    @Test func aWellDeclaredTypeHasNoFindingsButItsNestedOneDoes() {
        let errors = Validation.checkDeclarations(of: Good.self)
        #expect(errors == [VettedError(code: .ruleTypeMismatch, path: [.key("Inner"), .key("count")])])
        #expect(errors.first?.message == "Inner has a rule of type String on \"count\", which decodes as Int")
    }

    @Test func misspeltKeysWrongTypesAndBrokenPatternsAreReportedWithoutData() {
        let errors = Validation.checkDeclarations(of: Misdeclared.self)
        #expect(
            errors == [
                VettedError(code: .ruleTypeMismatch, path: [.key("Misdeclared"), .key("price")]),
                VettedError(code: .ruleKeyUnknown, path: [.key("Misdeclared"), .key("tgas")]),
                VettedError(code: .invalidPattern, path: [.key("Misdeclared"), .key("tags")]),
            ])
        #expect(errors[1].message == "Misdeclared has a rule on \"tgas\", but no key of CodingKeys has that string value")
    }

    /// A type whose init(from:) refuses stand-in values is checked as far as it ran; the rest is said, not passed.
    @Test func whatCouldNotBeCheckedIsSaid() {
        struct Strict: Decodable, Validatable {
            var id: Int
            var name: String
            static let validation = Validation<Strict> { Field("name", Rule<String>.length(1...3)) }
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                id = try container.decode(Int.self, forKey: .id)
                guard id > 0 else { throw DecodingError.dataCorruptedError(forKey: .id, in: container, debugDescription: "id must be positive") }
                name = try container.decode(String.self, forKey: .name)
            }
            enum CodingKeys: String, CodingKey { case id, name }
        }
        let errors = Validation.checkDeclarations(of: Strict.self)
        #expect(errors.map(\.code) == [.declarationNotChecked])
        #expect(errors.first?.path == [.key("Strict"), .key("name")])
    }

    /// A pattern that does not compile is the programmer's error: thrown in every mode, never an element to skip.
    @Test func aBrokenPatternIsThrownEvenUnderSkipping() throws {
        struct Tagged: Codable, Validatable {
            var tag: String
            static let source = "[a-"  // not a literal at the rule, so no compiler sees it
            static let validation = Validation<Tagged> { Field("tag", Rule<String>.pattern(source)) }
        }
        let input = Data(#"[{"tag": "x"}, {"tag": "y"}]"#.utf8)
        for mode in [ValidationMode.collect, .failFast] {
            let decoder = VettedJSONDecoder()
            decoder.validationMode = mode
            let error = #expect(throws: VettedError.self) { try decoder.decode(Skipping<Tagged>.self, from: input) }
            #expect(error?.code == .invalidPattern)
            #expect(error?.path == [.index(0), .key("tag")])
            #expect(throws: VettedError.self) { try decoder.decode([Tagged].self, from: input) }
        }
    }
}
