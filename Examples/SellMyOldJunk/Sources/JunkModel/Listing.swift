// The `Listing` of "Data You Can Trust" (WWDC 2018) with the talk's rules,
// declared with @Vetted, plus text that is safe to show (no escape sequences,
// bidirectional overrides or invisible characters in a name or description).
// Its home is the example app (server and client validate with it); Vetted's
// tests, the decode fuzz targets and the decode benchmark link to this file, so
// there is one definition.

public import Foundation
public import VettedMacros

@Vetted public struct Listing: Codable, Equatable, Sendable {
    /// `@Vetted`: decoded by its raw value, with no decoder per tag.
    @Vetted public enum Tag: String, Codable, Sendable, CaseIterable { case music, electric, acoustic, vintage, books, tools, garden, kids }

    @Check(.range(1...Int(Int32.max))) public var id: Int
    @Check(.length(1...200), .displaySafe()) public var name: String
    @Check(.length(1...5_000), .displaySafe(allowing: [.tab, .newlines])) public var description: String
    @Check(.pattern(Listing.pricePattern, maximumLength: 32)) public var price: String
    public var sold: Bool
    @Check(.url(Listing.urlPolicy)) public var url: String
    @Check(.count(1...10)) public var tags: [Tag]
    public var created: Date
    @Check(.notBefore(\Listing.created)) public var lastUpdated: Date

    public init(
        id: Int, name: String, description: String, price: String, sold: Bool, url: String, tags: [Tag], created: Date,
        lastUpdated: Date
    ) {
        self.id = id
        self.name = name
        self.description = description
        self.price = price
        self.sold = sold
        self.url = url
        self.tags = tags
        self.created = created
        self.lastUpdated = lastUpdated
    }

    public enum CodingKeys: String, CodingKey {
        case id, name, description, price, sold, url, tags, created
        case lastUpdated = "last_updated"
    }

    public static let urlPolicy = URLPolicy(schemes: ["https"], hosts: [.exact("example.com")], maximumLength: 50)
    /// A decimal string ≥ 0 with at most two fraction digits. Given as text: a
    /// pattern that did not compile would fail every price with `invalidPattern`.
    public static let pricePattern = "[0-9]+(\\.[0-9]{1,2})?"

    /// The talk's hand-written checks, for comparing against Foundation's
    /// JSONDecoder followed by validation (`validate()` runs the declared rules).
    public func validateByHand() throws {
        struct Invalid: Error { let field: String }
        guard (1...Int(Int32.max)).contains(id) else { throw Invalid(field: "id") }
        guard (1...200).contains(name.count) else { throw Invalid(field: "name") }
        guard (1...5_000).contains(description.count) else { throw Invalid(field: "description") }
        let parts = price.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), !parts[0].isEmpty, parts[0].allSatisfy(\.isNumber),
            parts.count == 1 || ((1...2).contains(parts[1].count) && parts[1].allSatisfy(\.isNumber))
        else { throw Invalid(field: "price") }
        guard url.count <= 50, let components = URLComponents(string: url), components.scheme == "https",
            components.host == "example.com", components.user == nil
        else { throw Invalid(field: "url") }
        guard (1...10).contains(tags.count) else { throw Invalid(field: "tags") }
        guard lastUpdated >= created else { throw Invalid(field: "last_updated") }
    }
}
