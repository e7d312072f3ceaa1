import Foundation
import Vetted

/// The talk's `Listing` (TalkListing.swift, declared with `@Vetted`) with its
/// rules written by hand: the same fields, keys and rules, decoded through
/// `init(from:)`. `compare decode` times both.
struct CodableListing: Codable, Equatable, Validatable {
    var id: Int
    var name: String
    var description: String
    var price: String
    var sold: Bool
    var url: String
    var tags: [Listing.Tag]
    var created: Date
    var lastUpdated: Date

    enum CodingKeys: String, CodingKey {
        case id, name, description, price, sold, url, tags, created
        case lastUpdated = "last_updated"
    }

    static let validation = Validation<CodableListing> {
        Field(CodingKeys.id, Rule<Int>.range(1...Int(Int32.max)))
        Field(CodingKeys.name, Rule<String>.length(1...200))
        Field(CodingKeys.name, Rule<String>.displaySafe())
        Field(CodingKeys.description, Rule<String>.length(1...5_000))
        Field(CodingKeys.description, Rule<String>.displaySafe(allowing: [.tab, .newlines]))
        Field(CodingKeys.price, Rule<String>.pattern(Listing.pricePattern, maximumLength: 32))
        Field(CodingKeys.url, Rule<String>.url(Listing.urlPolicy))
        Field(CodingKeys.tags, Rule<[Listing.Tag]>.count(1...10))
        Relation(CodingKeys.lastUpdated, after: CodingKeys.created, as: Date.self)
    }
}
