import ArgumentParser
import Foundation
import Vetted

// `ListingEvent` and its payloads come from TalkEvents.swift, a link to the
// example's definition (declared with @Vetted(tag:)).

struct DecodeEventsThroughput: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode-events",
        abstract: """
            Decode + validate [ListingEvent], a tagged union of five payloads: vetted.decode-events (@Vetted(tag:)), \
            foundation.decode-events (JSONDecoder with a hand-written union init(from:) and the same checks), \
            and msgspec.decode-events (a tagged union of Structs, in its own process) when msgspec is installed.
            """)

    @Argument(help: "An events JSON file (make-listings --events).")
    var file: String

    @OptionGroup var timing: TimingOptions

    @Option(help: "Run one side only, for profiling: vetted or foundation (prints its MB/s).")
    var only: String?

    @Flag(help: "Leave out the msgspec line even when msgspec is installed.")
    var noMsgspec = false

    func run() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: file))
        let (vetted, foundation) = DecodeThroughput.decoders()
        let vettedSide: () throws -> Any? = { try vetted.decode([ListingEvent].self, from: data) }
        let foundationSide: () throws -> Any? = {
            let events = try foundation.decode([FoundationEvent].self, from: data)
            for event in events { try event.validateByHand() }
            return events
        }
        if let only {
            let median = try timing.medians([only == "vetted" ? vettedSide : foundationSide])[0]
            print(Timing.line("\(only).decode-events", bytes: data.count, seconds: median, peerSeconds: nil))
            return
        }
        // Check before timing: both sides accept the corpus and read the same events.
        let events = try vetted.decode([ListingEvent].self, from: data)
        let count = (try foundationSide() as? [FoundationEvent])?.count
        try DecodeThroughput.check(events.count == count)
        try DecodeThroughput.check(try foundation.decode([FoundationEvent].self, from: data).map(\.event) == events)
        var sides = [vettedSide, foundationSide]
        let peer = noMsgspec ? nil : try MsgspecPeer(file: file, script: "msgspec_events.py")
        if let peer {
            guard peer.count == count else { throw ValidationError("msgspec read \(peer.count) events, Foundation \(count ?? -1)") }
            sides.append { ReportedSeconds(seconds: try peer.decodeOnce()) }
        }
        let medians = try timing.medians(sides)
        print(Timing.line("vetted.decode-events", bytes: data.count, seconds: medians[0], peerSeconds: medians[1]))
        print(Timing.line("foundation.decode-events", bytes: data.count, seconds: medians[1], peerSeconds: nil))
        if let peer {
            print(Timing.line("msgspec.decode-events", bytes: data.count, seconds: medians[2], peerSeconds: medians[1]))
            print(Timing.line("ratio.vetted/msgspec", bytes: data.count, seconds: medians[0], peerSeconds: medians[2]))
            peer.stop()
        } else if !noMsgspec {
            print("msgspec.decode-events\tskipped: \(MsgspecPeer.unavailable ?? "python3 with msgspec not found") (pip install msgspec)")
        }
    }
}

/// The union as Foundation users write it: the tag read first, the payload
/// decoded from the same object by its synthesized `init(from:)`, checked by hand after.
struct FoundationEvent: Decodable {
    let event: ListingEvent

    private enum Key: String, CodingKey { case type }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        let payload = try decoder.singleValueContainer()
        switch try container.decode(String.self, forKey: .type) {
        case "listing.created": event = .created(try payload.decode(FoundationPayload<ListingCreated>.self).value)
        case "listing.price_changed": event = .priceChanged(try payload.decode(FoundationPayload<PriceChanged>.self).value)
        case "listing.sold": event = .sold(try payload.decode(FoundationPayload<ListingSold>.self).value)
        case "listing.withdrawn": event = .withdrawn(try payload.decode(FoundationPayload<ListingWithdrawn>.self).value)
        case "message.sent": event = .message(try payload.decode(FoundationPayload<MessageSent>.self).value)
        default: throw DecodingError.dataCorruptedError(forKey: .type, in: container, debugDescription: "unknown event type")
        }
    }

    /// The rules of the payloads, written out as a Foundation user would.
    func validateByHand() throws {
        struct Invalid: Error { let field: String }
        func id(_ value: Int, _ field: String) throws { guard (1...Int(Int32.max)).contains(value) else { throw Invalid(field: field) } }
        func price(_ value: String, _ field: String) throws {
            let parts = value.split(separator: ".", omittingEmptySubsequences: false)
            guard value.utf8.count <= 32, (1...2).contains(parts.count), !parts[0].isEmpty, parts[0].allSatisfy(\.isNumber),
                parts.count == 1 || ((1...2).contains(parts[1].count) && parts[1].allSatisfy(\.isNumber))
            else { throw Invalid(field: field) }
        }
        switch event {
        case .created(let created):
            try id(created.id, "id")
            guard (1...200).contains(created.name.count) else { throw Invalid(field: "name") }
            try price(created.price, "price")
            guard (1...10).contains(created.tags.count) else { throw Invalid(field: "tags") }
        case .priceChanged(let changed):
            try id(changed.id, "id")
            try price(changed.oldPrice, "old_price")
            try price(changed.newPrice, "new_price")
        case .sold(let sold):
            try id(sold.id, "id")
            try price(sold.price, "price")
        case .withdrawn(let withdrawn):
            try id(withdrawn.id, "id")
            guard ["sold elsewhere", "changed my mind", "damaged", "duplicate"].contains(withdrawn.reason) else { throw Invalid(field: "reason") }
        case .message(let message):
            try id(message.id, "id")
            try id(message.from, "from")
            guard (1...2_000).contains(message.text.count) else { throw Invalid(field: "text") }
        }
    }
}

/// A payload decoded by the synthesized decoding Foundation users get (the
/// @Vetted types' own `init(from:)` is the compiler's: they have no defaults or aliases).
struct FoundationPayload<Value: Decodable>: Decodable {
    let value: Value
    init(from decoder: any Decoder) throws { value = try Value(from: decoder) }
}
