import Foundation
import Testing
import VettedCore
import VettedTestSupport
import VettedJSON

@Suite struct JSONValueTests {
    @Test func objectsKeepDocumentOrder() throws {
        let value = try JSONParser().parse("{\"z\":1,\"a\":2,\"m\":3}")
        #expect(value.objectValue?.keys == ["z", "a", "m"])
        #expect(value.description == "{\"z\":1,\"a\":2,\"m\":3}")
    }

    @Test func objectEqualityIgnoresMemberOrderAndHashesAlike() throws {
        let a = try JSONParser().parse("{\"a\":1,\"b\":[true,null]}")
        let b = try JSONParser().parse("{\"b\":[true,null],\"a\":1}")
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(a != (try JSONParser().parse("{\"a\":1,\"b\":[null,true]}")))
        #expect(Set([a, b]).count == 1)
    }

    @Test func numbersKeepTheirExactLiteral() throws {
        let value = try JSONParser().parse("[1.0, -0, 1E+2, 123456789012345678901234567890, 0.1]")
        #expect(value.arrayValue?.compactMap(\.numberValue?.literal) == ["1.0", "-0", "1E+2", "123456789012345678901234567890", "0.1"])
        #expect(value.description == "[1.0,-0,1E+2,123456789012345678901234567890,0.1]")
        #expect(value[0] != value[2])  // literals differ
    }

    struct IntegerCase: Sendable, CustomTestStringConvertible {
        let literal: String
        let int64: Int64?
        let uint64: UInt64?
        let code: VettedError.Code?
        var testDescription: String { literal }
    }

    @Test(arguments: [
        IntegerCase(literal: "0", int64: 0, uint64: 0, code: nil),
        IntegerCase(literal: "-0", int64: 0, uint64: 0, code: nil),
        IntegerCase(literal: "1.0", int64: 1, uint64: 1, code: nil),
        IntegerCase(literal: "1.5e1", int64: 15, uint64: 15, code: nil),
        IntegerCase(literal: "1e2", int64: 100, uint64: 100, code: nil),
        IntegerCase(literal: "12300e-2", int64: 123, uint64: 123, code: nil),
        IntegerCase(literal: "9223372036854775807", int64: .max, uint64: 9_223_372_036_854_775_807, code: nil),
        IntegerCase(literal: "-9223372036854775808", int64: .min, uint64: nil, code: .numberOutOfRange),
        IntegerCase(literal: "9223372036854775808", int64: nil, uint64: 9_223_372_036_854_775_808, code: .numberOutOfRange),
        IntegerCase(literal: "18446744073709551615", int64: nil, uint64: .max, code: .numberOutOfRange),
        IntegerCase(literal: "18446744073709551616", int64: nil, uint64: nil, code: .numberOutOfRange),
        IntegerCase(literal: "-1", int64: -1, uint64: nil, code: .numberOutOfRange),
        IntegerCase(literal: "1e19", int64: nil, uint64: 10_000_000_000_000_000_000, code: .numberOutOfRange),
        IntegerCase(literal: "1e999999999999", int64: nil, uint64: nil, code: .numberOutOfRange),
        IntegerCase(literal: "0e999999999999", int64: 0, uint64: 0, code: nil),
        IntegerCase(literal: "1.5", int64: nil, uint64: nil, code: .numberNotInteger),
        IntegerCase(literal: "1e-1", int64: nil, uint64: nil, code: .numberNotInteger),
        IntegerCase(literal: "1.0000000000000000000000001", int64: nil, uint64: nil, code: .numberNotInteger),
    ])
    func integerConversionsAreExactAndNeverTrap(_ testCase: IntegerCase) throws {
        let number = try #require(JSONNumber(literal: testCase.literal))
        if let int64 = testCase.int64 {
            #expect(try number.int64Value == int64)
            #expect(try number.intValue == Int(int64))
        } else {
            let error = thrownError { () throws(VettedError) in _ = try number.int64Value }
            #expect(error?.code == testCase.code)
        }
        if let uint64 = testCase.uint64 {
            #expect(try number.uint64Value == uint64)
        } else {
            let error = thrownError { () throws(VettedError) in _ = try number.uint64Value }
            #expect(error?.code == testCase.code)
        }
    }

    @Test func doublesAreCorrectlyRoundedAndOverflowIsAnError() throws {
        #expect(try JSONNumber(literal: "0.1")?.doubleValue == 0.1)
        #expect(try JSONNumber(literal: "2.2250738585072011e-308")?.doubleValue == Double(bitPattern: 0x000F_FFFF_FFFF_FFFF))
        #expect(try JSONNumber(literal: "9007199254740993")?.doubleValue == 9_007_199_254_740_992)
        #expect(try JSONNumber(literal: "1e-400")?.doubleValue == 0)
        #expect(try JSONNumber(literal: "1.7976931348623157e308")?.doubleValue == .greatestFiniteMagnitude)
        let overflow = try #require(JSONNumber(literal: "1e309"))
        #expect(throws: VettedError(code: .numberOutOfRange)) { try overflow.doubleValue }
        #expect(throws: VettedError(code: .numberOutOfRange)) { try JSONNumber(literal: "-1e400")?.doubleValue }
    }

    @Test func decimalsKeepDigitsThatDoubleLoses() throws {
        #expect(try JSONNumber(literal: "0.1")?.decimalValue == Decimal(string: "0.1"))
        #expect(try JSONNumber(literal: "12345678901234567890.5")?.decimalValue == Decimal(string: "12345678901234567890.5"))
        #expect(throws: VettedError(code: .numberOutOfRange)) { try JSONNumber(literal: "1e999")?.decimalValue }
    }

    @Test func numberLiteralsAreValidated() {
        #expect(JSONNumber(literal: "01") == nil)
        #expect(JSONNumber(literal: "1.") == nil)
        #expect(JSONNumber(literal: " 1") == nil)
        #expect(JSONNumber(literal: "NaN") == nil)
        #expect(JSONNumber(Double.nan) == nil)
        #expect(JSONNumber(Double.infinity) == nil)
        #expect(JSONNumber(0.5)?.literal == "0.5")
        #expect(JSONNumber(-42).literal == "-42")
    }

    @Test func accessorsAndSubscripts() throws {
        let value = try JSONParser().parse("{\"a\":[1,\"x\",true,null,{}]}")
        #expect(value["a"]?[1]?.stringValue == "x")
        #expect(value["a"]?[2]?.boolValue == true)
        #expect(value["a"]?[3]?.isNull == true)
        #expect(value["a"]?[4]?.objectValue?.isEmpty == true)
        #expect(value["a"]?[5] == nil)
        #expect(value["b"] == nil)
        #expect(value["a"]?[-1] == nil)
    }

    @Test func objectSubscriptSetterReplacesAppendsAndRemoves() {
        var object: JSONObject = ["a": 1, "b": 2]
        object["a"] = "x"
        object["c"] = nil
        object["d"] = true
        object["b"] = nil
        #expect(object.keys == ["a", "d"])
        #expect(object["a"] == "x")
    }

    @Test func writerEscapesAndPrettyPrints() throws {
        let value: JSONValue = ["s": "quote\" back\\ nl\n nul\u{0} ls\u{2028} é 😀", "a": [], "o": [:], "n": [1, [2]]]
        #expect(
            value.jsonString()
                == #"{"s":"quote\" back\\ nl\n nul\u0000 ls\u2028 é 😀","a":[],"o":{},"n":[1,[2]]}"#)
        #expect(
            value.jsonString(.pretty) == """
                {
                  "s": "quote\\" back\\\\ nl\\n nul\\u0000 ls\\u2028 é 😀",
                  "a": [],
                  "o": {},
                  "n": [
                    1,
                    [
                      2
                    ]
                  ]
                }
                """)
        #expect(try JSONParser().parse(value.jsonBytes(.pretty)) == value)
    }

    @Test func stringsDecodeEscapesAndSurrogatePairs() throws {
        let value = try JSONParser().parse(#"["\"\\\/\b\f\n\r\t", "\u00e9\u20AC\ud83d\ude00", "\u0000"]"#)
        #expect(value == ["\"\\/\u{8}\u{C}\n\r\t", "é€😀", "\u{0}"])
    }

    @Test func relaxedOptionsReplaceWithTheReplacementCharacter() throws {
        let parser = JSONParser(options: .init(allowInvalidUTF8: true, allowLoneSurrogates: true))
        #expect(try parser.parse([0x5B, 0x22, 0x61, 0xFF, 0x62, 0x22, 0x5D]) == ["a\u{FFFD}b"])
        #expect(try parser.parse(#"["\ud800x", "\udc00"]"#) == ["\u{FFFD}x", "\u{FFFD}"])
        let withBOM = JSONParser(options: .init(allowByteOrderMark: true))
        #expect(try withBOM.parse([0xEF, 0xBB, 0xBF, 0x5B, 0x5D]) == [])
        // Only one BOM is skipped.
        expectFailure([0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF, 0x5B, 0x5D], .unexpectedCharacter, at: 3, parser: withBOM)
    }

    @Test func inputsOfEveryShape() throws {
        let text = "{\"k\": [1, 2]}"
        let expected: JSONValue = ["k": [1, 2]]
        #expect(try JSONParser().parse(text) == expected)
        #expect(try JSONParser().parse(Array(text.utf8)) == expected)
        #expect(try JSONParser().parse(Data(text.utf8)) == expected)
        #expect(try JSONValue(parsing: Data(text.utf8)) == expected)
        // A Data slice that does not start at index 0.
        let sliced = Data(("xx" + text).utf8).dropFirst(2)
        #expect(try JSONParser().parse(Data(sliced)) == expected)
        #expect(try JSONParser().parse(sliced) == expected)
    }
}

@Suite struct DuplicateKeyTests {
    let document = "{\"a\":1,\"b\":2,\"a\":3,\"c\":4,\"a\":5}"

    @Test func rejectedByDefault() {
        expectFailure(document, .duplicateKey, at: 13, path: [.key("a")])
    }

    @Test func keepFirst() throws {
        let value = try JSONParser(options: .init(duplicateKeys: .keepFirst)).parse(document)
        #expect(value.objectValue?.keys == ["a", "b", "c"])
        #expect(value["a"] == 1)
    }

    @Test func keepLastKeepsThePositionOfTheFirst() throws {
        let value = try JSONParser(options: .init(duplicateKeys: .keepLast)).parse(document)
        #expect(value.objectValue?.keys == ["a", "b", "c"])
        #expect(value["a"] == 5)
    }

    @Test func escapedAndPlainSpellingsAreTheSameKey() {
        expectFailure("{\"é\":1,\"\\u00e9\":2}", .duplicateKey, at: 8, path: [.key("é")])
        expectFailure("{\"\\/\":1,\"/\":2}", .duplicateKey, at: 8, path: [.key("/")])
    }

    @Test func largeObjectsUseTheIndexAndStillFindDuplicates() {
        let members = (0..<1_000).map { "\"k\($0)\":\($0)" }.joined(separator: ",")
        let text = "{" + members + ",\"k500\":0}"
        expectFailure(text, .duplicateKey, at: text.utf8.count - 9, path: [.key("k500")])
        #expect(throws: Never.self) { try JSONParser().parse("{" + members + "}") }
    }

    @Test func nestedObjectsHaveTheirOwnKeys() throws {
        let value = try JSONParser().parse("{\"a\":{\"a\":{\"a\":1}},\"b\":{\"a\":2}}")
        #expect(value["a"]?["a"]?["a"] == 1)
        #expect(value["b"]?["a"] == 2)
    }

    /// Each open object files its key index and its repeats under its own
    /// level: an inner large object's repeats never land on the outer one,
    /// and a closed object's index is gone before its sibling opens.
    @Test func nestedLargeObjectsKeepTheirRepeatsApart() throws {
        func members(_ prefix: String, _ count: Int) -> String { (0..<count).map { "\"\(prefix)\($0)\":\($0)" }.joined(separator: ",") }
        let inner = "{" + members("i", 20) + ",\"i3\":\"again\"}"
        let beforeX = "{" + members("o", 20) + ",\"x\":"
        let text = beforeX + inner + ",\"y\":" + inner + ",\"o7\":\"again\"}"
        let last = try JSONParser(options: .init(duplicateKeys: .keepLast)).parse(text)
        #expect(last.objectValue?.keys.count == 22)
        #expect(last["o7"] == "again")
        #expect(last["x"]?.objectValue?.keys.count == 20)
        #expect(last["x"]?["i3"] == "again")
        #expect(last["y"]?["i3"] == "again")
        let first = try JSONParser(options: .init(duplicateKeys: .keepFirst)).parse(text)
        #expect(first["o7"] == 7)
        #expect(first["y"]?["i3"] == 3)
        // Rejected: at the first inner object's second "i3" (its last 13 bytes are `"i3":"again"}`).
        expectFailure(text, .duplicateKey, at: beforeX.utf8.count + inner.utf8.count - 13, path: [.key("x"), .key("i3")])
    }

    @Test func validateOnlyAppliesTheSamePolicy() {
        #expect(throws: Never.self) { try JSONParser(options: .init(duplicateKeys: .keepFirst)).validate(document) }
        #expect(throws: VettedError(code: .duplicateKey, offset: 13, path: [.key("a")])) { try JSONParser().validate(document) }
    }
}

/// Large objects are indexed on their first lookup (issue 18, item 2): the index answers
/// as the scan did, first member of a repeated key included, through changes and copies.
@Suite struct JSONObjectIndexTests {
    @Test func lookupsMatchAScanThroughChangesAndCopies() throws {
        var members = (0..<40).map { JSONObject.Member(key: "k\($0)", value: .number(JSONNumber($0))) }
        members.append(.init(key: "k3", value: "second k3"))
        var object = JSONObject(members)
        #expect(object["k3"] == .number(JSONNumber(3)))  // the first of a repeated key
        #expect(object["k39"] == .number(JSONNumber(39)) && object["nope"] == nil)
        let copy = object
        object["k5"] = "five"
        object["new"] = true
        #expect(object["k5"] == "five" && object["new"] == true)
        #expect(copy["k5"] == .number(JSONNumber(5)) && copy["new"] == nil)  // the copy keeps its own members
        object["k3"] = nil  // removes both k3 members
        #expect(object["k3"] == nil && object.count == 40 && object["k4"] == .number(JSONNumber(4)))
        // Built key by key (the index extended in place), then copied and grown apart:
        // each copy answers for its own members only.
        var built = JSONObject()
        for index in 0..<100 {
            built["b\(index)"] = .number(JSONNumber(index))
            #expect(built["b\(index)"] == .number(JSONNumber(index)) && built["b\(index / 2)"] == .number(JSONNumber(index / 2)))
        }
        var left = built
        var right = built
        left["only-left"] = "L"
        right["only-right"] = "R"
        #expect(left["only-left"] == "L" && left["only-right"] == nil && left["b99"] == .number(JSONNumber(99)))
        #expect(right["only-right"] == "R" && right["only-left"] == nil && built["only-left"] == nil && built.count == 100)
        // A parsed large object, every key looked up.
        let text = "{" + (0..<1_000).map { "\"key\($0)\":\($0)" }.joined(separator: ",") + "}"
        let parsed = try #require(try JSONParser().parse(text).objectValue)
        for index in 0..<1_000 { #expect(parsed["key\(index)"] == .number(JSONNumber(index))) }
    }
}
