import Foundation

extension Listing {
    /// The listings a new server starts with; the talk's guitar is the first.
    public static let samples: [Listing] = [
        sample(
            1, "Guitar", "Acoustic guitar in good condition, a few scratches on the back. Strings changed last month.", "120.00",
            [.music, .acoustic, .vintage], created: 1_525_171_144, updated: 1_525_171_144),
        sample(
            2, "Electric guitar amplifier", "15 W practice amp, clean and crunch channels, headphone output.", "45.50",
            [.music, .electric], created: 1_525_257_600, updated: 1_525_430_400),
        sample(
            3, "Box of paperbacks", "Forty science-fiction paperbacks from the seventies and eighties.", "20",
            [.books, .vintage], created: 1_525_344_000, updated: 1_525_344_000),
        sample(
            4, "Cordless drill", "18 V drill with two batteries and a charger; works fine.", "35.00",
            [.tools, .electric], created: 1_525_600_000, updated: 1_525_686_400),
        sample(
            5, "Garden hose, 25 m", "Hardly used, comes with a spray nozzle.", "12.99",
            [.garden], created: 1_525_700_000, updated: 1_525_700_000),
        sample(
            6, "Wooden train set", "Tracks, a bridge and six carriages. The kids have outgrown it.", "30",
            [.kids, .vintage], created: 1_525_800_000, updated: 1_526_000_000),
    ]

    private static func sample(
        _ id: Int, _ name: String, _ description: String, _ price: String, _ tags: [Tag], created: TimeInterval,
        updated: TimeInterval
    ) -> Listing {
        Listing(
            id: id, name: name, description: description, price: price, sold: false, url: "https://example.com/listings/\(id)",
            tags: tags, created: Date(timeIntervalSince1970: created), lastUpdated: Date(timeIntervalSince1970: updated))
    }

    /// What a purchase keeps of the listing it bought.
    public var archived: ArchiveListing { ArchiveListing(id: id, name: name, tags: tags.map(\.rawValue)) }
}
