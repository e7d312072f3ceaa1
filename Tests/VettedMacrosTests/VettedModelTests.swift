import Foundation
import Testing
import VettedCore
import VettedJSON
import VettedMacros
import VettedPlist

/// The talk's listing, declared with `@Vetted`.
@Vetted struct MacroListing: Codable, Equatable {
    enum Tag: String, Codable { case music, books, tools }
    @Check(.range(1...Int(Int32.max))) var id: Int
    @Check(.length(1...200), .displaySafe()) var name: String
    @Check(.pattern("[0-9]+(\\.[0-9]{1,2})?", maximumLength: 32)) var price: String
    @Check(.url(URLPolicy(schemes: ["https"], hosts: [.exact("example.com")], maximumLength: 50))) var url: String
    @Check(.count(1...10), .unique) var tags: [Tag]
    var created: Date
    @Check(.notBefore(\MacroListing.created)) var lastUpdated: Date
    @Check(.length(1...50)) var note: String?
    enum CodingKeys: String, CodingKey { case id, name, price, url, tags, created, note, lastUpdated = "last_updated" }
}

/// Nested `@Vetted` values in arrays, dictionaries and optionals; no `CodingKeys`.
@Vetted struct Shop: Codable, Equatable {
    @Check(.nonBlank) var owner: String
    var listings: [MacroListing]
    var byName: [String: MacroListing]
    var featured: MacroListing?
}

/// A final class, a `notAfter` relation, a rule combined with `&&`, `.each`.
@Vetted final class Auction: Codable {
    @Check(.notAfter(\Auction.closes)) var opens: Double
    var closes: Double
    @Check(.count(0...3) && .each(.oneOf(["red", "blue"]))) var colours: [String]
    init(opens: Double, closes: Double, colours: [String]) { (self.opens, self.closes, self.colours) = (opens, closes, colours) }
}

private func listingJSON(id: Int = 1, name: String = "Lamp", tags: String = #"["music"]"#, updated: Double = 20, note: String? = nil) -> String {
    let noteField = note.map { #", "note": "\#($0)""# } ?? ""
    return #"{"id": \#(id), "name": "\#(name)", "price": "5.00", "url": "https://example.com/1", "tags": \#(tags), "#
        + #""created": 10, "last_updated": \#(updated)\#(noteField)}"#
}

private func listing(id: Int = 1, name: String = "Lamp", tags: [MacroListing.Tag] = [.music], updated: Double = 20) -> MacroListing {
    MacroListing(
        id: id, name: name, price: "5.00", url: "https://example.com/1", tags: tags,
        created: Date(timeIntervalSince1970: 10), lastUpdated: Date(timeIntervalSince1970: updated), note: nil)
}

private func codesAndPaths(_ error: ValidationErrors?) -> [String] {
    (error?.errors ?? []).map { "\($0.code) \($0.path)" }
}

@Suite struct VettedModelTests {
    static func decoder() -> VettedJSONDecoder {
        let decoder = VettedJSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }

    @Test func theJSONDecoderRunsTheGeneratedRules() throws {
        let valid = try Self.decoder().decode([MacroListing].self, from: Data("[\(listingJSON())]".utf8))
        #expect(valid == [listing()])
        let bad = "[\(listingJSON()), \(listingJSON(id: 0, name: "", tags: #"["music", "music"]"#, updated: 5, note: ""))]"
        let errors = #expect(throws: ValidationErrors.self) { try Self.decoder().decode([MacroListing].self, from: Data(bad.utf8)) }
        #expect(
            codesAndPaths(errors) == [
                "outOfRange $[1].id", "empty $[1].name", "notUnique $[1].tags", "empty $[1].note", "relationViolated $[1].last_updated",
            ])
        #expect(errors?.errors.first?.offset != nil)
    }

    @Test func thePropertyListDecoderRunsTheSameRules() throws {
        let value = PlistValue.array([
            .dictionary(PlistDictionary([
                .init(key: "id", value: .integer(.signed(0))), .init(key: "name", value: .string("Lamp")),
                .init(key: "price", value: .string("5.00")), .init(key: "url", value: .string("https://example.com/1")),
                .init(key: "tags", value: .array([.string("music")])),
                .init(key: "created", value: .date(Date(timeIntervalSince1970: 10))),
                .init(key: "last_updated", value: .date(Date(timeIntervalSince1970: 5))),
            ]))
        ])
        let errors = #expect(throws: ValidationErrors.self) {
            try VettedPropertyListDecoder().decode([MacroListing].self, from: PlistWriter.binary(value))
        }
        #expect(codesAndPaths(errors) == ["outOfRange $[0].id", "relationViolated $[0].last_updated"])
    }

    /// `validate()` on values made in code gives what decoding gives.
    @Test func validateMatchesDecoding() throws {
        let made = listing(id: 0, name: "", tags: [.music, .music], updated: 5)
        let errors = #expect(throws: ValidationErrors.self) { try made.validate() }
        #expect(
            codesAndPaths(errors) == ["outOfRange $.id", "empty $.name", "notUnique $.tags", "relationViolated $.last_updated"])
        #expect(errors?.errors.allSatisfy { $0.offset == nil } == true)
        try listing().validate()

        let failFast = #expect(throws: ValidationErrors.self) { try made.validate(mode: .failFast) }
        #expect(codesAndPaths(failFast) == ["outOfRange $.id"])
        let capped = #expect(throws: ValidationErrors.self) { try made.validate(mode: .collect(upTo: 2)) }
        #expect(codesAndPaths(capped) == ["outOfRange $.id", "empty $.name"])
        #expect(capped?.omitted == 2)
    }

    @Test func validateWalksNestedModels() throws {
        let shop = Shop(
            owner: " ", listings: [listing(), listing(id: -1)], byName: ["lamp": listing(name: "")], featured: listing(updated: 0))
        let errors = #expect(throws: ValidationErrors.self) { try shop.validate() }
        #expect(
            codesAndPaths(errors) == [
                "empty $.owner", "outOfRange $.listings[1].id", "empty $.byName.lamp.name", "relationViolated $.featured.last_updated",
            ])
        let json = try JSONEncoder().encode(shop)
        let decoded = #expect(throws: ValidationErrors.self) { try Self.decoder().decode(Shop.self, from: json) }
        #expect(codesAndPaths(decoded) == codesAndPaths(errors))
    }

    @Test func finalClassesRelationsAndCombinedRules() throws {
        let errors = #expect(throws: ValidationErrors.self) { try Auction(opens: 5, closes: 4, colours: ["red", "green"]).validate() }
        #expect(codesAndPaths(errors) == ["notAllowed $.colours[1]", "relationViolated $.opens"])
        #expect(errors?.errors.last?.message == "must not be after closes")
        try Auction(opens: 1, closes: 4, colours: ["red"]).validate()
        let decoded = #expect(throws: ValidationErrors.self) {
            try VettedJSONDecoder().decode(Auction.self, from: Data(#"{"opens": 5, "closes": 4, "colours": ["red", "green"]}"#.utf8))
        }
        #expect(codesAndPaths(decoded) == ["notAllowed $.colours[1]", "relationViolated $.opens"])
    }
}

/// A type nested beside its element type: `Tag` in the rules must be `Shelf.Tag`,
/// not the `Tag` of Swift Testing that file scope sees.
enum Shelf {
    enum Tag: String, Codable { case a, b }
    @Vetted struct Box: Codable {
        @Check(.unique) var tags: [Tag]
    }
}

@Suite struct NestedModelTests {
    @Test func rulesNameTheTypesTheDeclarationMeans() throws {
        let errors = #expect(throws: ValidationErrors.self) { try Shelf.Box(tags: [.a, .a]).validate() }
        #expect(codesAndPaths(errors) == ["notUnique $.tags"])
        let decoded = #expect(throws: ValidationErrors.self) {
            try VettedJSONDecoder().decode(Shelf.Box.self, from: Data(#"{"tags": ["a", "a"]}"#.utf8))
        }
        #expect(codesAndPaths(decoded) == ["notUnique $.tags"])
    }
}
