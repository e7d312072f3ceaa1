// The VettedMacros articles' samples, compiled and run (see DocSampleTests).
import Foundation
import Testing
// sample: VettedMacros.md#1
import VettedMacros

@Vetted struct Item: Codable {
    @Check(.range(1...10)) var id: Int
    @Check(.length(1...200), .displaySafe()) var name: String
}
// end sample

/// The article's `Listing`, in a namespace of its own (other samples have theirs).
enum MacroArticle {
    // sample: DeclaringRulesWithVetted.md#1
    @Vetted struct Listing: Codable {
        @Vetted enum Tag: String, Codable { case music, electric, acoustic, vintage, books, tools, garden, kids }

        @Check(.range(1...Int(Int32.max))) var id: Int
        @Check(.length(1...200), .displaySafe()) var name: String
        @Check(.length(1...5_000), .displaySafe(allowing: .newlines)) var description: String
        @Check(.pattern("[0-9]+(\\.[0-9]{1,2})?", maximumLength: 32)) var price: String
        var sold: Bool
        @Check(.url(URLPolicy(schemes: ["https"], hosts: [.exact("example.com")], maximumLength: 50))) var url: String
        @Check(.count(1...10), .unique) var tags: [Tag]
        var created: Date
        @Check(.notBefore(\Listing.created)) var lastUpdated: Date

        enum CodingKeys: String, CodingKey {
            case id, name, description, price, sold, url, tags, created
            case lastUpdated = "last_updated"
        }
    }

    // end sample
}

/// The article's union, in a namespace of its own.
enum UnionArticle {
    // sample: DeclaringRulesWithVetted.md#3
    @Vetted struct ListingCreated: Codable {
        @Check(.range(1...Int(Int32.max))) var id: Int
        @Check(.length(1...200)) var name: String
    }

    @Vetted struct ListingSold: Codable {
        @Check(.range(1...Int(Int32.max))) var id: Int
        @Check(.pattern("[0-9]+(\\.[0-9]{1,2})?")) var price: String
    }

    @Vetted(tag: "type") enum Event: Codable {
        case created(ListingCreated)
        @Tag("listing.sold") case sold(ListingSold)
        @UnknownTag case other(String)
    }

    // end sample

    // sample: DeclaringRulesWithVetted.md#4
    @Vetted struct SearchPage: Codable {
        @Check(.range(1...100)) @Default(20) var limit: Int
        @Alias("productId", "product_id") var id: Int
    }
    // end sample
}

@Suite struct MacroArticleShapeSampleTests {
    typealias Event = UnionArticle.Event

    @Test func events() throws {
        let data = Data(
            #"[{"type": "created", "id": 1, "name": "Lamp"}, {"type": "listing.sold", "id": 1, "price": "5.00"}, {"type": "listing.moved", "id": 1}]"#
                .utf8)
        // sample: DeclaringRulesWithVetted.md#3
        let events = try VettedJSONDecoder().decode([Event].self, from: data)
        // end sample
        #expect(events.count == 3)
        guard case .sold(let sold) = events[1], case .other(let tag) = events[2] else {
            Issue.record("\(events)")
            return
        }
        #expect(sold.price == "5.00" && tag == "listing.moved")
        let broken = #expect(throws: ValidationErrors.self) {
            try VettedJSONDecoder().decode([Event].self, from: Data(#"[{"type": "listing.sold", "id": 1, "price": "5.000"}]"#.utf8))
        }
        #expect(broken?.errors.map { "\($0.path) \($0.code)" } == ["$[0].price patternMismatch"])
    }

    @Test func defaultsAndAliases() throws {
        let page = try VettedJSONDecoder().decode(UnionArticle.SearchPage.self, from: Data(#"{"product_id": 7}"#.utf8))
        #expect(page.limit == 20 && page.id == 7)
        let broken = #expect(throws: ValidationErrors.self) {
            try VettedJSONDecoder().decode(UnionArticle.SearchPage.self, from: Data(#"{"limit": 0, "productId": 7}"#.utf8))
        }
        #expect(broken?.errors.map { "\($0.path) \($0.code)" } == ["$.limit outOfRange"])
    }
}

@Suite struct MacroArticleSampleTests {
    typealias Listing = MacroArticle.Listing

    @Test func item() throws {
        let errors = #expect(throws: ValidationErrors.self) {
            try VettedJSONDecoder().decode(Item.self, from: Data(#"{"id": 11, "name": "Lamp\u001b[2J"}"#.utf8))
        }
        #expect(errors?.errors.map { "\($0.path) \($0.code)" } == ["$.id outOfRange", "$.name controlCharacter"])
    }

    @Test func listing() throws {
        let data = Data(
            #"[{"id": 1, "name": "Lamp", "description": "A lamp", "price": "5.00", "sold": false, "url": "https://example.com/1", "tags": ["electric"], "created": "2024-01-02T00:00:00Z", "last_updated": "2024-01-01T00:00:00Z"}]"#
                .utf8)
        let errors = #expect(throws: ValidationErrors.self) {
            // sample: DeclaringRulesWithVetted.md#1
            let decoder = VettedJSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            let listings = try decoder.decode([Listing].self, from: data)
            // end sample
            _ = listings
        }
        #expect(errors?.errors.map { "\($0.path) \($0.code)" } == ["$[0].last_updated relationViolated"])
    }

    @Test func validateADraft() {
        var printed: [String] = []
        func print(_ items: [String]) { printed = items }
        // sample: DeclaringRulesWithVetted.md#2
        let draft = Listing(
            id: 0, name: "Lamp", description: "A lamp", price: "5.00", sold: false, url: "https://example.com/1",
            tags: [.electric], created: Date(), lastUpdated: Date())
        do throws(ValidationErrors) {
            try draft.validate()
        } catch {
            print(error.errors.map { "\($0.path) \($0.code)" })   // ["$.id outOfRange"]
        }
        // end sample
        #expect(printed == ["$.id outOfRange"])
    }
}
