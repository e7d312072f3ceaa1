import Foundation
import Testing
import VettedCore
import VettedJSON
import VettedPlist
import VettedTestSupport

/// VettedPropertyListDecoder against Foundation's PropertyListDecoder on the
/// same property lists (binary and XML): equal values when both succeed, the
/// same DecodingError case and coding path when both fail. The model types
/// are the JSON differential's (DecoderCorpus).
@Suite struct PlistDecoderDifferentialTests {
    typealias Simple = DecoderCorpus.Simple
    typealias Color = DecoderCorpus.Color
    typealias Level = DecoderCorpus.Level
    typealias Shape = DecoderCorpus.Shape
    typealias Derived = DecoderCorpus.Derived
    typealias Inventory = DecoderCorpus.Inventory
    typealias Everything = DecoderCorpus.Everything
    typealias Dated = DecoderCorpus.Dated

    /// A property list written as JSON for brevity: `null` is Foundation's
    /// `"$null"`, integers are integers, other numbers reals.
    static func plist(_ json: String) throws -> PlistValue {
        try plist(JSONParser().parse(json))
    }

    static func plist(_ value: JSONValue) -> PlistValue {
        switch value {
        case .null: return .string("$null")
        case .bool(let bool): return .bool(bool)
        case .string(let string): return .string(string)
        case .number(let number):
            if let integer = try? number.int64Value { return .integer(PlistInteger(integer)) }
            return .real((try? number.doubleValue) ?? .nan)
        case .array(let elements): return .array(elements.map(plist))
        case .object(let object):
            return .dictionary(PlistDictionary(zip(object.keys, object.values).map { PlistDictionary.Entry(key: $0, value: plist($1)) }))
        }
    }

    func compare<T: Decodable & Equatable>(_ type: T.Type, _ value: PlistValue, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        for bytes in [PlistWriter.binary(value), try PlistWriter.xml(value)] {
            let data = Data(bytes)
            var theirs: T?
            var ours: T?
            let theirOutcome = DecoderCorpus.outcome { theirs = try PropertyListDecoder().decode(T.self, from: data) }
            let ourOutcome = DecoderCorpus.outcome { ours = try VettedPropertyListDecoder().decode(T.self, from: data) }
            #expect(ourOutcome == theirOutcome, "\(value)", sourceLocation: sourceLocation)
            if let theirs, let ours { #expect(ours == theirs, "\(value)", sourceLocation: sourceLocation) }
        }
    }

    func compare<T: Decodable & Equatable>(_ type: T.Type, _ json: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        try compare(type, try Self.plist(json), sourceLocation: sourceLocation)
    }

    @Test func structsOptionalsAndArrays() throws {
        try compare(Simple.self, #"{"a": 1, "b": "x", "c": 2.5, "d": [true, false]}"#)
        try compare(Simple.self, #"{"a": 1, "b": "x", "d": []}"#)
        try compare(Simple.self, #"{"a": 1, "b": "x", "c": null, "d": []}"#)
        try compare(Simple.self, #"{"a": "1", "b": "x", "d": []}"#)
        try compare(Simple.self, #"{"a": 1, "d": []}"#)
        try compare(Simple.self, #"{"a": null, "b": "x", "d": []}"#)
        try compare(Simple.self, #"{"a": 1, "b": null, "d": []}"#)
        try compare(Simple.self, #"{"a": 1, "b": "x", "d": [true, 1]}"#)
        try compare(Simple.self, #"{"a": 1, "b": "x", "d": [true, null]}"#)
        try compare(Simple.self, #"{"a": 1.0, "b": "x", "d": []}"#)
        try compare(Simple.self, #"{"a": 1.5, "b": "x", "d": []}"#)
        try compare(Simple.self, #"{"a": 1, "b": "x", "c": 2, "d": []}"#)
        try compare(Simple.self, #"[1, 2]"#)
        try compare([Simple].self, #"[{"a": 1, "b": "x", "d": []}, {"a": 2, "b": 3, "d": []}]"#)
        try compare([Simple?].self, #"[null, {"a": 1, "b": "x", "d": []}]"#)
        try compare(Simple.self, #"{"a": 1, "b": "x", "c": "2.5", "d": []}"#)
    }

    @Test func enumsWithRawAndAssociatedValues() throws {
        try compare([Color].self, #"["red", "green"]"#)
        try compare([Color].self, #"["red", "blue"]"#)
        try compare([Color].self, #"["red", null]"#)
        try compare([Simple].self, #"[null]"#)
        try compare([Int].self, #"[1, null]"#)
        try compare([Bool].self, #"[true, null]"#)
        try compare([Level].self, #"[1, 2]"#)
        try compare([Level].self, #"[3]"#)
        try compare([Shape].self, #"[{"circle": {"radius": 2}}, {"square": {"_0": 3}}, {"none": {}}]"#)
        try compare([Shape].self, #"[{"circle": {"radius": "big"}}]"#)
        try compare([Shape].self, #"[{"triangle": {}}]"#)
    }

    @Test func classesAndSuperDecoders() throws {
        try compare(Derived.self, #"{"y": "why", "super": {"x": 7}}"#)
        try compare(Derived.self, #"{"y": "why", "super": {"x": "7"}}"#)
        try compare(Derived.self, #"{"y": "why"}"#)
    }

    @Test func nestedContainersAllKeysAndContains() throws {
        try compare(Inventory.self, #"{"items": {"apples": 3, "pears": 4}, "note": "n", "names": ["a", "b"]}"#)
        try compare(Inventory.self, #"{"items": {"apples": 3}, "names": ["a"]}"#)
        try compare(Inventory.self, #"{"items": {"apples": "3"}, "names": ["a"]}"#)
        try compare(Inventory.self, #"{"items": [], "names": ["a"]}"#)
        try compare(Inventory.self, #"{"items": {}, "names": []}"#)
        try compare(Inventory.self, #"{"names": ["a"]}"#)
    }

    static let everything = #"""
        {"url": {"relative": "https://example.com/a?b=c"}, "decimal": {"exponent": -2, "length": 1, "isNegative": false,
         "isCompact": true, "mantissa": [2525, 0, 0, 0, 0, 0, 0, 0]}, "uuid": "E621E1F8-C36C-495A-93FC-0C247A3E6E5F",
         "data": "AQID", "set": [3, 1, 2], "byName": {"one": 1}, "byNumber": {"2": "two"}, "nested": [[1, null], []],
         "color": "red", "level": 2, "shape": {"none": {}}, "small": -128, "unsigned": 65535, "float": 1.5}
        """#

    /// `everything` with `data` as plist data, as Foundation writes it.
    static func everythingValue(_ change: (inout PlistDictionary) throws -> Void = { _ in }) throws -> PlistValue {
        guard case .dictionary(var dictionary) = try plist(everything) else { throw CocoaError(.coderReadCorrupt) }
        dictionary["data"] = .data(Data([1, 2, 3]))
        try change(&dictionary)
        return .dictionary(dictionary)
    }

    @Test func foundationTypesSetsAndDictionaries() throws {
        // What Foundation's own encoder writes for the same value decodes the same in both.
        let written = try PropertyListEncoder().encode(try PropertyListDecoder().decode(Everything.self, from: Data(PlistWriter.binary(try Self.everythingValue()))))
        #expect(try VettedPropertyListDecoder().decode(Everything.self, from: written) == PropertyListDecoder().decode(Everything.self, from: written))
        try compare(Everything.self, try Self.everythingValue())
        for (key, bad) in [
            ("url", "5"), ("uuid", "\"not-a-uuid\""), ("data", "\"AQID\""), ("set", "[1, \"2\"]"),
            ("byName", "[]"), ("byNumber", "{\"two\": \"x\"}"), ("nested", "[[1, \"x\"]]"), ("color", "\"blue\""),
            ("decimal", "\"1\""), ("small", "\"x\""), ("small", "300"), ("unsigned", "-1"), ("float", "true"),
        ] {
            try compare(Everything.self, try Self.everythingValue { $0[key] = try Self.plist(bad) })
        }
    }

    @Test func datesAndData() throws {
        try compare(Dated.self, .dictionary(["when": .date(Date(timeIntervalSinceReferenceDate: 548_000_000))]))
        try compare(Dated.self, .dictionary(["when": .real(548_000_000.5)]))
        try compare(Dated.self, .dictionary(["when": .string("2018-06-04T09:41:00Z")]))
        try compare(Dated.self, .dictionary(["when": .string("$null")]))
        struct Blob: Codable, Equatable { var bytes: Data }
        try compare(Blob.self, .dictionary(["bytes": .data(Data([1, 2, 3]))]))
        try compare(Blob.self, .dictionary(["bytes": .string("AQID")]))
        try compare(Blob.self, .dictionary(["bytes": .array([.integer(.signed(1)), .integer(.signed(2))])]))
    }

    @Test func numbersAtTheirLimits() throws {
        struct Numbers: Codable, Equatable {
            var i8: Int8
            var u64: UInt64
            var i64: Int64
            var f: Float
            var d: Double
        }
        func numbers(_ i8: PlistValue, _ u64: PlistValue, _ i64: PlistValue, _ f: PlistValue, _ d: PlistValue) -> PlistValue {
            .dictionary(["i8": i8, "u64": u64, "i64": i64, "f": f, "d": d])
        }
        try compare(Numbers.self, numbers(.integer(PlistInteger(-128)), .integer(PlistInteger(UInt64.max)), .integer(PlistInteger(Int64.min)), .real(1e38), .real(-0.0)))
        try compare(Numbers.self, numbers(.integer(.signed(0)), .integer(.signed(0)), .integer(.signed(0)), .real(0.1), .real(0.1)))
        try compare(Numbers.self, numbers(.integer(.signed(0)), .integer(.signed(0)), .integer(.signed(0)), .real(0.5), .real(0.1)))
        try compare(Numbers.self, numbers(.integer(PlistInteger(128)), .integer(.signed(0)), .integer(.signed(0)), .real(0), .real(0)))
        try compare(Numbers.self, numbers(.integer(.signed(0)), .integer(.signed(-1)), .integer(.signed(0)), .real(0), .real(0)))
        try compare(Numbers.self, numbers(.integer(.signed(0)), .integer(.signed(0)), .integer(PlistInteger(UInt64.max)), .real(0), .real(0)))
        try compare(Numbers.self, numbers(.integer(.signed(0)), .integer(.signed(0)), .integer(.signed(0)), .real(1e39), .real(0)))
        try compare(Numbers.self, numbers(.integer(.signed(0)), .integer(.signed(0)), .integer(.signed(0)), .real(.infinity), .real(-.infinity)))
        try compare(Numbers.self, numbers(.bool(true), .integer(.signed(0)), .integer(.signed(0)), .real(0), .real(0)))
        try compare(Numbers.self, numbers(.integer(.signed(0)), .integer(.signed(0)), .integer(.signed(0)), .real(0), .bool(false)))
    }

    @Test func topLevelScalarsAndWrongRoots() throws {
        try compare(Int.self, .integer(.signed(5)))
        try compare(String.self, .string("x"))
        try compare(String.self, .string("$null"))
        try compare(Int?.self, .string("$null"))
        try compare([String: Int].self, .dictionary(["a": .integer(.signed(1))]))
        try compare([String: Int].self, .array([]))
        try compare([Int].self, .dictionary([:]))
        try compare(Simple.self, .uid(3))
    }
}
