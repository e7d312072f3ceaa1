import Foundation
import VettedPlist

/// A deterministic corpus of listings in the shape of the talk's "Sell My Old
/// Junk" API: `id`, `name`, `description`, `price` (a string), `sold`, `url`,
/// `tags`, `created`, `last_updated`. Some text is non-ASCII, some has
/// escapes, some has surrogate-pair escapes, as real data does.
public enum ListingsCorpus {
    /// A JSON array of listings of at least `bytes` bytes (one listing per
    /// line); the same `seed` always gives the same bytes.
    public static func generate(bytes target: Int, seed: UInt64 = 1) -> [UInt8] {
        array(bytes: target, seed: seed) { index, random in listing(id: index + 1, random: &random) }
    }

    /// A JSON array of at least `bytes` bytes, one element per line, each made by
    /// `element` from its position and the seeded generator.
    static func array(bytes target: Int, seed: UInt64, _ element: (Int, inout SeededGenerator) -> String) -> [UInt8] {
        var random = SeededGenerator(seed: seed)
        var output: [UInt8] = Array("[\n".utf8)
        output.reserveCapacity(target + 1024)
        var index = 0
        while output.count < target {
            if index > 0 { output.append(contentsOf: ",\n".utf8) }
            output.append(contentsOf: element(index, &random).utf8)
            index += 1
        }
        output.append(contentsOf: "\n]\n".utf8)
        return output
    }

    static let things = [
        "Guitar", "Espresso machine", "Road bike", "Bookshelf", "Vinyl records", "Desk lamp", "Camera",
        "Vélo de course", "Kaffeemühle", "Лампа", "カメラ", "Sofa", "Ukulele", "Snowboard", "Keyboard",
    ]
    static let adjectives = ["barely used", "like new", "vintage", "well loved", "refurbished", "a bit scratched", "très bon état"]
    static let phrases = [
        "Comes with the original box.", "Pick-up only, \\\"downtown\\\".", "Price is firm \\u2014 no lowballs.",
        "Smoke-free home \\ud83c\\udfe0.", "Works perfectly\\nNo returns.", "Tested last week ✓.",
        "Includes a 12\\\" cable \\/ adapter.", "Great for beginners \\ud83c\\udfb8!", "Ärger-frei, sofort abholbar.",
    ]
    /// The talk's tag set, so every listing satisfies its `Listing` rules.
    static let tags = ["music", "electric", "acoustic", "vintage", "books", "tools", "garden", "kids"]

    static func listing(id: Int, random: inout SeededGenerator) -> String {
        let name = things[random.below(things.count)] + " " + adjectives[random.below(adjectives.count)]
        var description = ""
        for index in 0..<(1 + random.below(4)) {
            if index > 0 { description += " " }
            description += phrases[random.below(phrases.count)]
        }
        let price = "\(1 + random.below(2_000)).\(random.below(10))\(random.below(10))"
        let tagList = (0..<(1 + random.below(3))).map { _ in "\"" + tags[random.below(tags.count)] + "\"" }
        let created = 1_500_000_000 + random.below(100_000_000)
        let updated = created + random.below(10_000_000)
        return """
            {"id":\(id),"name":"\(name)","description":"\(description)","price":"\(price)",\
            "sold":\(random.below(2) == 0 ? "false" : "true"),"url":"https://example.com/listings/\(id)",\
            "tags":[\(tagList.joined(separator: ","))],"created":"\(iso8601(created))","last_updated":"\(iso8601(updated))"}
            """
    }

    /// `YYYY-MM-DDTHH:MM:SSZ` for seconds since 1970 (the generator's dates are all in range).
    static func iso8601(_ seconds: Int) -> String {
        (try? PlistWriter.xmlDateText(Date(timeIntervalSince1970: Double(seconds)))) ?? "1970-01-01T00:00:00Z"
    }
}
