import Foundation
import Testing
import VettedCore
@_spi(Testing) import VettedJSON
import VettedMacros
@_spi(Testing) import VettedPlist
import VettedTestSupport

// Generated decoding from property lists against init(from:): the documents of
// the JSON differential (GeneratedDecodingDifferentialTests), written as binary
// and XML property lists, decoded both ways by VettedPropertyListDecoder.

enum GenPlistCorpus {
    /// The date and data fields' base values, spelled in the JSON documents as these strings.
    static let dateMarker = "@date"
    static let date = Date(timeIntervalSince1970: 1_533_390_784.5)

    /// A document of the JSON corpus as a property list: `null` is Foundation's
    /// `"$null"`, integers are integers, other numbers reals; the markers are a
    /// date and data. Repeated keys: the last one is kept.
    static func plist(_ json: String) -> PlistValue? {
        var parser = JSONParser()
        parser.options.duplicateKeys = .keepLast
        return (try? parser.parse(Data(json.utf8))).map(plist)
    }

    static func plist(_ value: JSONValue) -> PlistValue {
        switch value {
        case .string(dateMarker): return .date(date)
        case .string("AAEC"): return .data(Data([0, 1, 2]))
        case .null, .bool, .string, .number: return ShapePath.plistScalar(value)
        case .array(let elements): return .array(elements.map(plist))
        case .object(let object):
            return .dictionary(PlistDictionary(zip(object.keys, object.values).map { PlistDictionary.Entry(key: $0, value: plist($1)) }))
        }
    }

    static let documents: [PlistValue] = {
        let texts = GenCorpus.documents(date: "\"\(dateMarker)\"")
        return texts.compactMap(plist)
    }()
}

@Suite struct GeneratedPlistDecodingDifferentialTests {
    static let modes: [ValidationMode] = [.collect, .failFast, .collect(upTo: 2)]

    func decoder(generated: Bool, mode: ValidationMode) -> VettedPropertyListDecoder {
        let decoder = VettedPropertyListDecoder()
        decoder.validationMode = mode
        decoder.generatedDecoding = generated
        return decoder
    }

    @discardableResult
    func compare<T: Decodable & Equatable>(_ type: T.Type, _ value: PlistValue, _ mode: ValidationMode) -> Bool {
        // XML when the value can be written as XML (no control characters in strings).
        for bytes in [PlistWriter.binary(value)] + [try? PlistWriter.xml(value)].compactMap({ $0 }) {
            let generated = Outcome { try decoder(generated: true, mode: mode).decode(T.self, from: bytes) }
            let codable = Outcome { try decoder(generated: false, mode: mode).decode(T.self, from: bytes) }
            if generated != codable {
                Issue.record("\(T.self) under \(mode):\n  \(value)\n  generated: \(generated)\n  init(from:): \(codable)")
                return false
            }
        }
        return true
    }

    @Test func typesFromTheMacroUseGeneratedDecoding() {
        let types: [Any.Type] = [GenItem.self, GenChild.self, Auction.self, Listing.self]
        // A class keeps init(from:).
        #expect(types.map { $0 is any _VettedDecodable.Type } == [true, true, false, true])
    }

    @Test func theCorpusIsReadAsPropertyLists() {
        // Every document of the JSON corpus but those that are not JSON after a mutation.
        #expect(GenPlistCorpus.documents.count > 500)
    }

    @Test(arguments: modes)
    func everySingleMutationGivesTheSameResult(_ mode: ValidationMode) throws {
        var failures = 0
        for document in GenPlistCorpus.documents where failures < 5 {
            if !compare(GenItem.self, document, mode) { failures += 1 }
            // A top-level array of a binary plist is read one element at a time.
            if !compare([GenItem].self, .array([document, document]), mode) { failures += 1 }
        }
    }

    @Test func pairsOfMutationsGiveTheSameResult() throws {
        let seed = SeededGenerator.seed(for: "generatedPlistPairsOfMutations")
        var generator = SeededGenerator(seed: seed)
        var failures = 0
        for mode in Self.modes {
            for text in GenCorpus.pairs(date: "\"\(GenPlistCorpus.dateMarker)\"", count: 150, generator: &generator) where failures < 5 {
                guard let document = GenPlistCorpus.plist(text) else { continue }
                if !compare([GenItem].self, document, mode) { failures += 1 }
            }
        }
    }

    @Test func theTalksListingsGiveTheSameResult() throws {
        let created = Date(timeIntervalSince1970: 1_533_390_784)
        func listing(_ id: Int, _ name: String, tags: [Listing.Tag], updated: TimeInterval) -> Listing {
            Listing(
                id: id, name: name, description: "A \(name).", price: "12.50", sold: id % 2 == 0, url: "https://example.com/\(id)",
                tags: tags, created: created, lastUpdated: created.addingTimeInterval(updated))
        }
        let listings = [
            listing(1, "Guitar", tags: [.music, .acoustic], updated: 60),
            listing(0, "", tags: [], updated: -60),  // id, name, tags and the relation all broken
            listing(3, "Lamp\u{1B}[2J", tags: Array(repeating: .vintage, count: 11), updated: 0),
        ]
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        let document = try PlistParser().parse(try encoder.encode(listings))
        for mode in Self.modes {
            #expect(compare([Listing].self, document, mode))
        }
        // Not a trivial agreement: the rules ran, with these violations.
        let error = #expect(throws: ValidationErrors.self) {
            try VettedPropertyListDecoder().decode([Listing].self, from: PlistWriter.binary(document))
        }
        #expect(
            error?.errors.map { "\($0.code) \($0.path)" } == [
                "outOfRange $[1].id", "empty $[1].name", "empty $[1].tags", "relationViolated $[1].last_updated",
                "controlCharacter $[2].name", "controlCharacter $[2].description", "tooLong $[2].tags",
            ])
    }
}

/// Raw values that are not plain ASCII names: escaped, non-ASCII, and a
/// spelling that `String` equality finds equal to a case (é as e + U+0301).
@Vetted enum OddTag: String, Codable { case accented = "é", quoted = "\"q\"", plain, empty = "" }

@Vetted enum Rank: Int, Codable { case low = -1, zero = 0, high = 9_000_000_000 }

/// The enums inside a struct, whose documents decode straight from the bytes.
@Vetted struct OddTags: Codable, Equatable {
    var tags: [OddTag]
    var ranks: [Rank]
    var one: OddTag?
}

@Suite struct GeneratedEnumTests {
    static let documents = [
        #"["é", "\"q\"", "plain", ""]"#, #"["e\u0301"]"#, #"["E"]"#, #"["plain", 1]"#, #"["plain", null]"#, #"[["plain"]]"#, "[]",
    ]
    static let ranks = ["[-1, 0, 9000000000]", "[1]", "[-1.0]", "[0.5]", #"["0"]"#, "[null]", "[18446744073709551615]"]

    func compareJSON<T: Decodable & Equatable>(_ type: T.Type, _ document: String) {
        let data = Data(document.utf8)
        let generated = Outcome { try DecoderOptions().decoder(generated: true).decode(T.self, from: data) }
        let codable = Outcome { try DecoderOptions().decoder(generated: false).decode(T.self, from: data) }
        #expect(generated == codable, "\(document)")
    }

    func comparePlist<T: Decodable & Equatable>(_ type: T.Type, _ document: String) throws {
        guard let value = GenPlistCorpus.plist(document) else {
            Issue.record("not JSON: \(document)")
            return
        }
        for bytes in [PlistWriter.binary(value), try PlistWriter.xml(value)] {
            let generated = VettedPropertyListDecoder()
            let codable = VettedPropertyListDecoder()
            codable.generatedDecoding = false
            #expect(Outcome { try generated.decode(T.self, from: bytes) } == Outcome { try codable.decode(T.self, from: bytes) }, "\(document)")
        }
    }

    @Test func stringRawValuesDecodeAsInitFromDecoderDoes() throws {
        for document in Self.documents {
            compareJSON([OddTag].self, document)
            try comparePlist([OddTag].self, document)
        }
        // String equality is canonical equivalence: e + U+0301 names the case "é", both ways.
        #expect(try VettedJSONDecoder().decode([OddTag].self, from: Data(#"["e\u0301", ""]"#.utf8)) == [.accented, .empty])
    }

    /// Straight from the bytes, a raw value's exact bytes are its case; any other spelling
    /// (an escape, e + U+0301 written out) goes through `init(rawValue:)`: the same cases.
    @Test func inAStructTheyDecodeStraightFromTheBytesTheSame() throws {
        for (index, document) in Self.documents.enumerated() {
            let rank = Self.ranks[index % Self.ranks.count]
            for one in [#""é""#, #""e\u0301""#, "\"e\u{301}\"", "null", #""nope""#] {
                let text = #"{"tags": \#(document), "ranks": \#(rank), "one": \#(one)}"#
                let data = Data(text.utf8)
                let direct = Outcome { try DecoderOptions().decoder(generated: true).decode(OddTags.self, from: data) }
                let tape = Outcome { try DecoderOptions().decoder(generated: true, direct: false).decode(OddTags.self, from: data) }
                let codable = Outcome { try DecoderOptions().decoder(generated: false).decode(OddTags.self, from: data) }
                #expect(direct == codable && tape == codable, "\(text)\n direct: \(direct)\n tape: \(tape)\n init(from:): \(codable)")
            }
        }
        let data = Data("{\"tags\": [\"é\", \"e\u{301}\", \"e\\u0301\", \"\"], \"ranks\": [9000000000], \"one\": \"plain\"}".utf8)
        #expect(VettedJSONDecoder().decodesDirectly(OddTags.self, from: data))
        #expect(try VettedJSONDecoder().decode(OddTags.self, from: data) == OddTags(tags: [.accented, .accented, .accented, .empty], ranks: [.high], one: .plain))
        // Raw values equal as strings but spelled apart: no byte table, init(rawValue:) decides.
        #expect(_VettedRawValueBytes(["é", "e\u{301}"]).bytes.isEmpty)
        #expect(_VettedRawValueBytes(["é", "e"]).bytes == [[0xC3, 0xA9], [0x65]])
    }

    @Test func intRawValuesDecodeAsInitFromDecoderDoes() throws {
        for document in Self.ranks {
            compareJSON([Rank].self, document)
            try comparePlist([Rank].self, document)
        }
        let error = #expect(throws: DecodingError.self) { try VettedJSONDecoder().decode([Rank].self, from: Data("[-1, 1]".utf8)) }
        guard case .dataCorrupted(let context)? = error else {
            Issue.record("expected dataCorrupted, got \(String(describing: error))")
            return
        }
        #expect(context.codingPath.map(\.intValue) == [1])
        #expect(context.debugDescription == "Cannot initialize Rank from invalid Int value 1")
    }
}
