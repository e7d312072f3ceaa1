import Foundation
import Testing
import VettedCore
@_spi(Testing) import VettedJSON
import VettedMacros
@_spi(Testing) import VettedPlist
import VettedTestSupport

@Vetted struct ListingCreated: Codable, Equatable {
    @Check(.range(1...1_000_000)) var id: Int
    @Check(.length(1...200)) var name: String
}

@Vetted struct ListingSold: Codable, Equatable {
    @Check(.range(1...1_000_000)) var id: Int
    @Check(.range(0...1_000_000)) var price: Int
}

@Vetted(tag: "type") enum ListingEvent: Codable, Equatable {
    case created(ListingCreated)
    @Tag("listing.sold") case sold(ListingSold)
}

@Vetted(tag: "type", content: "data") enum WrappedEvent: Codable, Equatable {
    case created(ListingCreated)
    @Tag("listing.sold") case sold(ListingSold)
    @UnknownTag case other(String)
}

@Suite struct TaggedUnionTests {
    func everyPath<T: Decodable & Equatable>(_ type: T.Type, _ json: String) -> ShapeOutcome<T> {
        let outcomes = ShapePath.allCases.map { $0.outcome(T.self, json) }
        for (path, outcome) in zip(ShapePath.allCases, outcomes) where outcome != outcomes[0] {
            Issue.record("\(json): \(path) gave \(outcome), bytes gave \(outcomes[0])")
        }
        return outcomes[0]
    }

    @Test func anInternallyTaggedUnionDecodesEachCaseWhereverItsTagSits() {
        #expect(everyPath(ListingEvent.self, #"{"type": "created", "id": 1, "name": "Lamp"}"#) == .value(.created(ListingCreated(id: 1, name: "Lamp"))))
        #expect(everyPath(ListingEvent.self, #"{"id": 2, "price": 30, "type": "listing.sold"}"#) == .value(.sold(ListingSold(id: 2, price: 30))))
        #expect(
            everyPath([ListingEvent].self, #"[{"type": "created", "id": 1, "name": "Lamp"}, {"type": "listing.sold", "id": 1, "price": 5}]"#)
                == .value([.created(ListingCreated(id: 1, name: "Lamp")), .sold(ListingSold(id: 1, price: 5))]))
    }

    @Test func thePayloadsRulesRunAtTheirPaths() {
        #expect(
            everyPath([ListingEvent].self, #"[{"type": "created", "id": 1, "name": "Lamp"}, {"type": "listing.sold", "id": 0, "price": -5}]"#)
                == .errors(["outOfRange $[1].id", "outOfRange $[1].price"]))
        #expect(everyPath(ListingEvent.self, #"{"type": "created", "id": 1}"#) == .errors(["keyNotFound $.name"]))
    }

    @Test func anUnknownOrMissingTagIsATypedLocatedError() throws {
        #expect(everyPath([ListingEvent].self, #"[{"type": "deleted", "id": 1}]"#) == .errors(["unknownTag $[0].type"]))
        #expect(everyPath([ListingEvent].self, #"[{"id": 1}]"#) == .errors(["missingTag $[0]"]))
        #expect(everyPath(ListingEvent.self, #"{"type": 5, "id": 1}"#) == .errors(["typeMismatch $.type"]))
        #expect(everyPath(ListingEvent.self, #"{"type": null, "id": 1}"#) == .errors(["valueNotFound $.type"]))
        let json = #"[{"type": "deleted", "id": 1}]"#
        let error = try #require(throws: DecodingError.self) { try VettedJSONDecoder().decode([ListingEvent].self, from: Data(json.utf8)) }
        let vetted = try #require(error.vettedError)
        #expect(vetted.offset == 10)
        #expect(vetted.message == #"unknown tag "deleted"; known tags: "created", "listing.sold""#)
    }

    @Test func anAdjacentlyTaggedUnionReadsThePayloadUnderItsContentKey() {
        #expect(
            everyPath(WrappedEvent.self, #"{"type": "listing.sold", "data": {"id": 3, "price": 4}}"#) == .value(.sold(ListingSold(id: 3, price: 4))))
        #expect(everyPath(WrappedEvent.self, #"{"data": {"id": 3, "name": "x"}, "type": "created"}"#) == .value(.created(ListingCreated(id: 3, name: "x"))))
        #expect(everyPath(WrappedEvent.self, #"{"type": "listing.sold", "data": {"id": 3, "price": -4}}"#) == .errors(["outOfRange $.data.price"]))
        // The fallback case takes a tag no other case has.
        #expect(everyPath(WrappedEvent.self, #"{"type": "listing.deleted", "data": {}}"#) == .value(.other("listing.deleted")))
        #expect(everyPath(WrappedEvent.self, #"{"type": "created"}"#) == .errors(["keyNotFound $.data"]))
    }

    @Test func encodingWritesTheSameShapes() throws {
        let events: [ListingEvent] = [.created(ListingCreated(id: 1, name: "Lamp")), .sold(ListingSold(id: 1, price: 5))]
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let text = String(decoding: try encoder.encode(events), as: UTF8.self)
        #expect(text == #"[{"id":1,"name":"Lamp","type":"created"},{"id":1,"price":5,"type":"listing.sold"}]"#)
        #expect(try VettedJSONDecoder().decode([ListingEvent].self, from: Data(text.utf8)) == events)
        let wrapped: [WrappedEvent] = [.sold(ListingSold(id: 2, price: 3)), .other("x")]
        let wrappedText = String(decoding: try encoder.encode(wrapped), as: UTF8.self)
        #expect(wrappedText == #"[{"data":{"id":2,"price":3},"type":"listing.sold"},{"type":"x"}]"#)
        // Property lists too.
        let plist = try PropertyListEncoder().encode(events)
        #expect(try VettedPropertyListDecoder().decode([ListingEvent].self, from: plist) == events)
        // Foundation's decoders run the generated init(from:).
        #expect(try JSONDecoder().decode([ListingEvent].self, from: Data(text.utf8)) == events)
    }

    @Test func validateChecksAUnionsPayload() {
        let events: [ListingEvent] = [.created(ListingCreated(id: 1, name: "")), .sold(ListingSold(id: 1, price: -1))]
        #expect(throws: ValidationErrors.self) { try events.first?.validate() }
        do {
            try WrappedEvent.sold(ListingSold(id: 0, price: 1)).validate()
            Issue.record("no violation")
        } catch {
            #expect(error.errors.map { "\($0.code) \($0.path)" } == ["outOfRange $.data.id"])
        }
        do {
            try ListingEvent.sold(ListingSold(id: 1, price: -1)).validate()
            Issue.record("no violation")
        } catch {
            #expect(error.errors.map { "\($0.code) \($0.path)" } == ["outOfRange $.price"])
        }
    }

    @Test func theDeclarationCheckWalksTheFirstCase() {
        #expect(Validation.checkDeclarations(of: ListingEvent.self) == [])
    }
}
