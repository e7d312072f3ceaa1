import Foundation
import Testing
import VettedCore
import VettedJSON
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

    /// Every single mutation of the base object: each member removed, replaced, repeated, its key escaped.
    static func documents(date: String) -> [String] {
        let base = base(date: date)
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
        let base = base(date: date)
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
        options.dateName == "iso8601" ? #""2018-08-04T13:53:04Z""# : "1533390784.5"
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
        #expect(types.map { $0 is any VettedJSONDecodable.Type } == [true, true, false])
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
