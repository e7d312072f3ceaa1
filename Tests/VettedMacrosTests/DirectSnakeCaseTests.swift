import Foundation
import Testing
import VettedCore
@_spi(Testing) import VettedJSON
import VettedMacros

/// Keys under `convertFromSnakeCase`, read straight from the bytes (before: the tape path
/// read every such document): a key with an underscore is converted as the tape path converts
/// it, and the answer is the tape path's, value for value and error for error.
@Vetted struct SnakeChild: Codable, Equatable {
    @Check(.range(0...9)) var firstValue: Int
}

@Vetted struct SnakeItem: Codable, Equatable {
    @Check(.range(0...100)) var itemCount: Int
    @Check(.length(1...5)) var displayName: String
    var isOpen: Bool
    var plain: String
    var note: String?
    var child: SnakeChild
    @Check(.count(0...2)) var children: [SnakeChild]
}

/// Unions under the strategy: internally and adjacently tagged, in fields, arrays and optionals,
/// with payload keys it converts; and one whose tag key it would change (the tape path's).
@Vetted(tag: "type") enum SnakeEvent: Codable, Equatable {
    case child(SnakeChild)
    @Tag("listing.sold") case sold(SnakeSold)
}

@Vetted struct SnakeSold: Codable, Equatable {
    @Check(.range(1...9)) var soldPrice: Int
    var buyerName: String?
}

@Vetted(tag: "type", content: "event_body") enum SnakeWrapped: Codable, Equatable {
    case child(SnakeChild)
}

@Vetted(tag: "kind", content: "body") enum SnakeBoxed: Codable, Equatable {
    case child(SnakeChild)
    case sold(SnakeSold)
}

@Vetted struct SnakeHolder: Codable, Equatable {
    var firstEvent: SnakeEvent
    @Check(.count(0...2)) var boxedEvents: [SnakeBoxed]
    var maybeEvent: SnakeEvent?
    @Check(.range(0...5)) var eventCount: Int
}

@Suite struct DirectSnakeCaseTests {
    static let base = Members(members: [
        ("item_count", "5"), ("display_name", #""abc""#), ("is_open", "true"), ("plain", #""p""#), ("note", "null"),
        ("child", #"{"first_value": 1}"#), ("children", #"[{"first_value": 2}, {"first_value": 3}]"#), ("unknown_key", "[1]"), ("other", "{}"),
    ])

    /// Spellings the strategy takes as the same field, or as none.
    static let documents: [String] = {
        var documents = GenCorpus.documents(base: base, replacements: GenCorpus.replacements + GenCorpus.directReplacements)
        for (from, to) in [
            (#""item_count""#, #""ITEM_COUNT""#), (#""item_count""#, #""item__count""#), (#""item_count""#, #""_item_count_""#),
            (#""item_count""#, #""itemCount""#), (#""item_count""#, #""item_Count""#), (#""display_name""#, #""display\u005fname""#),
            (#""unknown_key""#, #""item_count""#), (#""unknown_key""#, #""itemCount""#), (#""other""#, #""unknown_key""#),
            (#""first_value": 2"#, #""first_value": 20"#), (#""is_open""#, #""is_öpen""#),
        ] {
            documents.append(base.text.replacingOccurrences(of: from, with: to))
        }
        return documents
    }()

    static func decoder(direct: Bool, _ policy: JSONParser.DuplicateKeyPolicy, _ mode: ValidationMode) -> VettedJSONDecoder {
        let decoder = VettedJSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.directDecoding = direct
        decoder.duplicateKeyPolicy = policy
        decoder.validationMode = mode
        return decoder
    }

    @Test(arguments: [(JSONParser.DuplicateKeyPolicy.reject, ValidationMode.collect), (.keepFirst, .collect), (.keepLast, .failFast)])
    func everyMutationGivesTheTapePathsAnswer(_ policy: JSONParser.DuplicateKeyPolicy, _ mode: ValidationMode) {
        var failures = 0
        var direct = 0
        for document in Self.documents where failures < 5 {
            for text in [document, "[\(document), \(Self.base.text)]"] {
                let data = Data(text.utf8)
                let bytes = Outcome { try Self.decoder(direct: true, policy, mode).decode(SnakeItem.self, from: data) }
                let tape = Outcome { try Self.decoder(direct: false, policy, mode).decode(SnakeItem.self, from: data) }
                let bytesArray = Outcome { try Self.decoder(direct: true, policy, mode).decode([SnakeItem].self, from: data) }
                let tapeArray = Outcome { try Self.decoder(direct: false, policy, mode).decode([SnakeItem].self, from: data) }
                if bytes != tape || bytesArray != tapeArray {
                    Issue.record("\(text)\n  bytes: \(bytes) \(bytesArray)\n  tape: \(tape) \(tapeArray)")
                    failures += 1
                }
            }
            if Self.decoder(direct: true, policy, mode).decodesDirectly(SnakeItem.self, from: Data(document.utf8)) { direct += 1 }
        }
        // Under `.collect` a structural error is the tape path's (it collects every one): fewer here.
        let expected = mode == .failFast ? Self.documents.count / 2 : Self.documents.count * 2 / 5
        #expect(direct > expected, "\(direct) of \(Self.documents.count) decoded directly")
    }

    @Test func snakeCaseKeysAreReadStraightFromTheBytes() throws {
        let decoder = Self.decoder(direct: true, .reject, .collect)
        let data = Data(Self.base.text.utf8)
        #expect(decoder.plansDirectDecoding(SnakeItem.self))
        #expect(decoder.decodesDirectly(SnakeItem.self, from: data))
        let value = try decoder.decode(SnakeItem.self, from: data)
        #expect(value.itemCount == 5 && value.displayName == "abc" && value.children.map(\.firstValue) == [2, 3])
        // A violation: the field's declared name in the path, the value's place.
        let bad = Self.base.text.replacingOccurrences(of: #""item_count": 5"#, with: #""item_count": 500"#)
        #expect(decoder.decodesDirectly(SnakeItem.self, from: Data(bad.utf8)))
        let errors = try #require(throws: ValidationErrors.self) { try decoder.decode(SnakeItem.self, from: Data(bad.utf8)) }
        #expect(errors.errors.map { "\($0.code) \($0.path) @\($0.offset ?? -1)" } == ["outOfRange $.itemCount @15"])
        // A union whose content key the strategy would change is the tape path's.
        #expect(decoder.plansDirectDecoding(TestEvent.self) && decoder.plansDirectDecoding([SnakeHolder].self))
        #expect(!decoder.plansDirectDecoding(SnakeWrapped.self))
    }

    static let holder = Members(members: [
        ("first_event", #"{"type": "listing.sold", "sold_price": 3, "buyer_name": "b"}"#),
        ("boxed_events", #"[{"kind": "child", "body": {"first_value": 1}}, {"kind": "sold", "body": {"sold_price": 2}}]"#),
        ("maybe_event", #"{"type": "child", "first_value": 4}"#), ("event_count", "1"),
    ])

    /// Before: every union under a key strategy was the tape path's.
    @Test(arguments: [(JSONParser.DuplicateKeyPolicy.reject, ValidationMode.collect), (.keepFirst, .collect(upTo: 2)), (.keepLast, .failFast)])
    func unionsGiveTheTapePathsAnswer(_ policy: JSONParser.DuplicateKeyPolicy, _ mode: ValidationMode) {
        var documents = GenCorpus.documents(base: Self.holder, replacements: GenCorpus.replacements + GenCorpus.directReplacements)
        for (from, to) in [
            (#""type": "listing.sold""#, #""ty_pe": "listing.sold""#), (#""type": "child""#, #""TYPE": "child""#),
            (#""sold_price": 3"#, #""soldPrice": 3"#), (#""sold_price": 3"#, #""sold_price": 3, "soldPrice": 4"#),
            (#""buyer_name": "b""#, #""buyer_name": "b", "typ_e": 1"#), (#""first_value": 4"#, #""first_value": 4, "type": "child""#),
            (#""body": {"first_value": 1}"#, #""body": {"first_value": 10}"#), (#""body": {"sold_price": 2}"#, #""body": 7"#),
            (#""kind": "child", "body""#, #""kind": "child", "bo_dy""#), (#""sold_price": 2"#, #""sold_price": 0, "buyer_name": 5"#),
        ] {
            documents.append(Self.holder.text.replacingOccurrences(of: from, with: to))
        }
        var failures = 0
        var direct = 0
        for document in documents where failures < 5 {
            let data = Data(document.utf8)
            let bytes = Outcome { try Self.decoder(direct: true, policy, mode).decode(SnakeHolder.self, from: data) }
            let tape = Outcome { try Self.decoder(direct: false, policy, mode).decode(SnakeHolder.self, from: data) }
            if bytes != tape {
                Issue.record("\(document)\n  bytes: \(bytes)\n  tape: \(tape)")
                failures += 1
            }
            if Self.decoder(direct: true, policy, mode).decodesDirectly(SnakeHolder.self, from: data) { direct += 1 }
        }
        #expect(direct > documents.count * 3 / 5, "\(direct) of \(documents.count) decoded directly")
    }
}

/// Keys under a `custom` strategy, read straight from the bytes (before: the tape path read every
/// such document): each key goes through the closure with its object's path, as on the tape path.
@Suite struct DirectCustomKeyTests {
    /// Drops each "-" of a key, and below the top level a leading "x-" first: the closure sees the path.
    static let strategy = VettedJSONDecoder.KeyDecodingStrategy.custom { path in
        var key = path.last?.stringValue ?? ""
        if path.count > 1 && key.hasPrefix("x-") { key.removeFirst(2) }
        return PathKey(stringValue: key.replacingOccurrences(of: "-", with: ""))
    }

    static let base = Members(members: [
        ("item-Count", "5"), ("display-Name", #""abc""#), ("isOpen", "true"), ("plain", #""p""#), ("note", "null"),
        ("child", #"{"x-firstValue": 1}"#), ("children", #"[{"first-Value": 2}, {"x-first-Value": 3}]"#), ("unknown-", "[1]"),
    ])

    static func decoder(direct: Bool, _ mode: ValidationMode) -> VettedJSONDecoder {
        let decoder = VettedJSONDecoder()
        decoder.keyDecodingStrategy = strategy
        decoder.directDecoding = direct
        decoder.validationMode = mode
        return decoder
    }

    @Test(arguments: [ValidationMode.collect, .failFast])
    func everyMutationGivesTheTapePathsAnswer(_ mode: ValidationMode) throws {
        var documents = GenCorpus.documents(base: Self.base, replacements: GenCorpus.replacements + GenCorpus.directReplacements)
        documents.append(Self.base.text.replacingOccurrences(of: #""isOpen": true"#, with: #""isOpen": true, "is-Open": false"#))
        documents.append(Self.base.text.replacingOccurrences(of: #""plain""#, with: #""x-plain""#))
        var failures = 0
        var direct = 0
        for document in documents where failures < 5 {
            let data = Data(document.utf8)
            let bytes = Outcome { try Self.decoder(direct: true, mode).decode(SnakeItem.self, from: data) }
            let tape = Outcome { try Self.decoder(direct: false, mode).decode(SnakeItem.self, from: data) }
            if bytes != tape {
                Issue.record("\(document)\n  bytes: \(bytes)\n  tape: \(tape)")
                failures += 1
            }
            if Self.decoder(direct: true, mode).decodesDirectly(SnakeItem.self, from: data) { direct += 1 }
        }
        #expect(direct > documents.count * 2 / 5, "\(direct) of \(documents.count) decoded directly")
        // A violation is reported at the field's own key, at its value.
        let bad = Self.base.text.replacingOccurrences(of: #""item-Count": 5"#, with: #""item-Count": 500"#)
        #expect(Self.decoder(direct: true, mode).decodesDirectly(SnakeItem.self, from: Data(bad.utf8)))
        let errors = try #require(throws: ValidationErrors.self) { try Self.decoder(direct: true, mode).decode(SnakeItem.self, from: Data(bad.utf8)) }
        #expect(errors.errors.map { "\($0.code) \($0.path) @\($0.offset ?? -1)" } == ["outOfRange $.itemCount @15"])
    }
}
