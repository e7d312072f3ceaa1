import Testing
import VettedCore
import VettedTestSupport
import VettedJSON

/// JSONTestSuite (../shared/fixtures/JSONTestSuite/test_parsing): y_ accepted,
/// n_ rejected, and a documented decision for every i_ file.
@Suite(.enabled(if: Fixtures.jsonTestSuiteAvailable, "JSONTestSuite not found at ../shared/fixtures/JSONTestSuite; skipping"))
struct JSONTestSuiteTests {
    @Test func suiteIsComplete() {
        #expect(Fixtures.jsonTestSuiteFiles(prefix: "y_").count == 95)
        #expect(Fixtures.jsonTestSuiteFiles(prefix: "n_").count == 188)
        #expect(Set(Fixtures.jsonTestSuiteFiles(prefix: "i_")) == Set(Self.implementationDefined.keys))
    }

    /// Every y_ file is accepted, by parse and by validate-only, under the
    /// lenient duplicate-key policies.
    @Test(arguments: Fixtures.jsonTestSuiteFiles(prefix: "y_"))
    func acceptsEveryYesFile(name: String) throws {
        let bytes = try Fixtures.bytes(name)
        for policy in [JSONParser.DuplicateKeyPolicy.keepFirst, .keepLast] {
            let parser = JSONParser(options: .init(duplicateKeys: policy))
            #expect(throws: Never.self) { try parser.parse(bytes) }
            #expect(throws: Never.self) { try parser.validate(bytes) }
        }
    }

    /// With the default options every y_ file is accepted except the two with
    /// a repeated key: Vetted rejects duplicates by default (RFC 8259 says
    /// names SHOULD be unique), deliberately stricter than the suite.
    @Test(arguments: Fixtures.jsonTestSuiteFiles(prefix: "y_"))
    func defaultOptionsAcceptEveryYesFileWithoutDuplicateKeys(name: String) throws {
        let bytes = try Fixtures.bytes(name)
        switch name {
        case "y_object_duplicated_key.json", "y_object_duplicated_key_and_value.json":
            expectFailure(bytes, .duplicateKey, at: 9, path: [.key("a")])
        default:
            #expect(throws: Never.self) { try JSONParser().parse(bytes) }
        }
    }

    @Test(arguments: Fixtures.jsonTestSuiteFiles(prefix: "n_"))
    func rejectsEveryNoFile(name: String) throws {
        let bytes = try Fixtures.bytes(name)
        let lenient = JSONParser(
            options: .init(duplicateKeys: .keepLast, allowInvalidUTF8: true, allowLoneSurrogates: true))
        for parser in [JSONParser(), lenient] {
            let parseError = thrownError { () throws(VettedError) in _ = try parser.parse(bytes) }
            let validateError = thrownError { () throws(VettedError) in try parser.validate(bytes) }
            #expect(parseError != nil)
            #expect(parseError == validateError)
            if let offset = parseError?.offset { #expect((0...bytes.count).contains(offset)) }
        }
    }

    /// The decision for each i_ file: `nil` accepted by default, else the code
    /// it is rejected with, and whether an option accepts it.
    static let implementationDefined: [String: (code: VettedError.Code?, relaxedBy: JSONParser.Options?)] = {
        let numbers = [
            "i_number_double_huge_neg_exp.json", "i_number_huge_exp.json", "i_number_neg_int_huge_exp.json",
            "i_number_pos_double_huge_exp.json", "i_number_real_neg_overflow.json", "i_number_real_pos_overflow.json",
            "i_number_real_underflow.json", "i_number_too_big_neg_int.json", "i_number_too_big_pos_int.json",
            "i_number_very_big_negative_int.json",
        ]
        let surrogates = [
            "i_object_key_lone_2nd_surrogate.json", "i_string_1st_surrogate_but_2nd_missing.json",
            "i_string_1st_valid_surrogate_2nd_invalid.json", "i_string_incomplete_surrogate_and_escape_valid.json",
            "i_string_incomplete_surrogate_pair.json", "i_string_incomplete_surrogates_escape_valid.json",
            "i_string_invalid_lonely_surrogate.json", "i_string_invalid_surrogate.json",
            "i_string_inverted_surrogates_U+1D11E.json", "i_string_lone_second_surrogate.json",
        ]
        let badUTF8 = [
            "i_string_UTF-8_invalid_sequence.json", "i_string_UTF8_surrogate_U+D800.json", "i_string_invalid_utf-8.json",
            "i_string_iso_latin_1.json", "i_string_lone_utf8_continuation_byte.json", "i_string_not_in_unicode_range.json",
            "i_string_overlong_sequence_2_bytes.json", "i_string_overlong_sequence_6_bytes.json",
            "i_string_overlong_sequence_6_bytes_null.json", "i_string_truncated-utf-8.json",
        ]
        var table: [String: (code: VettedError.Code?, relaxedBy: JSONParser.Options?)] = [:]
        for name in numbers { table[name] = (nil, nil) }
        for name in surrogates { table[name] = (.loneSurrogate, JSONParser.Options(allowLoneSurrogates: true)) }
        for name in badUTF8 { table[name] = (.invalidUTF8, JSONParser.Options(allowInvalidUTF8: true)) }
        for name in ["i_string_UTF-16LE_with_BOM.json", "i_string_utf16BE_no_BOM.json", "i_string_utf16LE_no_BOM.json"] {
            table[name] = (.unsupportedEncoding, nil)
        }
        table["i_structure_500_nested_arrays.json"] = (nil, nil)
        table["i_structure_UTF-8_BOM_empty_object.json"] = (.byteOrderMark, JSONParser.Options(allowByteOrderMark: true))
        return table
    }()

    @Test(arguments: Fixtures.jsonTestSuiteFiles(prefix: "i_"))
    func implementationDefinedFilesFollowTheDocumentedDecision(name: String) throws {
        let bytes = try Fixtures.bytes(name)
        guard let decision = Self.implementationDefined[name] else {
            Issue.record("no documented decision for \(name)")
            return
        }
        if let code = decision.code {
            let error = thrownError { () throws(VettedError) in _ = try JSONParser().parse(bytes) }
            #expect(error?.code == code)
            if let relaxedBy = decision.relaxedBy {
                #expect(throws: Never.self) { try JSONParser(options: relaxedBy).parse(bytes) }
            } else {
                // No option makes non-UTF-8 input acceptable.
                let everything = JSONParser.Options(
                    allowByteOrderMark: true, allowInvalidUTF8: true, allowLoneSurrogates: true)
                #expect(throws: VettedError.self) { try JSONParser(options: everything).parse(bytes) }
            }
        } else {
            #expect(throws: Never.self) { try JSONParser().parse(bytes) }
        }
    }

    /// Huge numbers are kept as literals; converting them reports the range problem.
    @Test func hugeNumbersKeepTheirLiteralAndConvertCheckingRange() throws {
        let big = try JSONParser().parse(try Fixtures.bytes("i_number_too_big_pos_int.json"))
        let number = try #require(big[0]?.numberValue)
        #expect(number.literal == "100000000000000000000")
        #expect(throws: VettedError(code: .numberOutOfRange)) { try number.int64Value }
        #expect(try number.doubleValue == 1e20)
        let huge = try #require(try JSONParser().parse(try Fixtures.bytes("i_number_real_pos_overflow.json"))[0]?.numberValue)
        #expect(throws: VettedError(code: .numberOutOfRange)) { try huge.doubleValue }
        let tiny = try #require(try JSONParser().parse(try Fixtures.bytes("i_number_real_underflow.json"))[0]?.numberValue)
        #expect(try tiny.doubleValue == 0)
    }
}
