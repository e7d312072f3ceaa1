import Foundation

/// A deterministic corpus of listing events, the feed a "Sell My Old Junk"
/// client follows: a JSON array of objects tagged by `"type"`, five payload
/// types in turn (so the tags are spread evenly), each valid under the rules
/// of the benchmark's `Event` union.
public enum EventsCorpus {
    /// The five tags, in the order events cycle through them.
    public static let tags = ["listing.created", "listing.price_changed", "listing.sold", "listing.withdrawn", "message.sent"]

    /// A JSON array of events of at least `bytes` bytes (one event per line);
    /// the same `seed` always gives the same bytes.
    public static func generate(bytes target: Int, seed: UInt64 = 1) -> [UInt8] {
        ListingsCorpus.array(bytes: target, seed: seed) { sequence, random in event(sequence, random: &random) }
    }

    static let reasons = ["sold elsewhere", "changed my mind", "damaged", "duplicate"]

    static func event(_ sequence: Int, random: inout SeededGenerator) -> String {
        let id = 1 + random.below(1_000_000)
        let at = ListingsCorpus.iso8601(1_500_000_000 + random.below(100_000_000))
        func price() -> String { "\(1 + random.below(2_000)).\(random.below(10))\(random.below(10))" }
        switch sequence % tags.count {
        case 0:
            let name = ListingsCorpus.things[random.below(ListingsCorpus.things.count)]
            let tagList = (0..<(1 + random.below(3))).map { _ in "\"" + ListingsCorpus.tags[random.below(ListingsCorpus.tags.count)] + "\"" }
            return #"{"type":"listing.created","id":\#(id),"name":"\#(name)","price":"\#(price())","tags":[\#(tagList.joined(separator: ","))],"at":"\#(at)"}"#
        case 1:
            return #"{"type":"listing.price_changed","id":\#(id),"old_price":"\#(price())","new_price":"\#(price())","at":"\#(at)"}"#
        case 2:
            return #"{"type":"listing.sold","id":\#(id),"price":"\#(price())","at":"\#(at)"}"#
        case 3:
            return #"{"type":"listing.withdrawn","id":\#(id),"reason":"\#(reasons[random.below(reasons.count)])","at":"\#(at)"}"#
        default:
            let phrase = ListingsCorpus.phrases[random.below(ListingsCorpus.phrases.count)]
            return #"{"type":"message.sent","id":\#(id),"from":\#(1 + random.below(1_000_000)),"text":"\#(phrase)","at":"\#(at)"}"#
        }
    }
}
