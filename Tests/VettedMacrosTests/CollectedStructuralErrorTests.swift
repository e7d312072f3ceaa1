import Foundation
import Testing
import VettedCore
@_spi(Testing) import VettedJSON
import VettedPlist
import VettedMacros
import VettedRules

@Vetted struct CollectedItem: Codable, Equatable {
    @Check(.range(1...100)) var id: Int
    var name: String
    var sold: Bool
}

@Vetted struct CollectedOrder: Codable, Equatable {
    var number: Int
    var items: [CollectedItem]
    var gift: CollectedItem?
}

/// Decoded by its own `init(from:)`: it cannot go on past its first error.
struct HandWrittenPair: Decodable, Equatable {
    var first: Int
    var second: Int

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        first = try container.decode(Int.self, forKey: .first)
        second = try container.decode(Int.self, forKey: .second)
    }

    enum CodingKeys: String, CodingKey { case first, second }
}

@Vetted struct HoldsHandWritten: Decodable, Equatable {
    var pair: HandWrittenPair
    var count: Int
}

/// Under `.collect`, a document that does not fit its model in several places is one error per
/// place (issue 46, item 2): the first is the one fail-fast gives, the others follow in the order
/// the tape path reads the fields (each object's in declaration order), each located.
@Suite struct CollectedStructuralErrorTests {
    static let threeDefects = #"[{"id":"x","name":"a","sold":true},{"name":"b"}]"#

    func structural<T: Decodable>(_ type: T.Type, _ json: String, _ decoder: VettedJSONDecoder = VettedJSONDecoder()) throws -> VettedError {
        let error = try #require(throws: DecodingError.self) { try decoder.decode(T.self, from: Data(json.utf8)) }
        return try #require(error.vettedError)
    }

    func described(_ errors: [VettedError]) -> [String] {
        errors.map { "\($0.path) \($0.code)@\($0.offset ?? -1)" }
    }

    @Test func eachDefectIsOneErrorInDeclarationOrder() throws {
        let error = try structural([CollectedItem].self, Self.threeDefects)
        #expect(described(error.all) == ["$[0].id typeMismatch@7", "$[1].id keyNotFound@35", "$[1].sold keyNotFound@35"])
        #expect(error.all.map(\.message) == [#""id": expected an integer"#, #"the required field "id" is missing"#, #"the required field "sold" is missing"#])
        #expect(error.othersOmitted == 0)
        let failure = VettedFailure(try #require(throws: DecodingError.self) {
            try VettedJSONDecoder().decode([CollectedItem].self, from: Data(Self.threeDefects.utf8))
        })
        #expect(failure.stage == .structure && failure.omitted == 0)
        #expect(described(failure.errors) == described(error.all))
        // Each entry has its own line and column and excerpt.
        #expect(failure.errors.map { $0.column ?? -1 } == [8, 36, 36])
    }

    @Test func failFastGivesTheFirstAloneAndTheSameFirst() throws {
        let decoder = VettedJSONDecoder()
        decoder.validationMode = .failFast
        let alone = try structural([CollectedItem].self, Self.threeDefects, decoder)
        #expect(described(alone.all) == ["$[0].id typeMismatch@7"])
        let collected = try structural([CollectedItem].self, Self.threeDefects)
        #expect(alone == collected && alone.message == collected.message)
        // A single defect is the same error in both modes.
        let one = #"[{"id":1,"name":"a","sold":true},{"id":2,"name":"b"}]"#
        #expect(described(try structural([CollectedItem].self, one).all) == ["$[1].sold keyNotFound@33"])
        #expect(described(try structural([CollectedItem].self, one, decoder).all) == ["$[1].sold keyNotFound@33"])
    }

    @Test func theCapKeepsSomeAndCountsTheRest() throws {
        let json = "[" + Array(repeating: #"{"name":"b","sold":true}"#, count: 150).joined(separator: ",") + "]"
        let decoder = VettedJSONDecoder()
        decoder.validationMode = .collect(upTo: 4)
        let error = try structural([CollectedItem].self, json, decoder)
        #expect(described(error.all) == (0..<4).map { "$[\($0)].id keyNotFound@\(1 + $0 * 25)" })
        #expect(error.othersOmitted == 146)
        let failure = VettedFailure(try #require(throws: DecodingError.self) { try decoder.decode([CollectedItem].self, from: Data(json.utf8)) })
        #expect(failure.errors.count == 4 && failure.omitted == 146)
        // A cap of 0 keeps the one the call throws.
        decoder.validationMode = .collect(upTo: 0)
        let capped = try structural([CollectedItem].self, json, decoder)
        #expect(described(capped.all) == ["$[0].id keyNotFound@1"] && capped.othersOmitted == 149)
    }

    @Test func nestedValuesAreCollectedToo() throws {
        let json = #"{"number":"7","items":[{"id":1,"name":2,"sold":true},{"id":2,"name":"b","sold":true}],"gift":{"id":3,"name":"c"}}"#
        let error = try structural(CollectedOrder.self, json)
        #expect(
            described(error.all) == [
                "$.number typeMismatch@10", "$.items[0].name typeMismatch@38", "$.gift.sold keyNotFound@93",
            ])
    }

    /// The model's shape fails, so the rules are not the answer: violations met before or between
    /// structural errors are dropped, as they are when one structural error is the answer.
    @Test func violationsAreNotMixedIn() throws {
        let json = #"[{"id":0,"name":"a","sold":true},{"id":1,"name":5,"sold":"no"}]"#
        #expect(described(try structural([CollectedItem].self, json).all) == ["$[1].name typeMismatch@48", "$[1].sold typeMismatch@57"])
    }

    /// A type's own `init(from:)` stops at its first error: that is one entry, and the fields
    /// after it are still read.
    @Test func aTypesOwnInitFromGivesOneErrorAndTheRestIsRead() throws {
        let json = #"{"pair":{"first":"a","second":"b"},"count":"c"}"#
        #expect(described(try structural(HoldsHandWritten.self, json).all) == ["$.pair.first typeMismatch@17", "$.count typeMismatch@43"])
    }

    /// `Skipping` still sets each bad element aside with its own error, and the call succeeds.
    @Test func skippingStillSkips() throws {
        let page = try VettedJSONDecoder().decode(Skipping<CollectedItem>.self, from: Data(Self.threeDefects.utf8))
        #expect(page.values.isEmpty)
        #expect(page.skipped.map(\.index) == [0, 1])
        let errors = page.skipped.compactMap { ($0.error as? DecodingError)?.vettedError }
        #expect(described(errors) == ["$[0].id typeMismatch@7", "$[1].id keyNotFound@35"])
    }

    /// Property lists collect the same errors, in the same order (a value has paths, not offsets).
    @Test func propertyListsCollectTheSameErrors() throws {
        func item(_ entries: [(String, PlistValue)]) -> PlistValue {
            .dictionary(PlistDictionary(entries.map { PlistDictionary.Entry(key: $0.0, value: $0.1) }))
        }
        let value = PlistValue.array([item([("id", .string("x")), ("name", .string("a")), ("sold", .bool(true))]), item([("name", .string("b"))])])
        let error = try #require(throws: DecodingError.self) { try VettedPropertyListDecoder().decode([CollectedItem].self, from: value) }
        let located = try #require(error.vettedError)
        #expect(located.all.map { "\($0.path) \($0.code)" } == ["$[0].id typeMismatch", "$[1].id keyNotFound", "$[1].sold keyNotFound"])
    }

    /// Valid documents are still read once, straight from the bytes.
    @Test func validDocumentsAreStillReadOnce() throws {
        let json = #"[{"id":1,"name":"a","sold":true}]"#
        let decoder = VettedJSONDecoder()
        #expect(decoder.decodesDirectly([CollectedItem].self, from: Data(json.utf8)))
        #expect(try decoder.decode([CollectedItem].self, from: Data(json.utf8)) == [CollectedItem(id: 1, name: "a", sold: true)])
    }
}
