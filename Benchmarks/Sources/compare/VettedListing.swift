import Foundation
import VettedMacros

/// The talk's `Listing` declared with `@Vetted`: the same fields, keys and
/// rules as `Listing` (TalkListing.swift), whose rules are written by hand.
/// `compare decode` times both: generated decoding against `init(from:)`.
@Vetted struct VettedListing: Codable, Equatable {
    @Check(.range(1...Int(Int32.max))) var id: Int
    @Check(.length(1...200)) var name: String
    @Check(.length(1...5_000)) var description: String
    @Check(.pattern(Listing.pricePattern, maximumLength: 32)) var price: String
    var sold: Bool
    @Check(.url(Listing.urlPolicy)) var url: String
    @Check(.count(1...10)) var tags: [Listing.Tag]
    var created: Date
    @Check(.notBefore(\VettedListing.created)) var lastUpdated: Date

    enum CodingKeys: String, CodingKey {
        case id, name, description, price, sold, url, tags, created
        case lastUpdated = "last_updated"
    }
}
