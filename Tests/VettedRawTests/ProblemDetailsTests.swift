import Foundation
import Testing
import Vetted
import VettedTestSupport

/// The RFC 9457 problem both adapters answer with, read off each kind of failure.
@Suite struct ProblemDetailsTests {
    @Test func aPointerEscapesTildeAndSlashAsRFC6901Says() throws {
        let error = VettedError(code: .typeMismatch, path: [.key("a/b"), .index(3), .key("m~n"), .key("")], message: "expected a number")
        let details = try #require(ProblemDetails(error))
        #expect(details.errors.map(\.pointer) == ["/a~1b/3/m~0n/"])
        #expect(details.errors.map(\.path) == [#"$["a/b"][3]["m~n"][""]"#])
    }

    @Test(arguments: [
        (VettedError.Code.inputSizeLimitExceeded, 413, "content-too-large"),
        (.deadlineExceeded, 408, "request-timeout"),
        (.unsupportedMediaType, 415, "unsupported-media-type"),
        (.digestMismatch, 401, "signature"), (.signatureExpired, 401, "signature"), (.missingHTTPSignature, 401, "signature"),
        (.unreadableInput, 400, "input"),
        (.invalidPattern, 500, "declaration"),
    ])
    func aVettedErrorsStatusFollowsItsCode(code: VettedError.Code, status: Int, kind: String) throws {
        let details = try #require(ProblemDetails(VettedError(code: code, message: "m")))
        #expect(details.status == status && details.type == "urn:vetted:problem:\(kind)")
        #expect(details.errors.map(\.code) == [code.rawValue])
    }

    /// A rule declared wrong is the server's fault: 500, and the declaration's own message is not shown.
    @Test func aDeclarationErrorDoesNotShowItsMessage() throws {
        let details = try #require(ProblemDetails(VettedError(code: .invalidPattern, message: "pattern ( does not compile")))
        #expect(details.errors.map(\.detail) == ["a rule of the server's is declared wrong"])
    }

    @Test func rulesAre422AndOmittedErrorsAreCounted() throws {
        let errors = ValidationErrors(errors: [VettedError(code: .tooLong, path: [.key("name")], message: "too long")], omitted: 7)
        let details = try #require(ProblemDetails(errors))
        #expect(details.status == 422)
        #expect(details.errors.map { "\($0.stage) \($0.pointer) \($0.code) \($0.detail)" } == [
            "rules /name tooLong too long", "rules  moreErrors 7 more errors not listed",
        ])
    }

    /// A rule's parameters go with its code, for a client to act on and word itself.
    @Test func rulesCarryTheirParameters() throws {
        var error = VettedError(code: .tooLong, path: [.key("name")], message: "must have at most 200 characters")
        error.parameters = ["unit": .string("characters"), "minimum": .integer(1), "maximum": .integer(200)]
        let details = try #require(ProblemDetails(ValidationErrors(errors: [error])))
        #expect(details.errors.first?.parameters == error.parameters)
        #expect(
            String(decoding: details.json, as: UTF8.self)
                == #"{"type":"urn:vetted:problem:rules","title":"The body breaks the rules","status":422,"detail":"must have at most 200 characters","errors":[{"pointer":"/name","path":"$.name","code":"tooLong","stage":"rules","detail":"must have at most 200 characters","parameters":{"maximum":200,"minimum":1,"unit":"characters"}}]}"#)
        // Read back by a client; a problem without parameters reads as none.
        #expect(try JSONDecoder().decode(ProblemDetails.self, from: Data(details.json)) == details)
        let older = #"{"type":"t","title":"t","status":422,"detail":"d","errors":[{"pointer":"","path":"$","code":"c","stage":"rules","detail":"d"}]}"#
        #expect(try JSONDecoder().decode(ProblemDetails.self, from: Data(older.utf8)).errors.first?.parameters == [:])
    }

    /// Foundation's own `DecodingError` is read by its coding path; its description, which can quote the input, is not used.
    @Test func foundationsDecodingErrorIsReadWithoutItsDescription() throws {
        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }
        let error = DecodingError.typeMismatch(
            Int.self, .init(codingPath: [Key(stringValue: "id")], debugDescription: "Expected Int but found \"SECRET\""))
        let details = try #require(ProblemDetails(error))
        #expect(details.status == 400)
        #expect(details.errors.map { "\($0.stage) \($0.pointer) \($0.code)" } == ["structure /id typeMismatch"])
        #expect(!String(decoding: details.json, as: UTF8.self).contains("SECRET"))
    }

    @Test func anErrorNotVettedsIsLeftToTheFramework() {
        struct Closed: Error {}
        #expect(ProblemDetails(Closed()) == nil)
        #expect(VettedProblem(Closed()) == nil)
    }

    /// The members in RFC 9457's order, as JSON Vetted's own decoder reads back.
    @Test func theJSONReadsBack() throws {
        let details = try #require(ProblemDetails(VettedError(code: .inputSizeLimitExceeded, message: "over 10 bytes")))
        let text = String(decoding: details.json, as: UTF8.self)
        #expect(text.hasPrefix(#"{"type":"urn:vetted:problem:content-too-large","title":"The body is too large","status":413,"#))
        #expect(try VettedJSONDecoder().decode(ProblemDetails.self, from: details.json) == details)
    }

    @Test(arguments: [
        ("application/json", true, false), ("Application/JSON; charset=utf-8", true, false), ("application/problem+json", true, false),
        ("text/json", false, false), ("application/x-plist", false, true), (" application/x-plist ;x=1", false, true), ("", false, false),
    ])
    func mediaTypesAreReadByTheirEssence(contentType: String, json: Bool, plist: Bool) {
        #expect(VettedMediaType.isJSON(contentType) == json)
        #expect(VettedMediaType.isPropertyList(contentType) == plist)
    }
}
