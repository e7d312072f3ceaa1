import Foundation
import Testing
import VettedCore
@_spi(Testing) import VettedJSON
import VettedMacros
import VettedTestSupport

// Generated decoding against init(from:) on every single mutation of a
// document and on seeded pairs (types and comparison: GeneratedCorpus.swift).

/// One object as ordered members (key text as written, value text), so mutations keep their order.
struct Members {
    var members: [(key: String, value: String)]
    var text: String { "{" + members.map { "\"\($0.key)\": \($0.value)" }.joined(separator: ", ") + "}" }
}

enum GenCorpus {
    static func base(date: String) -> Members {
        Members(members: [
            ("count", "5"), ("label", #""abc""#), ("flag", "true"), ("ratio", "1.5"), ("small", "0.25"), ("tiny", "-3"),
            ("big", "18446744073709551615"), ("kind", #""a""#), ("kinds", #"["a", "b", "a"]"#), ("level", "2"), ("levels", "[1, 2]"), ("note", #""hi""#), ("maybe", "4"),
            ("when", date), ("blob", #""AAEC""#), ("link", #""https://example.com/x""#), ("amount", "12.50"),
            ("tags", #"["a", "bc"]"#), ("numbers", "[1, 2]"), ("map", #"{"x": 1, "y": 2}"#),
            ("child", #"{"name": "n", "start": 1, "end": 2}"#), ("children", #"[{"name": "m", "start": 0, "end": 0}]"#),
            ("default_value", "9"), ("unknown", "[1, {\"a\": null}]"),
        ])
    }

    /// Values that break something (type, range, rule, format) — or not, for some fields.
    static let replacements = [
        "null", "true", "0", "-1", "101", "300", "1.5", "1e400", "-0", #""""#, #""abcdef""#, #""\u001b[2J""#, #""x""#, "[]", "{}",
        #"["abcd"]"#, #"[1, "a"]"#, #"["b", "c"]"#, #"[2, 3]"#, #"["a", null]"#, #"{"a": "b"}"#, #""Infinity""#, #""NaN""#, #""2018-08-04T13:53:04Z""#, "1533390784",
        #""not base64!""#, "[0, 1, 256]", #""ht tp://bad url""#, #"{"name": " ", "start": 3, "end": 1}"#,
        #"[{"name": "a", "start": 0, "end": 1}, {"name": "", "start": 5, "end": 1}, {"name": "c", "start": 0, "end": 0}]"#,
        #"{"start": 1, "end": 2}"#,
    ]

    /// ``DirectItem``'s members: all of them decode straight from the bytes.
    static func directBase(date: String) -> Members {
        Members(members: [
            ("count", "5"), ("label", #""abc""#), ("flag", "true"), ("ratio", "1.5"), ("kind", #""a""#), ("kinds", #"["a", "b", "a"]"#),
            ("level", "2"), ("levels", "[1, 2]"), ("note", #""h\u0069""#), ("maybe", "4"), ("when", date), ("until_date", date),
            ("tags", #"["a", "bc"]"#), ("numbers", "[1, -2, 30]"), ("ratios", "[0.5, 1e2, -0]"), ("flags", "[true, false]"),
            ("child", #"{"name": "n", "start": 1, "end": 2}"#), ("spare", "null"), ("children", #"[{"name": "m", "start": 0, "end": 0}]"#),
            ("default_value", "9"), ("unknown", #"[1, {"a": null}]"#), ("other", "{}"),
        ])
    }

    /// What only the direct path reads token by token: numbers it leaves to the tape path, escapes, repeats inside skipped values.
    static let directReplacements = [
        "1.0", "1e2", "00", "-", "01", "tru", "nul", #""a\u0062""#, #""\ud800""#, #""caf\u00e9""#, #""\uD83C\uDFB8""#, "[1,]", "[,1]",
        #"{"a": 1, "a": 2}"#, #"{"a": {"b": [1, {"c": 2, "c": 3}]}}"#, "[[[[[[1]]]]]]", #""\q""#, "\"unterminated", "9223372036854775808",
        "1e400", #"{"name": "n", "start": 1, "end": 2, "name": "o"}"#, #"{"name": "n", "start": 1, "end": 2, "extra": [1, 2]}"#,
    ]

    /// Every single mutation of the base object: each member removed, replaced, repeated, its key escaped.
    static func documents(date: String) -> [String] {
        documents(base: base(date: date), replacements: replacements)
    }

    static func documents(base: Members, replacements: [String]) -> [String] {
        var documents = [base.text, "[\(base.text), \(base.text)]", "null", "[]", "\"x\""]
        for index in base.members.indices {
            var removed = base
            removed.members.remove(at: index)
            documents.append(removed.text)
            for replacement in replacements {
                var replaced = base
                replaced.members[index].value = replacement
                documents.append(replaced.text)
            }
            var repeated = base
            repeated.members.append((base.members[index].key, replacements[index % replacements.count]))
            documents.append(repeated.text)
            var escaped = base
            let key = base.members[index].key
            escaped.members[index].key = "\\u00" + String(key.unicodeScalars.first.map { $0.value } ?? 0, radix: 16) + key.dropFirst()
            documents.append(escaped.text)
        }
        return documents
    }

    /// Two mutations at once, drawn from a seeded generator: errors that compete for first place.
    static func pairs(date: String, count: Int, generator: inout SeededGenerator) -> [String] {
        pairs(base: base(date: date), replacements: replacements, count: count, generator: &generator)
    }

    static func pairs(base: Members, replacements: [String], count: Int, generator: inout SeededGenerator) -> [String] {
        return (0..<count).map { _ in
            var document = base
            for _ in 0..<2 {
                let index = generator.below(document.members.count)
                if generator.below(4) == 0 {
                    document.members.remove(at: index)
                } else {
                    document.members[index].value = replacements[generator.below(replacements.count)]
                }
            }
            return "[\(base.text), \(document.text)]"
        }
    }
}

@Suite struct GeneratedDecodingDifferentialTests {
    static let configurations: [DecoderOptions] = {
        var result: [DecoderOptions] = []
        let dates: [(VettedJSONDecoder.DateDecodingStrategy, String)] = [
            (.deferredToDate, "deferred"), (.secondsSince1970, "seconds"), (.millisecondsSince1970, "milliseconds"), (.iso8601, "iso8601"),
            (.formatted(formatter), "formatted"),
        ]
        for (date, name) in dates {
            result.append(DecoderOptions(date: date, dateName: name))
        }
        result.append(DecoderOptions(data: .deferredToData))
        result.append(DecoderOptions(floats: .convertFromString(positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")))
        result.append(DecoderOptions(duplicates: .keepFirst))
        result.append(DecoderOptions(duplicates: .keepLast))
        result.append(DecoderOptions(mode: .failFast))
        result.append(DecoderOptions(mode: .collect(upTo: 2)))
        return result
    }()

    static func dateText(_ options: DecoderOptions) -> String {
        options.dateName == "iso8601" || options.dateName == "formatted" ? #""2018-08-04T13:53:04Z""# : "1533390784.5"
    }

    /// The `formatted` strategy's formatter: ISO 8601 in whole seconds, read the same on every platform.
    static var formatter: DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 0)
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ssXXXXX"
        return formatter
    }

    func compare<T: Decodable & Equatable>(_ type: T.Type, _ document: String, _ options: DecoderOptions) -> Bool {
        let data = Data(document.utf8)
        let generated = Outcome { try options.decoder(generated: true).decode(T.self, from: data) }
        let codable = Outcome { try options.decoder(generated: false).decode(T.self, from: data) }
        if generated != codable {
            Issue.record("\(T.self) under \(options):\n  \(document)\n  generated: \(generated)\n  init(from:): \(codable)")
            return false
        }
        return true
    }

    @Test func typesFromTheMacroUseGeneratedDecoding() {
        let types: [Any.Type] = [GenItem.self, GenChild.self, Auction.self]
        // A class keeps init(from:).
        #expect(types.map { $0 is any _VettedDecodable.Type } == [true, true, false])
    }

    @Test(arguments: configurations)
    func everySingleMutationGivesTheSameResult(_ options: DecoderOptions) {
        var failures = 0
        for document in GenCorpus.documents(date: Self.dateText(options)) where failures < 5 {
            if !compare(GenItem.self, document, options) { failures += 1 }
            if !compare([GenItem].self, "[\(document)]", options) { failures += 1 }
        }
    }

    @Test func pairsOfMutationsGiveTheSameResult() {
        let seed = SeededGenerator.seed(for: "pairsOfMutationsGiveTheSameResult")
        var generator = SeededGenerator(seed: seed)
        var failures = 0
        for options in Self.configurations {
            for document in GenCorpus.pairs(date: Self.dateText(options), count: 150, generator: &generator) where failures < 5 {
                if !compare([GenItem].self, document, options) { failures += 1 }
            }
        }
    }
}

/// A recursive model: each node's `next` holds the deeper ones.
@Vetted struct Node: Codable, Equatable {
    @Check(.range(0...100)) var value: Int
    var next: [Node]
}

@Vetted struct PlannedWithData: Codable, Equatable {
    var blob: Data
}

@Vetted struct PlannedOuter: Codable, Equatable {
    var inner: PlannedWithData
    @Check(.range(0...10)) var count: Int
}

@Vetted struct PlannedMap: Codable, Equatable {
    var counts: [String: Int]
}

/// Direct decoding (straight from the bytes) against init(from:), on documents it takes and on every mutation.
@Suite struct DirectDecodingDifferentialTests {
    static let replacements = GenCorpus.replacements + GenCorpus.directReplacements

    @Test func validDocumentsDecodeStraightFromTheBytes() throws {
        let decoder = VettedJSONDecoder()
        let base = GenCorpus.directBase(date: "1533390784.5").text
        #expect(decoder.decodesDirectly(DirectItem.self, from: Data(base.utf8)))
        #expect(decoder.decodesDirectly([DirectItem].self, from: Data("[\(base), \(base)]".utf8)))
        #expect(decoder.decodesDirectly([DirectItem].self, from: Data(" [ ] ".utf8)))
        // A rule that fails is recorded as it is met; a repeated key, trailing data: the parser's
        // error, from where the byte reader stopped (`DirectSyntaxTests`); an escaped key: decoded
        // and compared as a String (`DirectKeyTests`).
        #expect(decoder.decodesDirectly(DirectItem.self, from: Data(base.replacingOccurrences(of: #""count": 5"#, with: #""count": 500"#).utf8)))
        #expect(decoder.decodesDirectly(DirectItem.self, from: Data((base.dropLast() + #", "count": 5}"#).utf8)))
        #expect(decoder.decodesDirectly(DirectItem.self, from: Data((base + " x").utf8)))
        #expect(decoder.decodesDirectly(DirectItem.self, from: Data(base.replacingOccurrences(of: #""count""#, with: #""\u0063ount""#).utf8)))
        // GenItem has fields this path does not read (Data, URL, Decimal, Set, …).
        #expect(!decoder.decodesDirectly(GenItem.self, from: Data(GenCorpus.base(date: "1533390784.5").text.utf8)))
        // The talk's listings.
        let listings = VettedJSONDecoder()
        listings.dateDecodingStrategy = .iso8601
        let listing = #"""
            {"id": 1, "name": "Guitar", "description": "Acoustic guitar \u2014 barely played.\n", "price": "150.00", "sold": false,
             "url": "https://example.com/listings/1", "tags": ["music", "acoustic"],
             "created": "2018-05-01T10:39:04Z", "last_updated": "2018-05-01T10:39:04-07:00"}
            """#
        #expect(listings.decodesDirectly([Listing].self, from: Data("[\(listing), \(listing)]".utf8)))
        let value = try listings.decode([Listing].self, from: Data("[\(listing)]".utf8))
        #expect(value.first?.description == "Acoustic guitar \u{2014} barely played.\n")
        #expect(value.first?.tags == [.music, .acoustic])
    }

    @Test(arguments: GeneratedDecodingDifferentialTests.configurations)
    func everySingleMutationGivesTheSameResult(_ options: DecoderOptions) {
        let base = GenCorpus.directBase(date: GeneratedDecodingDifferentialTests.dateText(options))
        var failures = 0
        var direct = 0
        let documents = GenCorpus.documents(base: base, replacements: Self.replacements)
        for document in documents where failures < 5 {
            if !compare(DirectItem.self, document, options) { failures += 1 }
            if !compare([DirectItem].self, "[\(document)]", options) { failures += 1 }
            if options.decoder(generated: true).decodesDirectly(DirectItem.self, from: Data(document.utf8)) { direct += 1 }
        }
        // The mutations that keep the document valid (a repeated tag, an unknown key spelled another way, …) decode directly.
        #expect(direct > 40, "\(direct) of \(documents.count) decoded directly")
    }

    @Test func pairsOfMutationsGiveTheSameResult() {
        let seed = SeededGenerator.seed(for: "DirectDecodingDifferentialTests.pairsOfMutationsGiveTheSameResult")
        var generator = SeededGenerator(seed: seed)
        var failures = 0
        for options in GeneratedDecodingDifferentialTests.configurations {
            let base = GenCorpus.directBase(date: GeneratedDecodingDifferentialTests.dateText(options))
            for document in GenCorpus.pairs(base: base, replacements: Self.replacements, count: 150, generator: &generator) where failures < 5 {
                if !compare([DirectItem].self, document, options) { failures += 1 }
            }
        }
    }

    /// The plan is made from the type before any byte is read, and nothing is kept between
    /// calls: a `@Vetted` struct whose every reachable field the byte reader reads goes there
    /// first; one that reaches a field it does not read (a dictionary, `Data` under a strategy
    /// other than `base64`) goes to the tape at once, however deep that field is.
    @Test func thePlanIsMadeFromTheTypeAlone() {
        let decoder = DecoderOptions().decoder(generated: true)
        #expect(decoder.plansDirectDecoding(DirectItem.self))
        #expect(decoder.plansDirectDecoding([DirectItem].self))
        #expect(decoder.plansDirectDecoding(Node.self))
        // `Data` as base64 (before: the tape at once); under `deferredToData`, the tape.
        #expect(decoder.plansDirectDecoding(PlannedWithData.self))
        #expect(decoder.plansDirectDecoding([PlannedOuter].self))
        let bytes = DecoderOptions(data: .deferredToData).decoder(generated: true)
        #expect(!bytes.plansDirectDecoding(PlannedWithData.self))
        #expect(!bytes.plansDirectDecoding(PlannedOuter.self))
        #expect(!bytes.plansDirectDecoding([PlannedOuter].self))
        #expect(!decoder.plansDirectDecoding(PlannedMap.self))
        #expect(!decoder.plansDirectDecoding([String: DirectItem].self))
        let document = Data(#"{"inner": {"blob": "AAEC"}, "count": 2}"#.utf8)
        #expect(throws: Never.self) { try decoder.decode(PlannedOuter.self, from: document) }
        #expect((try? decoder.decode(PlannedOuter.self, from: document))?.inner.blob == Data([0, 1, 2]))
        // Under `convertFromSnakeCase` too (`DirectSnakeCaseTests`).
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        #expect(decoder.plansDirectDecoding(DirectItem.self))
        // Under a `custom` one too (each key through the closure), but not a union, whose tag key it may change.
        decoder.keyDecodingStrategy = .custom { $0.last ?? PathKey(stringValue: "") as any CodingKey }
        #expect(decoder.plansDirectDecoding(DirectItem.self))
        #expect(!decoder.plansDirectDecoding(TestEvent.self))
        // Every date strategy but `custom` (before: `formatted` was the tape path's too).
        let dates = DecoderOptions().decoder(generated: true)
        dates.dateDecodingStrategy = .formatted(GeneratedDecodingDifferentialTests.formatter)
        #expect(dates.plansDirectDecoding(DirectItem.self))
        dates.dateDecodingStrategy = .custom { try Date(from: $0) }
        #expect(!dates.plansDirectDecoding(DirectItem.self))
    }

    /// Nesting: up to the depth where the tape path's stack guard starts asking, straight
    /// from the bytes; deeper, the tape path decides (the same results, any stack budget).
    @Test func deepDocumentsAreLeftToTheTapePath() {
        func chain(_ depth: Int) -> String {
            (0..<depth).reduce(#"{"value": 0, "next": []}"#) { inner, level in #"{"value": \#(level + 1), "next": [\#(inner)]}"# }
        }
        // A generous budget (every path decodes depth 30 whole, in a debug build too: the generated
        // body's recovery under `.collect` made its frames larger) and a tiny one (every path stops).
        for budget in [512 << 10, 1 << 10] {
            var options = DecoderOptions()
            options.limits = Limits(maxStackBytes: budget)
            for depth in [0, 3, 4, 5, 30] {
                #expect(compare(Node.self, chain(depth), options), "depth \(depth), stack budget \(budget)")
            }
            // A node at depth d sits inside 2d containers (its object and its array).
            #expect(options.decoder(generated: true).decodesDirectly(Node.self, from: Data(chain(3).utf8)))
            #expect(!options.decoder(generated: true).decodesDirectly(Node.self, from: Data(chain(5).utf8)))
        }
    }

    /// Direct decoding (with default keys, and under a `custom` key strategy that keeps each key),
    /// the tape path's generated decoding and init(from:) give the same.
    func compare<T: Decodable & Equatable>(_ type: T.Type, _ document: String, _ options: DecoderOptions) -> Bool {
        let data = Data(document.utf8)
        let direct = Outcome { try options.decoder(generated: true).decode(T.self, from: data) }
        let converted = Outcome { try options.convertingDecoder().decode(T.self, from: data) }
        let tape = Outcome { try options.decoder(generated: true, direct: false).decode(T.self, from: data) }
        let codable = Outcome { try options.decoder(generated: false).decode(T.self, from: data) }
        if direct != codable || converted != codable || tape != codable {
            Issue.record(
                "\(T.self) under \(options):\n  \(document)\n  direct: \(direct)\n  custom keys: \(converted)\n  tape: \(tape)\n  init(from:): \(codable)")
            return false
        }
        return true
    }
}

/// Records the coding key type its decoder saw: generated decoding passes its own.
struct KeyProbe: Decodable, Equatable {
    let keyType: String
    init(from decoder: any Decoder) throws {
        keyType = decoder.codingPath.last.map { String(reflecting: type(of: $0)) } ?? "-"
        _ = try decoder.singleValueContainer().decode(Int.self)
    }
}

@Vetted struct Probed: Decodable {
    var probe: KeyProbe
}

@Suite struct GeneratedPathTests {
    @Test func theDecoderTakesTheGeneratedPathUnlessAKeyStrategyIsSet() throws {
        let data = Data(#"{"probe": 1}"#.utf8)
        #expect(try VettedJSONDecoder().decode(Probed.self, from: data).probe.keyType == "VettedRules.CodingKeys")
        let converting = VettedJSONDecoder()
        converting.keyDecodingStrategy = .convertFromSnakeCase
        let keyType = try converting.decode(Probed.self, from: data).probe.keyType
        #expect(keyType.hasPrefix("VettedMacrosTests.Probed.") && keyType.hasSuffix("CodingKeys"), "\(keyType)")
    }
}
