#if Vapor  // the trait that brings in the framework (Package.swift)
import Foundation
import NIOCore
import NIOHTTP1
import Testing
public import VettedVapor
import VaporTesting
import VettedTestSupport

extension Listing: Content {}

/// A body Vapor's own validation reads (`Validatable.validate(content:)`) before it is decoded.
struct Rename: Content, Vapor.Validatable {  // Vetted has a `Validatable` too
    var name: String
    static func validations(_ validations: inout Vapor.Validations) {
        validations.add("name", as: String.self, is: .count(1...20))
    }
}

enum VaporFixture {
    static let decoder: VettedJSONDecoder = {
        let decoder = VettedJSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()

    /// Vapor's content configuration is process-wide: each test sets it (they run one at a time, see ``VaporTests``).
    static func useVettedCoders() {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        ContentConfiguration.global.useVetted(
            json: decoder, propertyList: VettedPropertyListDecoder(), encoder: VettedContentEncoder(encoder: encoder, checker: decoder))
    }

    /// An application with Vetted's problems, a 4 KiB body cap with a 1 s deadline, and the test routes.
    static func configure(_ app: Application) async throws {
        useVettedCoders()
        app.middleware.use(VettedProblemMiddleware())
        app.middleware.use(VettedBodyMiddleware(maxBytes: 4_096, timeout: .seconds(1)))
        app.routes.defaultMaxBodySize = "1mb"
        app.post("listings") { request async throws -> Listing in
            try request.content.decode(Listing.self)
        }
        app.post("rename") { request async throws -> String in
            try Rename.validate(content: request)
            return try request.content.decode(Rename.self).name
        }
        // `get(at:)` decodes with `userInfo`: the path Vapor's JSONDecoder conformance takes a fresh decoder on.
        app.post("name") { request async throws -> String in
            try request.content.get(String.self, at: "name")
        }
        app.get("broken") { _ async throws -> Listing in
            var listing = try decoder.decode(Listing.self, from: Array(AdapterFixtures.valid.utf8))
            listing.tags = []
            return listing
        }
    }
}

func problem(_ response: TestingHTTPResponse) throws -> ProblemDetails {
    #expect(response.headers.first(name: .contentType) == "application/problem+json")
    return try VettedJSONDecoder().decode(ProblemDetails.self, from: Array(response.body.readableBytesView))
}

func entries(_ problem: ProblemDetails) -> [String] {
    problem.errors.map { "\($0.stage) \($0.pointer) \($0.path) \($0.code)" }
}

/// A Vapor server set up by `configure`, listening on a free loopback port for the duration of `body`.
func withLiveVaporServer(
    configure: @escaping (Application) async throws -> Void, idleTimeout: TimeAmount? = nil, _ body: (Int) async throws -> Void
) async throws {
    try await withApp(configure: configure) { app in
        app.http.server.configuration.hostname = "127.0.0.1"
        app.http.server.configuration.port = 0
        app.http.server.configuration.idleTimeout = idleTimeout
        try await app.server.start(address: .hostname("127.0.0.1", port: 0))
        let port = try #require(app.http.server.shared.localAddress?.port)
        do {
            try await body(port)
        } catch {
            await app.server.shutdown()
            throw error
        }
        await app.server.shutdown()
    }
}

/// Every Vapor suite, one test at a time: Vapor's content configuration is one for the process.
@Suite(.serialized) struct VaporTests {}

extension VaporTests {
@Suite struct VaporContentDecodingTests {
    let json: HTTPHeaders = ["Content-Type": "application/json"]

    @Test func aValidBodyDecodesAndIsSentBack() async throws {
        try await withApp(configure: VaporFixture.configure) { app in
            try await app.testing().test(.POST, "listings", headers: json, body: ByteBuffer(string: AdapterFixtures.valid)) { response in
                #expect(response.status == .ok)
                let listing = try VaporFixture.decoder.decode(Listing.self, from: Array(response.body.readableBytesView))
                #expect(listing.id == 1 && listing.tags == [.electric])
            }
        }
    }

    @Test func eachStageAnswersItsStatusAndProblem() async throws {
        let cases: [(String, HTTPHeaders, HTTPResponseStatus, String, [String])] = [
            (AdapterFixtures.breaksRules, json, .unprocessableEntity, "urn:vetted:problem:rules",
             ["rules /price $.price patternMismatch", "rules /tags $.tags empty"]),
            (AdapterFixtures.malformed, json, .badRequest, "urn:vetted:problem:syntax", ["syntax  $ unterminatedObject"]),
            (AdapterFixtures.wrongShape, json, .unprocessableEntity, "urn:vetted:problem:structure", ["structure /id $.id typeMismatch"]),
            (AdapterFixtures.duplicateKey, json, .badRequest, "urn:vetted:problem:syntax", ["syntax /id $.id duplicateKey"]),
            (AdapterFixtures.valid, ["Content-Type": "application/octet-stream"], .unsupportedMediaType, "urn:vetted:problem:unsupported-media-type",
             ["input  $ unsupportedMediaType"]),
            (String(repeating: " ", count: 4_097), json, .payloadTooLarge, "urn:vetted:problem:content-too-large",
             ["input  $ inputSizeLimitExceeded"]),
        ]
        try await withApp(configure: VaporFixture.configure) { app in
            for (body, headers, status, type, expected) in cases {
                try await app.testing().test(.POST, "listings", headers: headers, body: ByteBuffer(string: body)) { response in
                    #expect(response.status == status, "\(type)")
                    let details = try problem(response)
                    #expect(details.status == Int(status.code) && details.type == type)
                    #expect(entries(details) == expected, "\(type)")
                }
            }
        }
    }

    /// A body of the wrong shape in four places is one 422 with one entry per error, as FastAPI
    /// answers (before: only the first, `$.id`).
    @Test func eachStructuralDefectIsOneEntry() async throws {
        try await withApp(configure: VaporFixture.configure) { app in
            try await app.testing().test(.POST, "listings", headers: json, body: ByteBuffer(string: AdapterFixtures.fourDefects)) { response in
                #expect(response.status == .unprocessableEntity)
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

    /// Media types the article's table says are 415: `text/plain` (before: 400 `typeMismatch`, Vapor's
    /// plain-text decoder read the body), forms, and a body with no `Content-Type`, whose message
    /// reads as a sentence (before: "this route reads a media type this route reads").
    @Test func mediaTypesVettedDoesNotReadAre415() async throws {
        let cases: [(HTTPHeaders, String)] = [
            (["Content-Type": "text/plain"], #"the body is text/plain; this route reads application/json or application/x-plist"#),
            (["Content-Type": "application/x-www-form-urlencoded"],
             #"the body is application/x-www-form-urlencoded; this route reads application/json or application/x-plist"#),
            ([:], "the body declares no media type (no Content-Type header)"),
        ]
        try await withApp(configure: VaporFixture.configure) { app in
            for (headers, detail) in cases {
                try await app.testing().test(.POST, "listings", headers: headers, body: ByteBuffer(string: AdapterFixtures.valid)) { response in
                    #expect(response.status == .unsupportedMediaType, "\(headers)")
                    let details = try problem(response)
                    #expect(entries(details) == ["input  $ unsupportedMediaType"])
                    #expect(details.errors.first?.detail == detail)
                }
            }
        }
    }

    /// A syntax error's detail says where, by line and column.
    @Test func aSyntaxErrorIsLocated() async throws {
        try await withApp(configure: VaporFixture.configure) { app in
            try await app.testing().test(.POST, "listings", headers: json, body: ByteBuffer(string: "{\n  \"id\": 1,\n  \"id\": 2}")) { response in
                let details = try problem(response)
                #expect(entries(details) == ["syntax /id $.id duplicateKey"])
                #expect(details.errors.first?.detail.hasSuffix("(line 3, column 3)") == true, "\(details.errors)")
            }
        }
    }

    /// Vapor decodes with `userInfo` for `get(at:)` and for `Validatable`: both reach Vetted,
    /// which refuses the duplicate key that Foundation's decoder would let through.
    @Test func theUserInfoPathsReachVetted() async throws {
        let twice = ByteBuffer(string: #"{"name":"lamp","name":"a name far longer than twenty characters"}"#)
        try await withApp(configure: VaporFixture.configure) { app in
            for route in ["name", "rename"] {
                try await app.testing().test(.POST, route, headers: json, body: twice) { response in
                    #expect(response.status == .badRequest, "\(route)")
                    let details = try problem(response)
                    #expect(entries(details) == ["syntax /name $.name duplicateKey"], "\(route)")
                }
            }
            try await app.testing().test(.POST, "name", headers: json, body: ByteBuffer(string: #"{"name":"lamp"}"#)) { response in
                #expect(response.status == .ok && response.body.string == "lamp")
            }
        }
    }

    /// Why the adapter exists: Vapor's `JSONDecoder` conformance builds a fresh Foundation
    /// decoder when `userInfo` is not empty, so Vetted's `asJSONDecoder` face is bypassed
    /// there. Vetted's own conformance reads the body itself.
    @Test func theJSONDecoderFaceIsBypassedWithUserInfoAndTheAdapterIsNot() throws {
        let body = ByteBuffer(string: #"{"name":"lamp","name":"other"}"#)
        let key = try #require(CodingUserInfoKey(rawValue: "request"))
        let face: any ContentDecoder = VaporFixture.decoder.asJSONDecoder
        let bypassed = try face.decode(Rename.self, from: body, headers: json, userInfo: [key: 1]).name
        #expect(bypassed == "lamp")
        let adapter: any ContentDecoder = VaporFixture.decoder
        let refused = #expect(throws: VettedProblem.self) { try adapter.decode(Rename.self, from: body, headers: json, userInfo: [key: 1]) }
        #expect(refused.map { entries($0.details) } == ["syntax /name $.name duplicateKey"])
    }

    @Test func aResponseThatBreaksTheServersRulesIsNotSent() async throws {
        try await withApp(configure: VaporFixture.configure) { app in
            try await app.testing().test(.GET, "broken") { response in
                #expect(response.status == .internalServerError)
                let details = try problem(response)
                #expect(details.type == "urn:vetted:problem:response")
                #expect(entries(details) == ["rules /tags $.tags empty"])
            }
        }
    }

    @Test func concurrentRequestsShareOneDecoder() async throws {
        try await withApp(configure: VaporFixture.configure) { app in
            let tester = try app.testing()
            try await withThrowingTaskGroup(of: Bool.self) { group in
                for index in 0..<100 {
                    let body = index.isMultiple(of: 2) ? AdapterFixtures.valid : AdapterFixtures.breaksRules
                    group.addTask {
                        let response = try await tester.sendRequest(.POST, "listings", headers: json, body: ByteBuffer(string: body))
                        return response.status == (index.isMultiple(of: 2) ? .ok : .unprocessableEntity)
                    }
                }
                for try await answered in group { #expect(answered) }
            }
        }
    }
}

}

extension VaporTests {
/// Against a real Vapor server on loopback, with a client that misbehaves (scripts/interop/raw_http.py).
@Suite(.enabled(if: RawClient.available, "needs python3 to drive the misbehaving client"))
struct VaporLiveBodyTests {
    func withServer(idleTimeout: TimeAmount? = nil, _ body: (Int) async throws -> Void) async throws {
        try await withLiveVaporServer(configure: VaporFixture.configure, idleTimeout: idleTimeout, body)
    }

    @Test func aBodyOneByteOverTheCapIsRefusedWithoutReadingTheRest() async throws {
        try await withServer { port in
            let answer = try await RawClient.post(port: port, path: "/listings", ["over", "4097"])
            #expect(answer.status == 413, "\(answer)")
            #expect(answer.body.contains(#""code":"inputSizeLimitExceeded""#))
        }
    }

    /// Refused from its `Content-Length` once its first byte arrives. (Vapor hands a request
    /// to the middleware only when its body starts: a head whose body never starts waits in
    /// Vapor itself, before any middleware can see it.)
    @Test func aDeclaredLengthOverTheCapIsRefusedBeforeReading() async throws {
        try await withServer { port in
            let answer = try await RawClient.post(port: port, path: "/listings", ["declared", "1000000", "1"])
            #expect(answer.status == 413, "\(answer)")
        }
    }

    /// Issue 46 item 10: a head whose body never starts never reaches a middleware (Vapor
    /// holds it until the first byte), so no Vapor middleware can answer it; 5,000 of them
    /// stayed open for good (+65 MB). Vapor's idle timeout, which the article says to set,
    /// is what ends them: the connection is closed, unanswered.
    @Test func aHeadWhoseBodyNeverComesIsClosedByTheIdleTimeout() async throws {
        try await withServer(idleTimeout: .seconds(1)) { port in
            let answer = try await RawClient.post(port: port, path: "/listings", ["declared", "1000000", "0"])
            #expect(answer.status == -1, "\(answer)")
            #expect(answer.body == "the server closed the connection\n", "\(answer)")
        }
    }

    /// A chunked body followed by a 1 MB trailer (over NIO's header limit) is a 4xx problem
    /// (before: `500 {"reason":"Something went wrong."}`).
    @Test func aChunkedBodyWithAHugeTrailerIsAClientError() async throws {
        try await withServer { port in
            let answer = try await RawClient.post(port: port, path: "/listings", ["trailer", "1000000"])
            #expect((400..<500).contains(answer.status), "\(answer)")
        }
    }

    @Test func aTrickledBodyIsCutAtTheDeadline() async throws {
        try await withServer { port in
            let answer = try await RawClient.post(port: port, path: "/listings", ["trickle", "50", "0.2"])
            #expect(answer.status == 408, "\(answer)")
            #expect(answer.body.contains(#""code":"deadlineExceeded""#))
        }
    }
}
}
#endif
