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
        #expect(details.errors.map(\.code) == (status == 500 ? [] : [code.rawValue]))
    }

    /// A rule declared wrong is the server's fault: 500, a generic problem that names nothing
    /// of the server's types (before: an entry with `"pointer":"/CaseG2/code"` and the code).
    @Test func aDeclarationErrorShowsNothingOfTheDeclaration() throws {
        let error = VettedError(code: .unionKeyIsPayloadField, path: [.key("CaseG2"), .key("code")], message: "the tag key \"code\" is also a field")
        let details = try #require(ProblemDetails(error))
        #expect(details.status == 500 && details.title == "Internal server error" && details.errors == [])
        let text = String(decoding: details.json, as: UTF8.self)
        #expect(text == #"{"type":"urn:vetted:problem:declaration","title":"Internal server error","status":500,"detail":"The server could not handle this request; the fault is the server's, not the body's.","errors":[]}"#)
        #expect(!text.contains("CaseG2") && !text.contains("code\""))
    }

    /// Keys come from the input: in a pointer and a path they are escaped and capped as an
    /// excerpt is (before: a 1,500-character key gave a 1,501-character pointer, ESC came back raw).
    @Test func pointersAndPathsEscapeAndCapTheInputsKeys() throws {
        let escape = VettedError(code: .duplicateKey, path: [.key("\u{1B}[2Jk")], message: "m")
        let escaped = try #require(ProblemDetails(escape)).errors[0]
        #expect(escaped.pointer == #"/\u{1B}[2Jk"#)
        #expect(escaped.path == #"$["\u{1B}[2Jk"]"#)
        let long = VettedError(code: .duplicateKey, path: [.key(String(repeating: "k", count: 1_500))], message: "m")
        let capped = try #require(ProblemDetails(long)).errors[0]
        #expect(capped.pointer == "/" + String(repeating: "k", count: 37) + "…")
        #expect(capped.path == #"$[""# + String(repeating: "k", count: 37) + #"…"]"#)
        // A deep path keeps its first and last steps: at most 200 bytes.
        let deep = VettedError(code: .depthLimitExceeded, path: DocumentPath(Array(repeating: .index(0), count: 600) + [.key("name")]), message: "m")
        let entry = try #require(ProblemDetails(deep)).errors[0]
        #expect(entry.path.utf8.count <= 200 && entry.path.hasPrefix("$[0][0]") && entry.path.hasSuffix("[0].name") && entry.path.contains("…"))
        #expect(entry.pointer.utf8.count <= 200 && entry.pointer.hasPrefix("/0/0/") && entry.pointer.hasSuffix("/0/name"))
        // Many long bidi keys: bounded however many the input holds.
        let bidi = VettedError(code: .typeMismatch, path: DocumentPath(Array(repeating: .key(String(repeating: "\u{202E}", count: 100)), count: 100)), message: "m")
        let bounded = try #require(ProblemDetails(bidi)).errors[0]
        #expect(bounded.pointer.utf8.count <= 200 && bounded.path.utf8.count <= 200 && !bounded.pointer.contains("\u{202E}"))
    }

    @Test func rulesAre422AndOmittedErrorsAreCounted() throws {
        let errors = ValidationErrors(errors: [VettedError(code: .tooLong, path: [.key("name")], message: "too long")], omitted: 7)
        let details = try #require(ProblemDetails(errors))
        #expect(details.status == 422)
        #expect(details.errors.map { "\($0.stage) \($0.pointer) \($0.code) \($0.detail)" } == [
            "rules /name tooLong too long", "rules  moreErrors 7 more errors not listed",
        ])
    }

    /// Structural errors collected under `.collect` are one entry each; those past the cap are
    /// counted, as violations are (before: only the first was listed).
    @Test func structuralErrorsAreOneEntryEachAndOmittedOnesAreCounted() throws {
        let decoder = VettedJSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        decoder.validationMode = .collect(upTo: 2)
        let error = try #require(throws: DecodingError.self) { try decoder.decode(Listing.self, from: Array(AdapterFixtures.fourDefects.utf8)) }
        let details = try #require(ProblemDetails(error))
        #expect(details.status == 422 && details.type == "urn:vetted:problem:structure")
        #expect(details.errors.map { "\($0.stage) \($0.pointer) \($0.code) \($0.detail)" } == [
            #"structure /id typeMismatch "id": expected an integer (line 1, column 7)"#,
            #"structure /price keyNotFound the required field "price" is missing (line 1, column 1)"#,
            "structure  moreErrors 2 more errors not listed",
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
        #expect(details.status == 422)
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
        ("\tAPPLICATION/VND.API+JSON \t; q=1", true, false), (" ; ", false, false), ("\u{0B}application/json", false, false),
        ("application/json\u{00A0}", true, false), ("Application/X-Plist\u{2009};", false, true), ("application/jsonx", false, false),
    ])
    func mediaTypesAreReadByTheirEssence(contentType: String, json: Bool, plist: Bool) {
        #expect(VettedMediaType.isJSON(contentType) == json)
        #expect(VettedMediaType.isPropertyList(contentType) == plist)
    }

    /// `json` is written straight into bytes; it must be the text the value-tree writer gives, byte for byte.
    @Test func theProblemsBytesAreWhatTheJSONWriterWrites() {
        let odd = "q\"b\\n\nt\té\u{202E}\u{1F600}\u{7F}\u{2028}"
        let parameters: [String: RuleParameter] = [
            "minimum": .integer(-3), "ratio": .number(0.1), "infinite": .number(.infinity), "pattern": .string(odd),
            "strict": .bool(true), "allowed": .list([.string("a"), .integer(2), .bool(false), .list([])]), odd: .string(""),
        ]
        let problems = [
            ProblemDetails(type: "urn:vetted:problem:rules", title: "t", status: 422, detail: odd, errors: []),
            ProblemDetails(
                type: "urn:vetted:problem:rules", title: "The request breaks its contract", status: 422, detail: "2 errors",
                errors: [
                    ProblemDetails.Entry(pointer: "/a~1b", path: "$.a", code: "minimum", stage: "rules", detail: "below", parameters: parameters),
                    ProblemDetails.Entry(pointer: "", path: "$", code: odd, stage: "syntax", detail: odd),
                ]),
        ]
        for problem in problems {
            #expect(problem.json == Self.jsonByValue(problem), "\(String(decoding: problem.json, as: UTF8.self))")
        }
    }

    /// The problem as `JSONWriter` writes it from a `JSONValue` tree: what `json` must equal.
    static func jsonByValue(_ problem: ProblemDetails) -> [UInt8] {
        func object(_ members: [(String, JSONValue)]) -> JSONValue {
            .object(JSONObject(members.map { JSONObject.Member(key: $0.0, value: $0.1) }))
        }
        let errors = problem.errors.map { entry in
            object([
                ("pointer", .string(entry.pointer)), ("path", .string(entry.path)), ("code", .string(entry.code)),
                ("stage", .string(entry.stage)), ("detail", .string(entry.detail)), ("parameters", JSONValue(entry.parameters)),
            ])
        }
        return JSONWriter().bytes(
            object([
                ("type", .string(problem.type)), ("title", .string(problem.title)), ("status", .number(JSONNumber(problem.status))),
                ("detail", .string(problem.detail)), ("errors", .array(errors)),
            ]))
    }
}
