import Foundation
import Testing
import VettedCore
@_spi(Testing) import VettedJSON
import VettedMacros

/// Structural errors: a field's value of the wrong kind, or a required field that never came,
/// is the tape path's error exactly on both paths, and the byte reader answers it in one pass.
/// Under `.collect` (the default, the cases here) the call reports every structural error
/// (issue 46, item 2): the byte reader records each, skips the value and reads on (issue 42),
/// where before it handed the document to the tape path for a second pass.
@Suite struct DirectFailureTests {
    static let base = GenCorpus.directBase(date: "1533390784.5")

    /// `base` with the member `key`'s value replaced (or the member removed), inside an array after a valid copy.
    static func document(_ key: String, _ value: String?) -> String {
        var members = base
        if let index = members.members.firstIndex(where: { $0.key == key }) {
            if let value { members.members[index].value = value } else { members.members.remove(at: index) }
        }
        return "[\(base.text), \(members.text)]"
    }

    /// The byte offset of the first `needle` at or after `from` in `text`.
    static func offset(of needle: String, in text: String, after from: Int = 0) -> Int {
        let bytes = Array(text.utf8)
        let wanted = Array(needle.utf8)
        for start in from..<(bytes.count - wanted.count + 1) where Array(bytes[start..<(start + wanted.count)]) == wanted { return start }
        return -1
    }

    func failure(_ json: String, _ decoder: VettedJSONDecoder = VettedJSONDecoder()) throws -> (direct: Bool, error: VettedError) {
        let data = Data(json.utf8)
        let error = try #require(throws: DecodingError.self) { try decoder.decode([DirectItem].self, from: data) }
        return (decoder.decodesDirectly([DirectItem].self, from: data), try #require(error.vettedError))
    }

    @Test func aValueOfTheWrongKindIsAnsweredStraightFromTheBytes() throws {
        let second = Self.offset(of: "}, {", in: Self.document("count", nil)) + 3
        for (value, code, message) in [
            (#""five""#, "typeMismatch", #""count": expected an integer"#), ("null", "valueNotFound", #""count": null where an integer is required"#),
            ("[1]", "typeMismatch", #""count": expected an integer"#),
        ] {
            let json = Self.document("count", value)
            let (direct, error) = try failure(json)
            #expect(direct, "\(value)")
            #expect("\(error.code) \(error.path)" == "\(code) $[1].count")
            #expect(error.offset == Self.offset(of: value, in: json, after: second))
            #expect(error.message == message)
        }
        // A struct field that is not an object; a Bool that is null (as Foundation: a type mismatch).
        let child = Self.document("child", #""n""#)
        let (childDirect, childError) = try failure(child)
        #expect(childDirect && "\(childError.code) \(childError.path)" == "typeMismatch $[1].child")
        #expect(childError.offset == Self.offset(of: #""n", "spare""#, in: child, after: second))
        let flag = Self.document("flag", "null")
        let (flagDirect, flagError) = try failure(flag)
        #expect(flagDirect && "\(flagError.code) \(flagError.path) \(flagError.offset ?? -1)" == "typeMismatch $[1].flag \(Self.offset(of: "null", in: flag, after: second))")
        // An empty container is placed at its key, as the tape path places it.
        let empty = Self.document("count", "{}")
        let (emptyDirect, emptyError) = try failure(empty)
        #expect(emptyDirect && emptyError.offset == Self.offset(of: #""count""#, in: empty, after: second))
    }

    /// A value read but not converted (before: the tape path read the document again): a number
    /// its type cannot hold, a date string its strategy does not parse, a date of another kind.
    @Test func aValueThatDoesNotConvertIsAnsweredStraightFromTheBytes() throws {
        let second = Self.offset(of: "}, {", in: Self.document("count", nil)) + 3
        let overflow = Self.document("count", "9223372036854775808")
        let (overflowDirect, overflowError) = try failure(overflow)
        #expect(overflowDirect)
        #expect(
            "\(overflowError.code) \(overflowError.path) \(overflowError.offset ?? -1)"
                == "invalidValue $[1].count \(Self.offset(of: "9223372036854775808", in: overflow, after: second))")
        #expect(overflowError.message == #""count": invalid value: Number 9223372036854775808 is not rep…"#)
        let iso = VettedJSONDecoder()
        iso.dateDecodingStrategy = .iso8601
        for value in [#""yesterday""#, "42"] {
            let json = Self.document("when", value).replacingOccurrences(of: "1533390784.5", with: #""2018-08-04T13:53:04Z""#)
            let (direct, error) = try failure(json, iso)
            #expect(direct, "\(value)")
            #expect(error.path.description == "$[1].when")
            #expect(error.offset == Self.offset(of: value, in: json, after: second))
            let tape = VettedJSONDecoder()
            tape.dateDecodingStrategy = .iso8601
            tape.directDecoding = false
            let tapeError = try #require(throws: DecodingError.self) { try tape.decode([DirectItem].self, from: Data(json.utf8)) }.vettedError
            #expect(tapeError.map { "\($0.code) \($0.path) \($0.offset ?? -1) \($0.message)" } == "\(error.code) \(error.path) \(error.offset ?? -1) \(error.message)")
        }
    }

    /// The exact error of `json` through the byte reader, that it was answered there, and the tape path's.
    func bothWays(_ json: String, _ configure: (VettedJSONDecoder) -> Void = { _ in }) throws -> (direct: Bool, bytes: String, tape: String) {
        func line(_ error: VettedError?) -> String { error.map { "\($0.code) \($0.path) \($0.offset ?? -1) \($0.message)" } ?? "none" }
        let decoder = VettedJSONDecoder()
        configure(decoder)
        let (direct, error) = try failure(json, decoder)
        let tape = VettedJSONDecoder()
        configure(tape)
        tape.directDecoding = false
        let tapeError = try #require(throws: DecodingError.self) { try tape.decode([DirectItem].self, from: Data(json.utf8)) }
        return (direct, line(error), line(tapeError.vettedError))
    }

    /// A raw value no case has (a field, an element of a field's array, String and Int raw
    /// values), and an enum's value of another kind: before, the tape path read the document again.
    @Test func anEnumValueNoCaseHasIsAnsweredStraightFromTheBytes() throws {
        let second = Self.offset(of: "}, {", in: Self.document("count", nil)) + 3
        for (key, value, needle, path) in [
            ("kind", #""zz""#, #""zz""#, "$[1].kind"), ("kinds", #"["a", "zz"]"#, #""zz""#, "$[1].kinds[1]"),
            ("level", "7", "7,", "$[1].level"), ("levels", "[1, 9]", "9]", "$[1].levels[1]"),
        ] {
            let json = Self.document(key, value)
            let (direct, bytes, tape) = try bothWays(json)
            #expect(direct, "\(key)")
            #expect(bytes == tape, "\(key)")
            let field = path.hasSuffix("]") ? "" : "\"\(key)\": "
            #expect(bytes == "invalidValue \(path) \(Self.offset(of: needle, in: json, after: second)) \(field)not one of the allowed values")
        }
        for (key, value, code) in [("kind", "3", "typeMismatch"), ("kinds", #"["a", 3]"#, "typeMismatch"), ("level", #""high""#, "typeMismatch")] {
            let (direct, bytes, tape) = try bothWays(Self.document(key, value))
            #expect(direct && bytes == tape && bytes.hasPrefix(code), "\(key): \(bytes)")
        }
    }

    /// A Double, an element of a field's array and a date read as seconds, of another kind or
    /// out of range; a non-conforming float's name read as a Double, and as a date (no finite
    /// number of seconds): answered straight from the bytes, as the tape path answers.
    @Test func aNumberThatIsNoneIsAnsweredStraightFromTheBytes() throws {
        let second = Self.offset(of: "}, {", in: Self.document("count", nil)) + 3
        for (key, value, code) in [
            ("ratio", #""x""#, "typeMismatch"), ("ratio", "1e400", "invalidValue"), ("ratios", #"[1, "x"]"#, "typeMismatch"),
            ("numbers", "[1, 2.5]", "invalidValue"), ("tags", "[1]", "typeMismatch"), ("flags", "[true, 0]", "typeMismatch"), ("when", "true", "typeMismatch"),
        ] {
            let json = Self.document(key, value)
            let (direct, bytes, tape) = try bothWays(json)
            #expect(direct, "\(key) \(value)")
            #expect(bytes == tape, "\(key) \(value)")
            #expect(bytes.hasPrefix(code), "\(key) \(value): \(bytes)")
        }
        let floats = { (decoder: VettedJSONDecoder) in
            decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        }
        let named = Self.document("ratio", #""-Infinity""#)
        let decoder = VettedJSONDecoder()
        floats(decoder)
        #expect(decoder.decodesDirectly([DirectItem].self, from: Data(named.utf8)))
        #expect(try decoder.decode([DirectItem].self, from: Data(named.utf8))[1].ratio == -.infinity)
        let never = Self.document("when", #""Infinity""#)
        let (direct, bytes, tape) = try bothWays(never, floats)
        #expect(direct && bytes == tape)
        #expect(bytes == "nonFiniteDate $[1].when \(Self.offset(of: #""Infinity""#, in: never, after: second)) the date is not a finite number of seconds")
        let other = Self.document("ratio", #""Inf""#)
        let (otherDirect, otherBytes, otherTape) = try bothWays(other, floats)
        #expect(otherDirect && otherBytes == otherTape && otherBytes.hasPrefix("typeMismatch $[1].ratio \(Self.offset(of: #""Inf""#, in: other, after: second))"))
    }

    /// An object with many keys that are no field (before: past 16 of them, the tape path read
    /// the document again): read here, a repeat among them the parser's error, in one pass.
    @Test func manyUnknownKeysAreReadStraightFromTheBytes() throws {
        let extra = (0..<40).map { #""x\#($0)": \#($0)"# }.joined(separator: ", ")
        let json = Self.document("count", "5").replacingOccurrences(of: #""other": {}}]"#, with: #""other": {}, \#(extra)}]"#)
        let decoder = VettedJSONDecoder()
        #expect(decoder.decodesDirectly([DirectItem].self, from: Data(json.utf8)))
        #expect(try decoder.decode([DirectItem].self, from: Data(json.utf8)).count == 2)
        for repeated in [#""x3": 0"#, #""\u0078\u0033": 0"#] {
            let twice = json.replacingOccurrences(of: #""x39": 39}]"#, with: #""x39": 39, \#(repeated)}]"#)
            let (direct, error) = try failure(twice)
            #expect(direct, "\(repeated)")
            #expect("\(error.code) \(error.path) \(error.offset ?? -1)" == "duplicateKey $[1].x3 \(Self.offset(of: repeated, in: twice))")
        }
    }

    @Test func directAnswersAStructuralFailureInFailFastMode() throws {
        let decoder = VettedJSONDecoder()
        decoder.validationMode = .failFast
        let json = #"[{"id":1,"name":"a","sold":true},{"id":"2","name":"b","sold":true}]"#
        #expect(decoder.decodesDirectly([CollectedItem].self, from: Data(json.utf8)))
        let error = try #require(throws: DecodingError.self) { try decoder.decode([CollectedItem].self, from: Data(json.utf8)) }
        #expect(error.vettedError.map { "\($0.code) \($0.path) \($0.offset ?? -1)" } == "typeMismatch $[1].id \(Self.offset(of: #""2""#, in: json))")
        #expect(VettedJSONDecoder().decodesDirectly([CollectedItem].self, from: Data(json.utf8)))
    }

    @Test func aMissingFieldIsAnsweredStraightFromTheBytes() throws {
        let json = Self.document("label", nil)
        let (direct, error) = try failure(json)
        #expect(direct)
        #expect("\(error.code) \(error.path) \(error.offset ?? -1)" == "keyNotFound $[1].label \(Self.offset(of: "}, {", in: json) + 3)")
        #expect(error.message == #"the required field "label" is missing"#)
        // In a nested empty object: placed at its key.
        let nested = Self.document("child", "{}")
        let (nestedDirect, nestedError) = try failure(nested)
        #expect(nestedDirect)
        #expect(
            "\(nestedError.code) \(nestedError.path) \(nestedError.offset ?? -1)"
                == "keyNotFound $[1].child.name \(Self.offset(of: #""child": {}"#, in: nested))")
    }

    /// What comes after the failure can still decide: a syntax error or a repeated key (the
    /// parser's answer, given in the same pass), a field the tape path reads first coming later
    /// (the tape path's answer).
    @Test func whatComesAfterTheFailureCanStillDecide() throws {
        let syntax = Self.document("count", #""x""#).replacingOccurrences(of: #""other": {}}]"#, with: #""other": {}]]"#)
        let data = Data(syntax.utf8)
        #expect(VettedJSONDecoder().decodesDirectly([DirectItem].self, from: data))
        let error = try #require(throws: DecodingError.self) { try VettedJSONDecoder().decode([DirectItem].self, from: data) }
        #expect(error.vettedError?.code == .unexpectedCharacter)
        #expect(error.vettedError?.offset == Self.offset(of: "]]", in: syntax))

        // `count` (the first field) comes after a wrong `label`: the tape path reports `count`.
        var members = Self.base
        members.members.swapAt(0, 1)
        members.members[0].value = "7"
        members.members[1].value = #""late""#
        let (direct, lateError) = try failure("[\(members.text)]")
        #expect(direct)
        #expect("\(lateError.code) \(lateError.path)" == "typeMismatch $[0].count")

        let repeated = Self.document("count", #""x""#).replacingOccurrences(of: #""other": {}}]"#, with: #""other": {}, "count": 1}]"#)
        let (repeatedDirect, repeatedError) = try failure(repeated)
        #expect(repeatedDirect && repeatedError.code == .duplicateKey)
    }

    /// Every mode and option: the differentials compare this path with the tape path on every
    /// mutation; here, what decides. Under `.collect` the structural failure is the answer (rule
    /// violations are not reported beside structural errors, on either path); fail-fast, the
    /// violation may come first in the tape path's order, so the tape path decides.
    @Test func violationsBeforeAFailureLeaveItTheAnswer() throws {
        let json = Self.document("count", "500").replacingOccurrences(of: #""flag": true, "ratio": 1.5, "kind": "a", "kinds": ["a", "b", "a"], "level": 2, "levels": [1, 2], "note": "h\u0069", "maybe": 4}"#, with: "")
        let withBoth = json.replacingOccurrences(of: #"}, {"count": 500, "label": "abc", "flag": true"#, with: #"}, {"count": 500, "label": "abc", "flag": "yes""#)
        let (direct, error) = try failure(withBoth)
        #expect(direct)
        #expect("\(error.code) \(error.path)" == "typeMismatch $[1].flag")
        let failFast = VettedJSONDecoder()
        failFast.validationMode = .failFast
        let data = Data(withBoth.utf8)
        #expect(!failFast.decodesDirectly([DirectItem].self, from: data))
        #expect(throws: ValidationErrors.self) { try failFast.decode([DirectItem].self, from: data) }
    }
}
