import Testing
import VettedCore
import VettedTestSupport
import VettedJSON

/// Every error code the parser produces, with its exact offset and path.
@Suite struct ErrorCodeTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let input: [UInt8]
        let code: VettedError.Code
        let offset: Int
        let path: DocumentPath
        var limits = Limits()

        init(_ input: String, _ code: VettedError.Code, _ offset: Int, _ path: DocumentPath = [], limits: Limits = Limits()) {
            self.init(bytes: Array(input.utf8), code, offset, path, limits: limits)
        }

        init(bytes: [UInt8], _ code: VettedError.Code, _ offset: Int, _ path: DocumentPath = [], limits: Limits = Limits()) {
            self.input = bytes
            self.code = code
            self.offset = offset
            self.path = path
            self.limits = limits
        }

        var testDescription: String { "\(code) in \(Excerpt.escape(String(decoding: input, as: UTF8.self)))" }
    }

    static let cases: [Case] = [
        Case("[1,2,3]", .inputSizeLimitExceeded, 3, limits: Limits(maxInputBytes: 3)),
        Case("[[[1]]]", .depthLimitExceeded, 2, [.index(0), .index(0)], limits: Limits(maxDepth: 2)),
        Case("{\"a\":{}}", .depthLimitExceeded, 5, [.key("a")], limits: Limits(maxDepth: 1)),
        Case("[\"abcdef\"]", .stringLengthLimitExceeded, 1, [.index(0)], limits: Limits(maxStringBytes: 5)),
        Case("{\"abcdef\":1}", .stringLengthLimitExceeded, 1, limits: Limits(maxStringBytes: 5)),
        Case("[1,2,3]", .memberLimitExceeded, 5, [.index(2)], limits: Limits(maxMembers: 2)),
        Case("{\"a\":1,\"b\":2}", .memberLimitExceeded, 7, limits: Limits(maxMembers: 1)),
        Case("[1,2]", .valueLimitExceeded, 3, [.index(1)], limits: Limits(maxValues: 2)),
        Case("[12345]", .numberLengthLimitExceeded, 1, [.index(0)], limits: Limits(maxNumberLength: 4)),
        Case(bytes: [0x5B, 0x22, 0x61, 0xFF, 0x22, 0x5D], .invalidUTF8, 3, [.index(0)]),
        Case(bytes: [0x5B, 0x22, 0xED, 0xA0, 0x80, 0x22, 0x5D], .invalidUTF8, 2, [.index(0)]),
        Case(bytes: [0xFF, 0xFE, 0x5B, 0x00, 0x5D, 0x00], .unsupportedEncoding, 0),
        Case(bytes: [0x00, 0x5B, 0x00, 0x5D], .unsupportedEncoding, 0),
        Case(bytes: [0xEF, 0xBB, 0xBF, 0x7B, 0x7D], .byteOrderMark, 0),
        Case("", .unexpectedEndOfInput, 0),
        Case("  \n", .unexpectedEndOfInput, 3),
        Case("[1,*]", .unexpectedCharacter, 3, [.index(1)]),
        Case("['a']", .unexpectedCharacter, 1, [.index(0)]),
        Case("[1}", .unexpectedCharacter, 2, [.index(0)]),
        Case("[1] 2", .trailingData, 4),
        Case("{}}", .trailingData, 2),
        Case("[1,2,]", .trailingComma, 4, [.index(1)]),
        Case("{\"a\":1,}", .trailingComma, 6, [.key("a")]),
        Case("[1 2]", .missingComma, 3, [.index(0)]),
        Case("{\"a\":1 \"b\":2}", .missingComma, 7, [.key("a")]),
        Case("{\"a\" 1}", .missingColon, 5, [.key("a")]),
        Case("{1:2}", .expectedKey, 1),
        Case("{'a':1}", .expectedKey, 1),
        Case("[1,//x\n2]", .commentNotAllowed, 3, [.index(1)]),
        Case("{/*x*/}", .commentNotAllowed, 1),
        Case("[tru]", .invalidLiteral, 1, [.index(0)]),
        Case("NaN", .invalidLiteral, 0),
        Case("[-Infinity]", .invalidLiteral, 2, [.index(0)]),
        Case("[01]", .leadingZero, 1, [.index(0)]),
        Case("-012", .leadingZero, 1),
        Case("[1.]", .invalidNumber, 3, [.index(0)]),
        Case("-", .invalidNumber, 1),
        Case("[1e]", .invalidNumber, 3, [.index(0)]),
        Case("[1.e1]", .invalidNumber, 3, [.index(0)]),
        Case("[\"abc", .unterminatedString, 1, [.index(0)]),
        Case("[\"abc\\", .unterminatedString, 5, [.index(0)]),
        Case("[1,2", .unterminatedArray, 0, [.index(1)]),
        Case("{\"a\":1", .unterminatedObject, 0, [.key("a")]),
        Case("{\"a\":", .unterminatedObject, 0, [.key("a")]),
        Case("[\"a\tb\"]", .controlCharacterInString, 3, [.index(0)]),
        Case("[\"\\x\"]", .invalidEscape, 2, [.index(0)]),
        Case("[\"\\u12G4\"]", .invalidUnicodeEscape, 2, [.index(0)]),
        Case("[\"\\uD800\"]", .loneSurrogate, 2, [.index(0)]),
        Case("[\"\\uDC00\"]", .loneSurrogate, 2, [.index(0)]),
        Case("[\"ab\\uD800\\u0041\"]", .loneSurrogate, 4, [.index(0)]),
        Case("{\"a\":1,\"a\":2}", .duplicateKey, 7, [.key("a")]),
        Case("[{},{\"x\":[{\"k\":1,\"\\u006b\":2}]}]", .duplicateKey, 17, [.index(1), .key("x"), .index(0), .key("k")]),
    ]

    @Test(arguments: cases)
    func reportsTheExactCodeOffsetAndPath(_ testCase: Case) {
        expectFailure(testCase.input, testCase.code, at: testCase.offset, path: testCase.path, parser: JSONParser(limits: testCase.limits))
    }

    @Test func duplicateKeyErrorNamesTheKeyAndBothOffsets() throws {
        let error = try #require(thrownError { () throws(VettedError) in _ = try JSONParser().parse("{\"id\":1,\n\"id\":2}") })
        #expect(error.relatedOffset == 1)
        #expect(error.message.contains("\"id\""))
        #expect(error.message.contains("offset 1"))
        #expect(error.message.contains("offset 9"))
        #expect(error.location == LineColumn(line: 2, column: 1))
    }

    @Test func messagesNeverCarryMoreThanAnEscapedExcerpt() throws {
        let payload = "\u{1B}[2J" + String(repeating: "A", count: 500) + "\u{202E}"
        let error = try #require(thrownError { () throws(VettedError) in _ = try JSONParser().parse("[1 \"\(payload)\"]") })
        #expect(error.code == .missingComma)
        #expect(error.offset == 3)
        #expect(!error.message.contains("AAAA"))
        let excerpt = try #require(error.excerpt)
        #expect(excerpt.text.utf8.count <= Excerpt.maximumBytes)
        #expect(!excerpt.text.unicodeScalars.contains { $0.value < 0x20 || $0 == "\u{202E}" })
    }

    @Test func escapedStringsAreMeasuredAfterUnescaping() throws {
        let parser = JSONParser(limits: Limits(maxStringBytes: 2))
        #expect(try parser.parse("[\"\\u0041\\u0042\"]") == ["AB"])
        expectFailure("[\"\\u0041\\u0042\\u0043\"]", .stringLengthLimitExceeded, at: 1, path: [.index(0)], parser: parser)
    }
}
