// Samples of the articles (ParsingJSON, PrimitiveRules, DecodingWithValidation), compiled and run.
// Regions between `// sample:` and `// end sample` are the blocks, line for line (DocSampleTests
// checks it); the code around them supplies what a block assumes.

import Foundation
import Testing
// sample: ParsingJSON.md#1
import Vetted

// end sample

/// The README's model: a few of the talk's fields.
private
// sample: DecodingWithValidation.md#1
struct Listing: Codable, Equatable {
    enum Tag: String, Codable { case music, books }
    enum CodingKeys: String, CodingKey { case id, url, tags, created, lastUpdated = "last_updated" }
    var id: Int
    var url: String
    var tags: [Tag]
    var created: Date
    var lastUpdated: Date
}

// end sample
private func listingsJSON(url: String = "https://example.com/1") -> Data {
    Data(#"[{"id": 1, "url": "\#(url)", "tags": ["music"], "created": "2024-01-01T00:00:00Z", "last_updated": "2024-01-02T00:00:00Z"}]"#.utf8)
}

// sample: DecodingWithValidation.md#1
extension Listing: Validatable {
    static let validation = Validation<Listing> {
        Field(CodingKeys.id, Rule<Int>.range(1...Int(Int32.max)))
        Field(CodingKeys.url, Rule<String>.url(URLPolicy(hosts: [.exact("example.com")], maximumLength: 50)))
        Field(CodingKeys.tags, Rule<[Tag]>.count(1...10))
        Relation(CodingKeys.lastUpdated, after: CodingKeys.created, as: Date.self)
    }
}

// end sample
private
// sample: DecodingWithValidation.md#1
func printListings(in data: Data) throws {
    let decoder = VettedJSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    do {
        let listings = try decoder.decode([Listing].self, from: data)
        print(listings.count, "listings")
    } catch let errors as ValidationErrors {
        for error in errors.errors { print(error.path, error.code, error.message) }  // $[3].url confusableHost …
    }
}
// end sample

@Suite struct ReadmeSampleTests {
    static func decoder() -> VettedJSONDecoder {
        let decoder = VettedJSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    /// The parser: the duplicate key of the comments, at the offsets and place they give.
    @Test func parser() throws {
        let data = Data("[{\"id\": 1, \"price\": \"5\"},\n{\"id\":2,\n    \"id\":3}]".utf8)
        let error = #expect(throws: VettedError.self) {
            // sample: ParsingJSON.md#1
            do throws(VettedError) {
                let value = try JSONParser().parse(data)          // Data, [UInt8] or String
                let price = value[0]?["price"]?.stringValue
                let id = try value[0]?["id"]?.numberValue?.int64Value   // throws on overflow or fraction
                print(id ?? 0, price ?? "-")
            } catch {
                // `error` is a VettedError: the parser uses typed throws.
                print(error.code, error.offset ?? -1, error.path, error.location.map(String.init(describing:)) ?? "-")
                // duplicateKey 39 $[1].id 3:5
                print(error.message)              // duplicate key "id" (first at offset 27, again at offset 39)
                print(error.excerpt?.text ?? "")  // escaped, at most 40 bytes
            }

            try JSONParser().validate(data)   // validate-only: same checks and errors, no values built
            // end sample
        }
        #expect(error == VettedError(code: .duplicateKey, offset: 39, path: [.index(1), .key("id")]))
        #expect(error.map { $0.location.map(String.init(describing:)) } == "3:5")
        #expect(error?.message == #"duplicate key "id" (first at offset 27, again at offset 39)"#)
    }

    /// Rules on their own: the confusable URL and the name at its path.
    @Test func rules() throws {
        let error = #expect(throws: VettedError.self) {
            // sample: PrimitiveRules.md#1
            let launch = Date(timeIntervalSince1970: 1_525_132_800)          // 2018-05-01, the talk's app's launch
            let value = "Lamp\u{1B}[2J"                                       // a name with a terminal escape
            let id: Rule<Int> = .range(1...Int(Int32.max))
            let name: Rule<String> = .length(1...200) && .displaySafe()     // characters; .utf8Length for bytes
            let price: Rule<String> = .pattern(try LinearPattern("[0-9]+(\\.[0-9]{1,2})?"))
            let tags: Rule<[String]> = .count(1...10) && .unique && .each(.oneOf(["music", "books"]))
            let url: Rule<String> = .url(URLPolicy(schemes: ["https"], hosts: [.exact("example.com")], maximumLength: 50))
            let created: Rule<Date> = .within(notBefore: launch)             // and not after now + 5 minutes
            if let violation = url.check("https://ex\u{430}mple.com/") { print(violation) }
            // confusableHost: host mixes scripts in one label, a common disguise
            try name.validate(value, at: [.index(3), .key("name")])         // throws VettedError at $[3].name
            // end sample
            #expect(id.check(0)?.code == .outOfRange && price.check("1.5") == nil && tags.check(["music"]) == nil)
            #expect(created.check(Date.distantPast)?.code == .tooEarly)
            #expect(url.check("https://ex\u{430}mple.com/")?.code == .confusableHost)
            // The comment quotes what `print(violation)` shows.
            let shown = url.check("https://ex\u{430}mple.com/").map { "\($0)" } ?? ""
            #expect(shown.hasPrefix("confusableHost: host mixes scripts in one label, a common disguise"), "\(shown)")
        }
        #expect(error?.code == .controlCharacter)
        #expect(error?.path.description == "$[3].name")
    }

    /// Decoding with validation: a listing that passes, and one whose URL is a look-alike.
    @Test func decoding() throws {
        let decoder = Self.decoder()
        for data in [listingsJSON(), listingsJSON(url: "https://ex\u{430}mple.com/1")] {
            try printListings(in: data)
        }
        let errors = #expect(throws: ValidationErrors.self) {
            try decoder.decode([Listing].self, from: listingsJSON(url: "https://ex\u{430}mple.com/1"))
        }
        #expect(errors?.errors.map(\.code) == [.confusableHost])
        #expect(errors?.errors.map(\.path.description) == ["$[0].url"])
    }
}
