import Foundation
import Testing
import VettedCore
import VettedJSON
import VettedTestSupport

/// VettedJSONDecoder against Foundation's JSONDecoder on the same inputs:
/// equal values when both succeed, the same DecodingError case and coding
/// path when both fail.
@Suite struct DecoderDifferentialTests {
    typealias Simple = DecoderCorpus.Simple
    typealias Color = DecoderCorpus.Color
    typealias Level = DecoderCorpus.Level
    typealias Shape = DecoderCorpus.Shape
    typealias Derived = DecoderCorpus.Derived
    typealias Inventory = DecoderCorpus.Inventory
    typealias Everything = DecoderCorpus.Everything
    typealias Dated = DecoderCorpus.Dated
    typealias Snake = DecoderCorpus.Snake
    typealias Outcome = DecoderCorpus.Outcome

    static func outcome(_ body: () throws -> Void) -> Outcome { DecoderCorpus.outcome(body) }

    func compare<T: Decodable & Equatable>(
        _ type: T.Type, _ json: String, sourceLocation: Testing.SourceLocation = #_sourceLocation,
        configure: (JSONDecoder, VettedJSONDecoder) -> Void = { _, _ in }
    ) {
        let foundation = JSONDecoder()
        let vetted = VettedJSONDecoder()
        configure(foundation, vetted)
        let data = Data(json.utf8)
        var theirs: T?
        var ours: T?
        let theirOutcome = Self.outcome { theirs = try foundation.decode(T.self, from: data) }
        let ourOutcome = Self.outcome { ours = try vetted.decode(T.self, from: data) }
        // Foundation on Linux drops the coding path of dataCorrupted errors
        // about numbers and dates; Vetted keeps it (deliberately).
        if case .error("dataCorrupted", let ourPath) = ourOutcome, theirOutcome == .error(kind: "dataCorrupted", path: []), !ourPath.isEmpty {
            return
        }
        #expect(ourOutcome == theirOutcome, "\(json)", sourceLocation: sourceLocation)
        if let theirs, let ours { #expect(ours == theirs, "\(json)", sourceLocation: sourceLocation) }
    }

    @Test func structsOptionalsAndArrays() {
        compare(Simple.self, #"{"a": 1, "b": "x", "c": 2.5, "d": [true, false]}"#)
        compare(Simple.self, #"{"a": 1, "b": "x", "d": []}"#)
        compare(Simple.self, #"{"a": 1, "b": "x", "c": null, "d": []}"#)
        compare(Simple.self, #"{"a": "1", "b": "x", "d": []}"#)
        compare(Simple.self, #"{"a": 1, "d": []}"#)
        compare(Simple.self, #"{"a": null, "b": "x", "d": []}"#)
        compare(Simple.self, #"{"a": 1, "b": "x", "d": [true, 1]}"#)
        compare(Simple.self, #"{"a": 1, "b": "x", "d": [true, null]}"#)
        compare(Simple.self, #"{"a": 1.0, "b": "x", "d": []}"#)
        compare(Simple.self, #"{"a": 1e2, "b": "x", "d": []}"#)
        compare(Simple.self, #"[1, 2]"#)
        compare([Simple].self, #"[{"a": 1, "b": "x", "d": []}, {"a": 2, "b": 3, "d": []}]"#)
        compare([Simple?].self, #"[null, {"a": 1, "b": "x", "d": []}]"#)
        compare(Simple.self, #"{"a": 1, "b": "x", "c": "2.5", "d": []}"#)
    }

    @Test func enumsWithRawAndAssociatedValues() {
        compare([Color].self, #"["red", "green"]"#)
        compare([Color].self, #"["red", "blue"]"#)
        compare([Color].self, #"["red", null]"#)
        compare([Simple].self, #"[null]"#)
        compare([Int].self, #"[1, null]"#)
        compare([Bool].self, #"[true, null]"#)
        compare([Level].self, #"[1, 2]"#)
        compare([Level].self, #"[3]"#)
        compare([Shape].self, #"[{"circle": {"radius": 2}}, {"square": {"_0": 3}}, {"none": {}}]"#)
        compare([Shape].self, #"[{"circle": {"radius": "big"}}]"#)
        compare([Shape].self, #"[{"triangle": {}}]"#)
    }

    @Test func classesAndSuperDecoders() {
        compare(Derived.self, #"{"y": "why", "super": {"x": 7}}"#)
        compare(Derived.self, #"{"y": "why", "super": {"x": "7"}}"#)
        compare(Derived.self, #"{"y": "why"}"#)
    }

    @Test func nestedContainersAllKeysAndContains() {
        compare(Inventory.self, #"{"items": {"apples": 3, "pears": 4}, "note": "n", "names": ["a", "b"]}"#)
        compare(Inventory.self, #"{"items": {"apples": 3}, "names": ["a"]}"#)
        compare(Inventory.self, #"{"items": {"apples": "3"}, "names": ["a"]}"#)
        compare(Inventory.self, #"{"items": [], "names": ["a"]}"#)
        compare(Inventory.self, #"{"items": {}, "names": []}"#)
        compare(Inventory.self, #"{"names": ["a"]}"#)
    }

    static let everything = #"""
        {"url": "https://example.com/a?b=c", "decimal": 12345678901234567890.25, "uuid": "E621E1F8-C36C-495A-93FC-0C247A3E6E5F",
         "data": "AQID", "set": [3, 1, 2], "byName": {"one": 1}, "byNumber": {"2": "two"}, "nested": [[1, null], []],
         "color": "red", "level": 2, "shape": {"none": {}}, "small": -128, "unsigned": 65535, "float": 1.5}
        """#

    @Test func foundationTypesSetsAndDictionaries() throws {
        compare(Everything.self, Self.everything)
        for (key, bad) in [
            ("url", "5"), ("uuid", "\"not-a-uuid\""), ("data", "\"@@@\""), ("set", "[1, \"2\"]"),
            ("byName", "[]"), ("byNumber", "{\"two\": \"x\"}"), ("nested", "[[1, \"x\"]]"), ("color", "\"blue\""),
            ("decimal", "\"1\""), ("small", "\"x\""), ("float", "true"),
        ] {
            var object = try #require(try JSONParser().parse(Self.everything).objectValue)
            object[key] = try JSONParser().parse(bad)
            compare(Everything.self, JSONValue.object(object).jsonString())
        }
    }

    @Test func dateStrategies() {
        compare(Dated.self, #"{"when": 548000000.5}"#)
        compare(Dated.self, #"{"when": "x"}"#)
        compare(Dated.self, #"{"when": 1528105260}"#) { $0.dateDecodingStrategy = .secondsSince1970; $1.dateDecodingStrategy = .secondsSince1970 }
        compare(Dated.self, #"{"when": 1528105260500}"#) {
            $0.dateDecodingStrategy = .millisecondsSince1970
            $1.dateDecodingStrategy = .millisecondsSince1970
        }
        for text in ["2018-06-04T09:41:00Z", "2018-06-04 09:41:00", "2018-13-04T09:41:00Z"] {
            compare(Dated.self, "{\"when\": \"\(text)\"}") { $0.dateDecodingStrategy = .iso8601; $1.dateDecodingStrategy = .iso8601 }
        }
        compare(Dated.self, #"{"when": 7}"#) {
            $0.dateDecodingStrategy = .custom { decoder in Date(timeIntervalSince1970: try Double(decoder.singleValueContainer().decode(Int.self) * 10)) }
            $1.dateDecodingStrategy = .custom { decoder in Date(timeIntervalSince1970: try Double(decoder.singleValueContainer().decode(Int.self) * 10)) }
        }
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd"
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.locale = Locale(identifier: "en_US_POSIX")
        for text in ["2018-06-04", "04/06/2018"] {
            compare(Dated.self, "{\"when\": \"\(text)\"}") { $0.dateDecodingStrategy = .formatted(formatter); $1.dateDecodingStrategy = .formatted(formatter) }
        }
    }

    /// Beyond Foundation: fractional seconds and offsets under .iso8601.
    @Test func iso8601AlsoTakesFractionsAndOffsets() throws {
        let decoder = VettedJSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let date = try decoder.decode(Dated.self, from: Array(#"{"when": "2018-05-01T10:39:04.250-07:00"}"#.utf8)).when
        #expect(date.timeIntervalSince1970 == 1_525_196_344.25)
    }

    @Test func dataStrategies() {
        struct Blob: Codable, Equatable { var bytes: Data }
        compare(Blob.self, #"{"bytes": "AQID"}"#)
        compare(Blob.self, #"{"bytes": [1, 2, 3]}"#) { $0.dataDecodingStrategy = .deferredToData; $1.dataDecodingStrategy = .deferredToData }
        compare(Blob.self, #"{"bytes": [1, 300]}"#) { $0.dataDecodingStrategy = .deferredToData; $1.dataDecodingStrategy = .deferredToData }
    }

    @Test func keyStrategies() {
        compare(Snake.self, #"{"first_name": "A", "last_updated_at": 1, "url": "u"}"#) {
            $0.keyDecodingStrategy = .convertFromSnakeCase
            $1.keyDecodingStrategy = .convertFromSnakeCase
        }
        compare(Snake.self, #"{"first_name": "A", "url": "u"}"#) {
            $0.keyDecodingStrategy = .convertFromSnakeCase
            $1.keyDecodingStrategy = .convertFromSnakeCase
        }
    }

    /// A dictionary's keys are data: no key strategy converts them (as in Foundation).
    @Test func keyStrategiesLeaveDictionaryKeysAlone() {
        struct Holder: Codable, Equatable {
            var byName: [String: Int]
            var nestedMaps: [[String: [String: Int]]]
        }
        let json = #"{"by_name": {"first_name": 1, "x_y": 2}, "nested_maps": [{"a_b": {"c_d": 3}}]}"#
        compare(Holder.self, json) { $0.keyDecodingStrategy = .convertFromSnakeCase; $1.keyDecodingStrategy = .convertFromSnakeCase }
        compare([String: Int].self, #"{"first_name": 1, "last_name": 2}"#) {
            $0.keyDecodingStrategy = .convertFromSnakeCase
            $1.keyDecodingStrategy = .convertFromSnakeCase
        }
        compare([String: Int].self, #"{"first_name": "1"}"#) {
            $0.keyDecodingStrategy = .convertFromSnakeCase
            $1.keyDecodingStrategy = .convertFromSnakeCase
        }
        compare([String: Int].self, #"[1]"#) { $0.keyDecodingStrategy = .convertFromSnakeCase; $1.keyDecodingStrategy = .convertFromSnakeCase }
    }

    @Test func nonConformingFloats() {
        struct Measure: Codable, Equatable { var value: Double }
        compare(Measure.self, #"{"value": "+Inf"}"#)
        compare(Measure.self, #"{"value": "+Inf"}"#) {
            $0.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "+Inf", negativeInfinity: "-Inf", nan: "NaN")
            $1.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "+Inf", negativeInfinity: "-Inf", nan: "NaN")
        }
    }

    @Test func invalidJSONIsDataCorruptedInBoth() {
        compare(Simple.self, #"{"a": tru}"#)
        compare(Simple.self, #"{"a": 1"#)
        compare(Simple.self, #"{"a": 01}"#)
    }

    /// Deliberately stricter: Foundation on Linux accepts a trailing comma.
    @Test func trailingCommasAreRejectedOnlyByVetted() {
        let json = Data(#"{"a": 1, "b": "x", "d": [],}"#.utf8)
        #expect(throws: Never.self) { try JSONDecoder().decode(Simple.self, from: json) }
        #expect(Self.outcome { _ = try VettedJSONDecoder().decode(Simple.self, from: json) } == .error(kind: "dataCorrupted", path: []))
    }

    /// Deliberately stricter: Foundation keeps one of two equal keys silently.
    @Test func duplicateKeysAreRejectedOnlyByVetted() throws {
        let json = Data(#"{"a": 1, "b": "x", "d": [], "a": 2}"#.utf8)
        #expect(throws: Never.self) { try JSONDecoder().decode(Simple.self, from: json) }
        #expect(Self.outcome { _ = try VettedJSONDecoder().decode(Simple.self, from: json) } == .error(kind: "dataCorrupted", path: []))
    }

    /// Foundation on Linux drops the path of number-range errors and calls
    /// them invalid JSON; Vetted keeps the path and says what is wrong.
    @Test func numberRangeErrorsKeepTheirPath() {
        #expect(Self.outcome { _ = try VettedJSONDecoder().decode([Int8].self, from: Data("[1, 300]".utf8)) } == .error(kind: "dataCorrupted", path: ["Index 1"]))
        #expect(Self.outcome { _ = try VettedJSONDecoder().decode(Simple.self, from: Data(#"{"a": 1.5, "b": "x", "d": []}"#.utf8)) } == .error(kind: "dataCorrupted", path: ["a"]))
    }
}
