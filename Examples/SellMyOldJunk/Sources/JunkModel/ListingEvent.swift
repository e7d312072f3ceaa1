// The listing events of "Sell My Old Junk": what the server's `GET /events`
// feed sends and the client decodes, one tagged union of five payloads. Its
// home is the example app; Vetted's tests, the generated fuzz target and the
// events benchmark link to this file, so there is one definition.

public import Foundation
public import VettedMacros

/// A listing was put up for sale.
@Vetted public struct ListingCreated: Codable, Equatable, Sendable {
    @Check(.range(1...Int(Int32.max))) public var id: Int
    @Check(.length(1...200), .displaySafe()) public var name: String
    @Check(.pattern(Listing.pricePattern, maximumLength: 32)) public var price: String
    @Check(.count(1...10)) public var tags: [Listing.Tag]
    public var at: Date

    public init(id: Int, name: String, price: String, tags: [Listing.Tag], at: Date) {
        (self.id, self.name, self.price, self.tags, self.at) = (id, name, price, tags, at)
    }
}

/// A listing's price changed.
@Vetted public struct PriceChanged: Codable, Equatable, Sendable {
    @Check(.range(1...Int(Int32.max))) public var id: Int
    @Check(.pattern(Listing.pricePattern, maximumLength: 32)) public var oldPrice: String
    @Check(.pattern(Listing.pricePattern, maximumLength: 32)) public var newPrice: String
    public var at: Date

    public init(id: Int, oldPrice: String, newPrice: String, at: Date) {
        (self.id, self.oldPrice, self.newPrice, self.at) = (id, oldPrice, newPrice, at)
    }

    public enum CodingKeys: String, CodingKey {
        case id, at
        case oldPrice = "old_price", newPrice = "new_price"
    }
}

/// A listing was sold.
@Vetted public struct ListingSold: Codable, Equatable, Sendable {
    @Check(.range(1...Int(Int32.max))) public var id: Int
    @Check(.pattern(Listing.pricePattern, maximumLength: 32)) public var price: String
    public var at: Date

    public init(id: Int, price: String, at: Date) {
        (self.id, self.price, self.at) = (id, price, at)
    }
}

/// A listing was taken down.
@Vetted public struct ListingWithdrawn: Codable, Equatable, Sendable {
    @Check(.range(1...Int(Int32.max))) public var id: Int
    @Check(.oneOf(["sold elsewhere", "changed my mind", "damaged", "duplicate"])) public var reason: String
    public var at: Date

    public init(id: Int, reason: String, at: Date) {
        (self.id, self.reason, self.at) = (id, reason, at)
    }
}

/// A buyer wrote to a seller about a listing.
@Vetted public struct MessageSent: Codable, Equatable, Sendable {
    @Check(.range(1...Int(Int32.max))) public var id: Int
    @Check(.range(1...Int(Int32.max))) public var from: Int
    @Check(.length(1...2_000), .displaySafe(allowing: [.newlines])) public var text: String
    public var at: Date

    public init(id: Int, from: Int, text: String, at: Date) {
        (self.id, self.from, self.text, self.at) = (id, from, text, at)
    }
}

/// One event of the feed, told apart by its `"type"` member.
///
/// The server's `GET /events` derives the feed from its listings and their
/// recorded price changes (each one's creation, price changes, and its sale
/// when sold); a client decodes every kind.
@Vetted(tag: "type") public enum ListingEvent: Codable, Equatable, Sendable {
    @Tag("listing.created") case created(ListingCreated)
    @Tag("listing.price_changed") case priceChanged(PriceChanged)
    @Tag("listing.sold") case sold(ListingSold)
    @Tag("listing.withdrawn") case withdrawn(ListingWithdrawn)
    @Tag("message.sent") case message(MessageSent)
}

extension ListingEvent {
    /// When the event happened.
    public var time: Date {
        switch self {
        case .created(let created): created.at
        case .priceChanged(let changed): changed.at
        case .sold(let sold): sold.at
        case .withdrawn(let withdrawn): withdrawn.at
        case .message(let message): message.at
        }
    }
}

/// The body of `POST /listings/{id}/price`.
@Vetted public struct PriceUpdate: Codable, Equatable, Sendable {
    @Check(.pattern(Listing.pricePattern, maximumLength: 32)) public var price: String

    public init(price: String) { self.price = price }
}
