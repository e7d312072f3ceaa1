// The `Listing` of "Data You Can Trust" (WWDC 2018) with exactly the talk's
// rules. Its home is the example app (server and client validate with it);
// Vetted's tests, the decode fuzz target and the decode benchmark link to this
// file, so there is one definition.

public import Foundation
public import VettedRules

public struct Listing: Codable, Equatable, Validatable, Sendable {
    public enum Tag: String, Codable, Sendable { case music, electric, acoustic, vintage, books, tools, garden, kids }

    public var id: Int
    public var name: String
    public var description: String
    public var price: String
    public var sold: Bool
    public var url: String
    public var tags: [Tag]
    public var created: Date
    public var lastUpdated: Date

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

    public static let validation = Validation<Listing> {
        Field(CodingKeys.id, Rule<Int>.range(1...Int(Int32.max)))
        Field(CodingKeys.name, Rule<String>.length(1...200))
        Field(CodingKeys.description, Rule<String>.length(1...5_000))
        Field(CodingKeys.price, Rule<String>.pattern(pricePattern, maximumLength: 32))
        Field(CodingKeys.url, Rule<String>.url(urlPolicy))
        Field(CodingKeys.tags, Rule<[Tag]>.count(1...10))
        Relation(CodingKeys.lastUpdated, after: CodingKeys.created, as: Date.self)
    }

    /// The talk's hand-written checks, for comparing against Foundation's
    /// JSONDecoder followed by validation.
    public func validate() throws {
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
