import Foundation
import Testing
import VettedCore
@_spi(Testing) import VettedJSON
import VettedMacros
import VettedPlist

/// One key equality everywhere: two keys are one key when their Strings are equal
/// (canonical equivalence, as Swift and Foundation compare them). A document that
/// spells one key two ways in one object is `duplicateKey`; one spelling alone
/// matches the property however it is written.
@Vetted struct Café: Codable, Equatable {
    var id: Int
    var café: String?
}

/// The same fields, decoded by a hand-written (synthesized) init(from:) only.
struct PlainCafé: Codable, Equatable {
    var id: Int
    var café: String?
}

@Suite struct KeyEquivalenceTests {
    static let precomposed = "caf\u{E9}"
    static let decomposed = "cafe\u{301}"

    enum Outcome: Equatable {
        case value(String?)
        case error(String)
    }

    /// Every way Vetted decodes a document: straight from the bytes, from the tape (generated), by init(from:).
    static func decodeEveryWay(_ json: String, duplicateKeys: JSONParser.DuplicateKeyPolicy = .reject) -> [Outcome] {
        func code(_ error: any Error) -> Outcome {
            if let error = error as? VettedError { return .error(error.code.rawValue) }
            if case .dataCorrupted(let context) = error as? DecodingError, let vetted = context.underlyingError as? VettedError {
                return .error(vetted.code.rawValue)
            }
            return .error("other: \(error)")
        }
        var results: [Outcome] = []
        for direct in [true, false] {
            let decoder = VettedJSONDecoder()
            decoder.directDecoding = direct
            decoder.duplicateKeyPolicy = duplicateKeys
            do { results.append(.value(try decoder.decode(Café.self, from: Data(json.utf8)).café)) } catch { results.append(code(error)) }
        }
        let decoder = VettedJSONDecoder()
        decoder.duplicateKeyPolicy = duplicateKeys
        do { results.append(.value(try decoder.decode(PlainCafé.self, from: Data(json.utf8)).café)) } catch { results.append(code(error)) }
        return results
    }

    @Test(arguments: [
        (#"{"id": 1, "café": "a", "cafe\u0301": "b"}"#, "escaped"),
        ("{\"id\": 1, \"\(precomposed)\": \"a\", \"\(decomposed)\": \"b\"}", "raw"),
        ("{\"id\": 1, \"\(decomposed)\": \"a\", \"\(precomposed)\": \"b\"}", "raw, decomposed first"),
    ])
    func twoSpellingsOfOneKeyAreADuplicate(json: String, label: String) throws {
        #expect(Self.decodeEveryWay(json) == Array(repeating: .error("duplicateKey"), count: 3), "\(label)")
        #expect(Self.decodeEveryWay(json, duplicateKeys: .keepFirst) == Array(repeating: .value("a"), count: 3), "\(label)")
        #expect(Self.decodeEveryWay(json, duplicateKeys: .keepLast) == Array(repeating: .value("b"), count: 3), "\(label)")
        let error = #expect(throws: VettedError.self) { try JSONParser().parse(Array(json.utf8)) }
        #expect(error?.code == .duplicateKey)
        #expect(error?.message.contains(" spelled ") == true, "both spellings are named: \(error?.message ?? "")")
        // JSONValue lookups agree: one key, either spelling.
        let kept = try JSONParser(options: .init(duplicateKeys: .keepFirst)).parse(Array(json.utf8))
        #expect(kept[Self.precomposed] == "a" && kept[Self.decomposed] == "a")
    }

    @Test(arguments: [
        ("{\"id\": 1, \"\(decomposed)\": \"x\"}", "raw decomposed"),
        (#"{"id": 1, "cafe\u0301": "x"}"#, "escaped decomposed"),
        ("{\"id\": 1, \"\(precomposed)\": \"x\"}", "raw precomposed"),
        (#"{"id": 1, "caf\u00e9": "x"}"#, "escaped precomposed"),
    ])
    func anySpellingMatchesTheProperty(json: String, label: String) throws {
        #expect(Self.decodeEveryWay(json) == Array(repeating: .value("x"), count: 3), "\(label)")
        // As Foundation does.
        #expect(try JSONDecoder().decode(PlainCafé.self, from: Data(json.utf8)).café == "x", "\(label)")
    }

    /// A key canonically equal to an ASCII one (U+212A KELVIN SIGN is K) is that key.
    @Test func aKelvinSignIsTheLetterK() throws {
        struct Gauge: Codable, Equatable { var K: Int }
        let decoder = VettedJSONDecoder()
        #expect(try decoder.decode(Gauge.self, from: Data("{\"\u{212A}\": 3}".utf8)) == Gauge(K: 3))
        let error = #expect(throws: DecodingError.self) { try decoder.decode(Gauge.self, from: Data("{\"K\": 1, \"\u{212A}\": 3}".utf8)) }
        guard case .dataCorrupted(let context)? = error else { return }
        #expect((context.underlyingError as? VettedError)?.code == .duplicateKey)
    }

    /// Past 16 members the parser's check is hashed; the same answer.
    @Test func largeObjectsAgree() throws {
        var members = (0..<40).map { "\"k\($0)\": \($0)" }
        members.append("\"\(Self.precomposed)\": 1")
        members.append("\"\(Self.decomposed)\": 2")
        let error = #expect(throws: VettedError.self) { try JSONParser().parse(Array(("{" + members.joined(separator: ",") + "}").utf8)) }
        #expect(error?.code == .duplicateKey)
    }

    /// Property lists compare keys as Strings too: the two spellings are one key there.
    @Test func propertyListsAgree() throws {
        let xml = """
            <plist><dict><key>id</key><integer>1</integer><key>\(Self.precomposed)</key><string>a</string><key>\(Self.decomposed)</key><string>b</string></dict></plist>
            """
        let error = #expect(throws: VettedError.self) { try PlistParser().parse(Array(xml.utf8)) }
        #expect(error?.code == .duplicateKey)
        let single = "<plist><dict><key>id</key><integer>1</integer><key>\(Self.decomposed)</key><string>x</string></dict></plist>"
        #expect(try VettedPropertyListDecoder().decode(Café.self, from: Data(single.utf8)).café == "x")
        #expect(try VettedPropertyListDecoder().decode(PlainCafé.self, from: Data(single.utf8)).café == "x")
    }
}

@Vetted struct CrateItem: Codable, Equatable {
    @Check(.range(1...5)) var n: Int
}

@Vetted struct Crate: Codable, Equatable {
    @Check(.count(0...1)) var items: [CrateItem]
    @Check(.length(1...3), .displaySafe()) var label: String
    var extra: CrateItem?
}

/// `validate()` on a value made in code reports what decoding the same value reports, in the same order, in every mode.
@Suite struct ValidateOrderTests {
    static let json = #"{"items": [{"n": 9}, {"n": 0}], "label": "abcd\u0007", "extra": {"n": 7}}"#

    func codesAndPaths(_ errors: ValidationErrors?) -> [String] {
        (errors?.errors ?? []).map { "\($0.code) \($0.path)" }
    }

    @Test(arguments: [ValidationMode.collect, .failFast, .collect(upTo: 2), .collect(upTo: 4)])
    func validateReportsWhatDecodingReports(mode: ValidationMode) throws {
        let made = Crate(items: [CrateItem(n: 9), CrateItem(n: 0)], label: "abcd\u{7}", extra: CrateItem(n: 7))
        let decoder = VettedJSONDecoder()
        decoder.validationMode = mode
        let decoded = #expect(throws: ValidationErrors.self) { try decoder.decode(Crate.self, from: Data(Self.json.utf8)) }
        let validated = #expect(throws: ValidationErrors.self) { try made.validate(mode: mode) }
        #expect(codesAndPaths(validated) == codesAndPaths(decoded))
        #expect(validated?.omitted == decoded?.omitted)
        if case .failFast = mode { #expect(codesAndPaths(validated) == ["outOfRange $.items[0].n"]) }
    }
}
