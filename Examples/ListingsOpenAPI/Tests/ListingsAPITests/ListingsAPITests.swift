import Foundation
import Hummingbird
import HummingbirdTesting
@testable import ListingsAPI
import Testing

/// The same requests against the server with VettedOpenAPIMiddleware and without it.
@Suite("Listings API: the document's constraints, enforced at the door")
struct ListingsAPITests {
    static let valid = #"{"name":"Lamp","description":"A desk lamp","price":"10.50","url":"https://example.com/1","tags":["electric"]}"#
    /// Well-typed, so the generated decoding takes it, but it breaks five of the document's constraints.
    static let breaksConstraints = #"{"name":"","description":"A desk lamp","price":"-5","url":"https://evil.example/1","tags":["electric","electric"]}"#

    struct Answer {
        var status: Int
        var body: String
        /// The body as a JSON object (a problem, or a listing).
        var problem: [String: Any] { ((try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any]) ?? [:] }
        var pointers: [String] { (problem["errors"] as? [[String: Any]] ?? []).compactMap { $0["pointer"] as? String } }
        var codes: [String] { (problem["errors"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String } }
    }

    func send(_ method: HTTPRequest.Method, _ uri: String, body: String? = nil, checked: Bool, service: ListingsService = ListingsService()) async throws -> Answer {
        let app = Application(router: try ListingsApp.router(service: service, checked: checked))
        return try await app.test(.router) { client in
            let headers: HTTPFields = body == nil ? [:] : [.contentType: "application/json"]
            return try await client.execute(uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) }) { response in
                Answer(status: response.status.code, body: String(buffer: response.body))
            }
        }
    }

    @Test func aValidListingIsCreatedWithItsDefaultFilledIn() async throws {
        let answer = try await send(.post, "/listings", body: Self.valid, checked: true)
        #expect(answer.status == 201)
        #expect(answer.problem["sold"] as? Bool == false)
        #expect(answer.problem["price"] as? String == "10.50")
    }

    @Test func withoutTheMiddlewareABodyThatBreaksTheDocumentReachesTheHandler() async throws {
        let service = ListingsService()
        let answer = try await send(.post, "/listings", body: Self.breaksConstraints, checked: false, service: service)
        #expect(answer.status == 201)
        #expect(service.stored.map(\.price) == ["-5"])
    }

    @Test func withTheMiddlewareItIs422WithAPointerPerErrorAndTheHandlerNeverRuns() async throws {
        let service = ListingsService()
        let answer = try await send(.post, "/listings", body: Self.breaksConstraints, checked: true, service: service)
        #expect(answer.status == 422)
        #expect(answer.codes == ["minLength", "pattern", "pattern", "uniqueItems"])
        #expect(answer.pointers == ["/name", "/price", "/url", "/tags"])
        #expect(service.stored.isEmpty)
    }

    @Test func parametersAreCheckedAsTheDocumentSays() async throws {
        let unchecked = try await send(.get, "/listings?limit=1000", checked: false)
        #expect(unchecked.status == 200)
        let limit = try await send(.get, "/listings?limit=1000", checked: true)
        #expect(limit.status == 422)
        #expect(limit.codes == ["maximum"])
        #expect(limit.pointers == ["/query/limit"])
        let id = try await send(.get, "/listings/0", checked: true)
        #expect(id.codes == ["minimum"])
        #expect(id.pointers == ["/path/id"])
    }

    @Test func notJSONIs400AndAnotherMediaTypeIs415() async throws {
        let syntax = try await send(.post, "/listings", body: #"{"name":"#, checked: true)
        #expect(syntax.status == 400)
        let app = Application(router: try ListingsApp.router(service: ListingsService()))
        let status = try await app.test(.router) { client in
            try await client.execute(uri: "/listings", method: .post, headers: [.contentType: "text/plain"], body: ByteBuffer(string: "lamp")) { $0.status.code }
        }
        #expect(status == 415)
    }

    /// A method the document does not list on a path it has is 405 with `Allow` and a problem;
    /// a path it does not have stays 404.
    @Test func anUndeclaredMethodIs405WithAllow() async throws {
        let trace = try await send(.trace, "/listings", checked: true)
        #expect(trace.status == 405)
        #expect(trace.codes == ["methodNotAllowed"])
        let app = Application(router: try ListingsApp.router(service: ListingsService(), checked: true))
        try await app.test(.router) { client in
            try await client.execute(uri: "/listings", method: .delete) { response in
                #expect(response.status == .methodNotAllowed)
                #expect(response.headers[.allow] == "GET, POST")
                #expect(response.headers[.contentType] == "application/problem+json")
            }
            try await client.execute(uri: "/nowhere", method: .trace) { response in
                #expect(response.status == .notFound)
            }
        }
    }

    @Test func theServerServesItsDocument() async throws {
        let answer = try await send(.get, "/openapi.yaml", checked: true)
        #expect(answer.status == 200)
        #expect(answer.body.hasPrefix("openapi: 3.1.0"))
    }
}
