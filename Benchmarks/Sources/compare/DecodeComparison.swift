import ArgumentParser
import Foundation
import Vetted

/// The talk's `Listing`, declared with its rules (Vetted side).
struct Listing: Codable, Validatable {
    enum Tag: String, Codable { case music, electric, acoustic, vintage, books, tools, garden, kids }
    var id: Int
    var name: String
    var description: String
    var price: String
    var sold: Bool
    var url: String
    var tags: [Tag]
    var created: Date
    var lastUpdated: Date

    enum CodingKeys: String, CodingKey {
        case id, name, description, price, sold, url, tags, created
        case lastUpdated = "last_updated"
    }

    static let urlPolicy = URLPolicy(schemes: ["https"], hosts: [.exact("example.com")], maximumLength: 50)
    static let pricePattern = try? LinearPattern("[0-9]+(\\.[0-9]{1,2})?")

    static let validation = Validation<Listing> {
        Field(CodingKeys.id, Rule<Int>.range(1...Int(Int32.max)))
        Field(CodingKeys.name, Rule<String>.length(1...200))
        Field(CodingKeys.description, Rule<String>.length(1...5_000))
        if let pricePattern { Field(CodingKeys.price, Rule<String>.pattern(pricePattern, maximumLength: 32)) }
        Field(CodingKeys.url, Rule<String>.url(urlPolicy))
        Field(CodingKeys.tags, Rule<[Tag]>.count(1...10))
        Relation("last_updated", after: "created", as: Date.self)
    }

    /// The talk's hand-written validation, run after Foundation's JSONDecoder.
    func validate() throws {
        struct Invalid: Error { let field: String }
        guard (1...Int(Int32.max)).contains(id) else { throw Invalid(field: "id") }
        guard (1...200).contains(name.count) else { throw Invalid(field: "name") }
        guard (1...5_000).contains(description.count) else { throw Invalid(field: "description") }
        guard let dot = price.firstIndex(of: ".") ?? Optional(price.endIndex),
            !price[..<dot].isEmpty, price[..<dot].allSatisfy(\.isNumber),
            dot == price.endIndex || (2...3).contains(price[dot...].count) && price[price.index(after: dot)...].allSatisfy(\.isNumber)
        else { throw Invalid(field: "price") }
        guard url.count <= 50, let components = URLComponents(string: url), components.scheme == "https",
            components.host == "example.com", components.user == nil
        else { throw Invalid(field: "url") }
        guard (1...10).contains(tags.count) else { throw Invalid(field: "tags") }
        guard lastUpdated >= created else { throw Invalid(field: "last_updated") }
    }
}

struct DecodeThroughput: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Decode + validate [Listing]: vetted.decode-validate, foundation.JSONDecoder+validate.")

    @Argument(help: "A listings JSON file (make-listings).")
    var file: String

    @Option(help: "Timed runs per side.")
    var runs = 15

    @Flag(help: "Time releasing the values too.")
    var includeRelease = false

    func run() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: file))
        let vetted = VettedJSONDecoder()
        vetted.dateDecodingStrategy = .iso8601
        vetted.limits = Limits(maxInputBytes: .max)
        let foundation = JSONDecoder()
        foundation.dateDecodingStrategy = .iso8601
        let foundationSide: () throws -> Any? = {
            let listings = try foundation.decode([Listing].self, from: data)
            for listing in listings { try listing.validate() }
            return listings
        }
        // Check before timing: both sides accept the corpus and read the same listings.
        try Self.check(vetted.decode([Listing].self, from: data).count == (foundationSide() as? [Listing])?.count)
        let medians = try Timing.medians(runs: runs, warmup: 2, includeRelease: includeRelease, [
            { try vetted.decode([Listing].self, from: data) },
            foundationSide,
        ])
        print(Timing.line("vetted.decode-validate", bytes: data.count, seconds: medians[0], peerSeconds: medians[1]))
        print(Timing.line("foundation.JSONDecoder+validate", bytes: data.count, seconds: medians[1], peerSeconds: nil))
    }

    static func check(_ condition: Bool) throws {
        guard condition else { throw ValidationError("Vetted and Foundation decoded different listings") }
    }
}
