import Foundation
import Vetted
import VettedMacros

/// The talk's events adjacently tagged, each payload under `data` (`{"type": "listing.sold",
/// "data": {"id": 1, …}}`): `compare decode-invalid --events --wrapped`.
@Vetted(tag: "type", content: "data") enum WrappedListingEvent: Codable, Sendable {
    @Tag("listing.created") case created(ListingCreated)
    @Tag("listing.price_changed") case priceChanged(PriceChanged)
    @Tag("listing.sold") case sold(ListingSold)
    @Tag("listing.withdrawn") case withdrawn(ListingWithdrawn)
    @Tag("message.sent") case message(MessageSent)
}

enum WrappedEvents {
    /// An events corpus (one event per line, its tag first) with each event's payload moved under `data`.
    static func wrap(_ text: String) throws -> String {
        let expression = try NSRegularExpression(pattern: #"^(\{"type":"[^"]*"),(.*)\}(,?)$"#, options: .anchorsMatchLines)
        let range = NSRange(text.startIndex..., in: text)
        guard expression.firstMatch(in: text, range: range) != nil else { throw CocoaError(.fileReadCorruptFile) }
        return expression.stringByReplacingMatches(in: text, range: range, withTemplate: #"$1,"data":{$2}}$3"#)
    }
}
