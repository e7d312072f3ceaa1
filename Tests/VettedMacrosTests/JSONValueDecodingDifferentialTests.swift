import Foundation
import Testing
import VettedCore
import VettedJSON
import VettedMacros
import VettedRules
import VettedTestSupport

/// `decode(_:from: JSONValue)` reads the value (no text written and parsed again) and
/// gives what decoding the value's own text gives, bar the offsets a value does not have.
@Suite struct JSONValueDecodingDifferentialTests {
    /// What a decode gave, without the input offsets and excerpts only text has.
    enum Unlocated: Equatable {
        case value(Outcome.Value)
        case structure(kind: String, path: String, code: VettedError.Code?, errorPath: String?)
        case rules([String])
        case other(String)

        init<T: Equatable>(_ body: () throws -> T) {
            do {
                let value = try body()
                self = .value(Outcome.Value(value: value, equals: { ($0 as? T) == value }))
            } catch let error as DecodingError {
                let kind: String
                let context: DecodingError.Context
                switch error {
                case .typeMismatch(let type, let c): (kind, context) = ("typeMismatch \(type)", c)
                case .valueNotFound(let type, let c): (kind, context) = ("valueNotFound \(type)", c)
                case .keyNotFound(let key, let c): (kind, context) = ("keyNotFound \(key.stringValue)", c)
                case .dataCorrupted(let c): (kind, context) = ("dataCorrupted", c)
                @unknown default: (kind, context) = ("\(error)", .init(codingPath: [], debugDescription: ""))
                }
                self = .structure(
                    kind: kind, path: context.codingPath.map(\.stringValue).joined(separator: "/"),
                    code: error.vettedError?.code, errorPath: error.vettedError.map { "\($0.path)" })
            } catch let error as ValidationErrors {
                self = .rules(error.errors.map { "\($0.code) \($0.path) \($0.message)" } + ["omitted \(error.omitted)"])
            } catch {
                self = .other("\(error)")
            }
        }
    }

    /// Whether the two agree; `nil` when the document is not JSON (no value to decode).
    func compare<T: Decodable & Equatable>(_ type: T.Type, _ document: String, _ options: DecoderOptions, generated: Bool) -> Bool? {
        // A value holds what a parse kept: of a repeated key, the first.
        guard let value = try? JSONParser(options: .init(duplicateKeys: .keepFirst)).parse(document) else { return nil }
        var options = options
        options.duplicates = .keepFirst
        let decoder = options.decoder(generated: generated)
        let fromText = Unlocated { try decoder.decode(T.self, from: Data(document.utf8)) }
        let fromValue = Unlocated { try decoder.decode(T.self, from: value) }
        if fromText != fromValue {
            Issue.record("\(T.self) under \(options), generated \(generated):\n  \(document)\n  text: \(fromText)\n  value: \(fromValue)")
            return false
        }
        return true
    }

    @Test(arguments: GeneratedDecodingDifferentialTests.configurations)
    func everySingleMutationGivesWhatItsTextGives(_ options: DecoderOptions) {
        var failures = 0
        var compared = 0
        for document in GenCorpus.documents(date: GeneratedDecodingDifferentialTests.dateText(options)) where failures < 5 {
            for generated in [true, false] {
                for same in [compare(GenItem.self, document, options, generated: generated), compare([GenItem].self, "[\(document)]", options, generated: generated)] {
                    if same == false { failures += 1 }
                    if same != nil { compared += 1 }
                }
            }
        }
        #expect(compared > 1_000)
    }

    @Test func theDirectCorpusGivesWhatItsTextGives() {
        var failures = 0
        var compared = 0
        let base = GenCorpus.directBase(date: "1533390784.5")
        for document in GenCorpus.documents(base: base, replacements: DirectDecodingDifferentialTests.replacements) where failures < 5 {
            let same = compare(DirectItem.self, document, DecoderOptions(), generated: true)
            if same == false { failures += 1 }
            if same != nil { compared += 1 }
        }
        #expect(compared > 500)
    }
}
