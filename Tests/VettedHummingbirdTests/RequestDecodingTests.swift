#if Hummingbird  // the trait that brings in the framework (Package.swift)
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing
public import VettedHummingbird
import VettedTestSupport

/// The test server's context: the talk's rules for JSON and property lists, a 4 KiB cap, a 1 s body deadline.
struct ListingsContext: VettedRequestContext {
    var coreContext: CoreRequestContextStorage
    init(source: ApplicationRequestContextSource) { coreContext = .init(source: source) }

    var requestDecoder: VettedJSONDecoder { Self.decoder }
    var responseEncoder: VettedResponseEncoder { Self.encoder }
    var maxUploadSize: Int { 4_096 }
    var bodyTimeout: Duration { .seconds(1) }

    static let decoder: VettedJSONDecoder = {
        let decoder = VettedJSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()
    static let plistDecoder: VettedPropertyListDecoder = VettedPropertyListDecoder()
    static let encoder = VettedResponseEncoder()
}

extension Listing: ResponseEncodable {}

/// Routes that decode a listing and send it back; `GET /broken` sends one that breaks its own rules.
func listingsRouter() -> Router<ListingsContext> {
    let router = Router(context: ListingsContext.self)
    router.post("listings") { request, context -> Listing in
        try await request.decode(as: Listing.self, context: context)
    }
    router.post("plist") { request, context -> Listing in
        try await ListingsContext.plistDecoder.decode(Listing.self, from: request, context: context)
    }
    router.post("events") { request, context -> HTTPResponse.Status in
        _ = try await request.decode(as: ListingEvent.self, context: context)
        return .ok
    }
    router.get("broken") { _, _ -> Listing in
        var listing = try ListingsContext.decoder.decode(Listing.self, from: Array(AdapterFixtures.valid.utf8))
        listing.tags = []
        return listing
    }
    return router
}

func problem(_ response: TestResponse) throws -> ProblemDetails {
    #expect(response.headers[.contentType] == "application/problem+json")
    return try VettedJSONDecoder().decode(ProblemDetails.self, from: Array(response.body.readableBytesView))
}

func entries(_ problem: ProblemDetails) -> [String] {
    problem.errors.map { "\($0.stage) \($0.pointer) \($0.path) \($0.code)" }
}

@Suite struct HummingbirdRequestDecodingTests {
    let json: HTTPFields = [.contentType: "application/json"]

    @Test func aValidBodyDecodesAndIsSentBack() async throws {
        try await Application(router: listingsRouter()).test(.router) { client in
            try await client.execute(uri: "/listings", method: .post, headers: json, body: ByteBuffer(string: AdapterFixtures.valid)) { response in
                #expect(response.status == .ok)
                let listing = try ListingsContext.decoder.decode(Listing.self, from: Array(response.body.readableBytesView))
                #expect(listing.id == 1 && listing.tags == [.electric])
            }
        }
    }

    @Test func eachStageAnswersItsStatusAndProblem() async throws {
        let cases: [(String, HTTPFields, HTTPResponse.Status, String, [String])] = [
            (AdapterFixtures.breaksRules, json, .unprocessableContent, "urn:vetted:problem:rules",
             ["rules /price $.price patternMismatch", "rules /tags $.tags empty"]),
            (AdapterFixtures.malformed, json, .badRequest, "urn:vetted:problem:syntax", ["syntax  $ unterminatedObject"]),
            (AdapterFixtures.wrongShape, json, .unprocessableContent, "urn:vetted:problem:structure", ["structure /id $.id typeMismatch"]),
            (AdapterFixtures.duplicateKey, json, .badRequest, "urn:vetted:problem:syntax", ["syntax /id $.id duplicateKey"]),
            (AdapterFixtures.valid, [.contentType: "text/plain"], .unsupportedMediaType, "urn:vetted:problem:unsupported-media-type",
             ["input  $ unsupportedMediaType"]),
            (AdapterFixtures.valid, [:], .unsupportedMediaType, "urn:vetted:problem:unsupported-media-type", ["input  $ unsupportedMediaType"]),
            (String(repeating: " ", count: 4_097), json, .contentTooLarge, "urn:vetted:problem:content-too-large",
             ["input  $ inputSizeLimitExceeded"]),
        ]
        try await Application(router: listingsRouter()).test(.router) { client in
            for (body, headers, status, type, expected) in cases {
                try await client.execute(uri: "/listings", method: .post, headers: headers, body: ByteBuffer(string: body)) { response in
                    #expect(response.status == status, "\(type)")
                    let details = try problem(response)
                    #expect(details.status == Int(status.code) && details.type == type)
                    #expect(entries(details) == expected, "\(type)")
                }
            }
        }
    }

    /// Well-formed JSON that does not fit the model is 422, as FastAPI answers it (before: 400,
    /// and tag errors were filed as syntax), with messages in the document's terms (before:
    /// `expected Dictionary<String, Any>`, `No value associated with key CodingKeys(…)`).
    @Test func aBodyOfTheWrongShapeIs422InTheDocumentsTerms() async throws {
        let valid = AdapterFixtures.valid
        let cases: [(uri: String, body: String, entry: String, detail: String)] = [
            ("/listings", valid.replacingOccurrences(of: #""price":"10.50","#, with: ""),
             "structure /price $.price keyNotFound", #"the required field "price" is missing (line 1, column 1)"#),
            ("/listings", valid.replacingOccurrences(of: #""sold":false"#, with: #""sold":null"#),
             "structure /sold $.sold typeMismatch", #""sold": expected true or false (line 1, column 74)"#),
            ("/listings", valid.replacingOccurrences(of: #""tags":["electric"]"#, with: #""tags":{"a":1}"#),
             "structure /tags $.tags typeMismatch", #""tags": expected an array (line 1, column 117)"#),
            ("/listings", "[1]", "structure  $ typeMismatch", "expected an object (line 1, column 1)"),
            ("/listings", valid.replacingOccurrences(of: "2018-05-01T10:39:04Z", with: "yesterday"),
             "structure /created $.created invalidValue", ""),
            ("/events", #"{"type":"nope","id":1}"#, "structure /type $.type unknownTag", ""),
            ("/events", #"{"id":1}"#, "structure  $ missingTag", ""),
        ]
        try await Application(router: listingsRouter()).test(.router) { client in
            for (uri, body, entry, detail) in cases {
                try await client.execute(uri: uri, method: .post, headers: json, body: ByteBuffer(string: body)) { response in
                    #expect(response.status == .unprocessableContent, "\(entry)")
                    let details = try problem(response)
                    #expect(details.type == "urn:vetted:problem:structure" && details.status == 422, "\(entry)")
                    #expect(entries(details) == [entry])
                    let shown = details.errors.first?.detail ?? ""
                    if !detail.isEmpty { #expect(shown == detail) }
                    #expect(!shown.contains("CodingKeys") && !shown.contains("Dictionary<") && !shown.contains("Swift."), "\(shown)")
                }
            }
            // Bytes that are not JSON stay 400.
            try await client.execute(uri: "/listings", method: .post, headers: json, body: ByteBuffer(string: "{\"id\":")) { response in
                #expect(response.status == .badRequest)
            }
        }
    }

    /// A body of the wrong shape in four places is one 422 with one entry per error, as FastAPI
    /// answers (before: only the first, `$.id`).
    @Test func eachStructuralDefectIsOneEntry() async throws {
        try await Application(router: listingsRouter()).test(.router) { client in
            try await client.execute(uri: "/listings", method: .post, headers: json, body: ByteBuffer(string: AdapterFixtures.fourDefects)) {
                response in
                #expect(response.status == .unprocessableContent)
                let details = try problem(response)
                #expect(details.type == "urn:vetted:problem:structure" && details.status == 422)
                #expect(entries(details) == AdapterFixtures.fourDefectsEntries)
                #expect(details.errors.map(\.detail) == [
                    #""id": expected an integer (line 1, column 7)"#, #"the required field "price" is missing (line 1, column 1)"#,
                    #""sold": expected true or false (line 1, column 60)"#, #""url": expected a string (line 1, column 71)"#,
                ])
            }
        }
    }

    /// The input reaches a problem only as Vetted's escaped, capped excerpt: a
    /// long string with a terminal escape in a field that must be a number is not echoed.
    @Test func theBodyIsNeverEchoed() async throws {
        let hostile = "\u{1B}[31m" + String(repeating: "A", count: 2_000)
        let body = AdapterFixtures.valid.replacingOccurrences(of: #""id":1"#, with: #""id":""# + hostile + #"""#)
        try await Application(router: listingsRouter()).test(.router) { client in
            try await client.execute(uri: "/listings", method: .post, headers: json, body: ByteBuffer(string: body)) { response in
                #expect(response.status == .badRequest)  // a raw control character in a string: not JSON
                let text = String(decoding: response.body.readableBytesView, as: UTF8.self)
                #expect(!text.contains("\u{1B}") && !text.contains(String(repeating: "A", count: 100)))
                #expect(text.utf8.count < 1_000)
            }
        }
    }

    @Test func propertyListsDecodeWithTheirOwnMediaType() async throws {
        let listing = try ListingsContext.decoder.decode(Listing.self, from: Array(AdapterFixtures.valid.utf8))
        let plist = try PropertyListEncoder().encode(listing)
        try await Application(router: listingsRouter()).test(.router) { client in
            try await client.execute(
                uri: "/plist", method: .post, headers: [.contentType: "application/x-plist"], body: ByteBuffer(bytes: plist)
            ) { response in
                #expect(response.status == .ok)
            }
            try await client.execute(uri: "/plist", method: .post, headers: json, body: ByteBuffer(bytes: plist)) { response in
                #expect(response.status == .unsupportedMediaType)
                let details = try problem(response)
                #expect(entries(details) == ["input  $ unsupportedMediaType"])
            }
        }
    }

    /// The server will not send a listing its own rules refuse: a 500 problem naming the rule instead.
    @Test func aResponseThatBreaksTheServersRulesIsNotSent() async throws {
        try await Application(router: listingsRouter()).test(.router) { client in
            try await client.execute(uri: "/broken", method: .get) { response in
                #expect(response.status == .internalServerError)
                let details = try problem(response)
                #expect(details.type == "urn:vetted:problem:response")
                #expect(entries(details) == ["rules /tags $.tags empty"])
            }
        }
    }

    /// One decoder, one hundred requests at once, valid and not, each answered as alone.
    @Test func concurrentRequestsShareOneDecoder() async throws {
        try await Application(router: listingsRouter()).test(.router) { client in
            try await withThrowingTaskGroup(of: Bool.self) { group in
                for index in 0..<100 {
                    let body = index.isMultiple(of: 2) ? AdapterFixtures.valid : AdapterFixtures.breaksRules
                    group.addTask {
                        try await client.execute(uri: "/listings", method: .post, headers: json, body: ByteBuffer(string: body)) { response in
                            response.status == (index.isMultiple(of: 2) ? .ok : .unprocessableContent)
                        }
                    }
                }
                for try await answered in group { #expect(answered) }
            }
        }
    }
}

/// Against a real server on loopback, with a client that misbehaves (scripts/interop/raw_http.py).
@Suite(.enabled(if: RawClient.available, "needs python3 to drive the misbehaving client"))
struct HummingbirdLiveBodyTests {
    /// A chunked body one byte over the cap is refused at that chunk: the answer comes
    /// while the body is still open (the client never finishes it).
    @Test func aBodyOneByteOverTheCapIsRefusedWithoutReadingTheRest() async throws {
        try await Application(router: listingsRouter()).test(.live) { client in
            let port = try #require(client.port)
            let answer = try await RawClient.post(port: port, path: "/listings", ["over", "4097"])
            #expect(answer.status == 413, "\(answer)")
            #expect(answer.body.contains(#""code":"inputSizeLimitExceeded""#))
        }
    }

    @Test func aDeclaredLengthOverTheCapIsRefusedBeforeReading() async throws {
        try await Application(router: listingsRouter()).test(.live) { client in
            let port = try #require(client.port)
            let answer = try await RawClient.post(port: port, path: "/listings", ["declared", "1000000"])
            #expect(answer.status == 413)
        }
    }

    /// Issue 46 item 10: after its 413, a sender that goes on trickling the refused body
    /// held the connection (Hummingbird reads the rest of the body to reach the next request,
    /// and each byte put off the idle timeout): 1,030 such senders shut junk-server out. The
    /// refusal says `Connection: close`, and with ``VettedConnectionCloser`` in the channel
    /// the connection ends once the answer is written. Without it, the connection stays open.
    @Test func aRefusedBodysConnectionIsClosedAfterTheAnswer() async throws {
        let closing = Application(
            router: listingsRouter(), server: .http1(configuration: .init(additionalChannelHandlers: [VettedConnectionCloser()])))
        try await closing.test(.live) { client in
            let port = try #require(client.port)
            let answer = try await RawClient.post(port: port, path: "/listings", ["held", "1000000"])
            #expect(answer.status == 413, "\(answer)")
            #expect(answer.body.hasSuffix("\nconnection closed\n"), "\(answer)")
        }
        try await Application(router: listingsRouter()).test(.live) { client in
            let port = try #require(client.port)
            let answer = try await RawClient.post(port: port, path: "/listings", ["held", "1000000"])
            #expect(answer.status == 413, "\(answer)")
            #expect(answer.body.hasSuffix("\nconnection open\n"), "\(answer)")
        }
    }

    /// A byte every 200 ms: cut off at the context's 1 s deadline with 408.
    @Test func aTrickledBodyIsCutAtTheDeadline() async throws {
        try await Application(router: listingsRouter()).test(.live) { client in
            let port = try #require(client.port)
            let answer = try await RawClient.post(port: port, path: "/listings", ["trickle", "50", "0.2"])
            #expect(answer.status == 408)
            #expect(answer.body.contains(#""code":"deadlineExceeded""#))
        }
    }
}
#endif
