#if OpenAPI  // the trait that brings in swift-openapi-runtime and Yams (Package.swift)
import Foundation
import HTTPTypes
import Synchronization
import Testing
import VettedOpenAPI

/// The example's document: the talk's listings API with the `@Vetted` Listing's rules.
let listingsDocument: Data = {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Examples/ListingsOpenAPI/Sources/ListingsAPI/openapi.yaml")
    return (try? Data(contentsOf: url)) ?? Data()
}()

let validListing = #"{"name":"Lamp","description":"A desk lamp","price":"10.50","url":"https://example.com/1","tags":["electric"]}"#

/// What a request through the middleware came to: the answer, and what the handler received (if it ran).
struct Exchange {
    var status: Int
    var body: [UInt8]
    var handled: [UInt8]??
    var problem: [String: Any] { ((try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any]) ?? [:] }
    var entries: [[String: Any]] { problem["errors"] as? [[String: Any]] ?? [] }
    var codes: [String] { entries.compactMap { $0["code"] as? String } }
    var pointers: [String] { entries.compactMap { $0["pointer"] as? String } }
}

func exchange(
    _ middleware: VettedOpenAPIMiddleware, _ operationID: String, _ method: HTTPRequest.Method = .post, path: String = "/listings",
    contentType: String? = "application/json", body: String? = nil, pathParameters: [String: Substring] = [:],
    respond: @escaping @Sendable () -> (HTTPResponse, HTTPBody?) = { (HTTPResponse(status: .ok), nil) }
) async throws -> Exchange {
    var fields = HTTPFields()
    if let contentType { fields[.contentType] = contentType }
    let request = HTTPRequest(method: method, scheme: "http", authority: "localhost", path: path, headerFields: fields)
    let received = Mutex<[UInt8]??>(nil)
    let (response, responseBody) = try await middleware.intercept(
        request, body: body.map { HTTPBody($0) }, metadata: ServerRequestMetadata(pathParameters: pathParameters), operationID: operationID
    ) { _, body, _ in
        let bytes: [UInt8]? = if let body { try await [UInt8](collecting: body, upTo: 1 << 20) } else { nil }
        received.withLock { $0 = .some(bytes) }
        return respond()
    }
    let bytes: [UInt8] = if let responseBody { try await [UInt8](collecting: responseBody, upTo: 1 << 20) } else { [] }
    return Exchange(status: response.status.code, body: bytes, handled: received.withLock { $0 })
}

@Suite("VettedOpenAPIMiddleware: the document's constraints before the handler", .enabled(if: !listingsDocument.isEmpty, "the example's openapi.yaml is part of this repository"))
struct OpenAPIMiddlewareTests {
    let middleware: VettedOpenAPIMiddleware

    init() throws {
        middleware = VettedOpenAPIMiddleware(contract: try OpenAPIContract(listingsDocument))
    }

    @Test func theDocumentsOperationsAreCompiled() throws {
        #expect(middleware.contract.operationIDs == ["createListing", "getListing", "listListings"])
        #expect(!middleware.contract.isOpenAPI30)
    }

    @Test func aValidBodyIsHandedOnAsRead() async throws {
        let result = try await exchange(middleware, "createListing", body: validListing)
        #expect(result.status == 200)
        #expect(result.handled == .some(Array(validListing.utf8)))
    }

    @Test func constraintViolationsAre422WithOneEntryEachAndTheHandlerDoesNotRun() async throws {
        let body = #"{"name":"","description":"A desk lamp","price":"-5","url":"https://evil.example/1","tags":["electric","electric"],"extra":1}"#
        let result = try await exchange(middleware, "createListing", body: body)
        #expect(result.status == 422)
        #expect(result.handled == nil)
        #expect(result.problem["type"] as? String == "urn:vetted:problem:rules")
        #expect(result.codes == ["minLength", "pattern", "pattern", "uniqueItems", "additionalProperties"])
        #expect(result.pointers == ["/name", "/price", "/url", "/tags", "/extra"])
        let price = try #require(result.entries.dropFirst().first)
        let parameters = try #require(price["parameters"] as? [String: Any])
        #expect(parameters["schemaLocation"] as? String == "#/components/schemas/Price/pattern")
        // The schema's text, escaped as every text in a problem is (a backslash doubled).
        #expect(parameters["pattern"] as? String == #"^[0-9]+(\\.[0-9]{1,2})?$"#)
        #expect(price["detail"] as? String == "does not match the pattern (line 1, column 48)")
    }

    @Test func aMissingRequiredPropertyIs422AtTheObject() async throws {
        let result = try await exchange(middleware, "createListing", body: #"{"name":"Lamp","description":"d","price":"1","url":"https://example.com/"}"#)
        #expect(result.status == 422)
        #expect(result.codes == ["required"])
        #expect(result.pointers == [""])
    }

    @Test func bytesThatAreNotJSONAre400WithTheParsersError() async throws {
        let result = try await exchange(middleware, "createListing", body: #"{"name":"Lamp","#)
        #expect(result.status == 400)
        #expect(result.codes == ["unterminatedObject"])
        #expect(result.entries.first?["detail"] as? String == "object is never closed; input ends where a key was expected (line 1, column 1)")
        #expect(result.handled == nil)
    }

    @Test func aBodyLargerThanTheCapIs413WithoutBeingRead() async throws {
        let small = VettedOpenAPIMiddleware(contract: try OpenAPIContract(listingsDocument, options: .init(maxBodyBytes: 16)))
        let result = try await exchange(small, "createListing", body: validListing)
        #expect(result.status == 413)
        #expect(result.codes == ["inputSizeLimitExceeded"])
    }

    /// A body whose first bytes come and the rest never do: cut off at the contract's deadline with 408.
    @Test func aBodyThatStopsArrivingIs408AtTheDeadline() async throws {
        let patient = VettedOpenAPIMiddleware(contract: try OpenAPIContract(listingsDocument, options: .init(bodyDeadline: .milliseconds(200))))
        let (chunks, more) = AsyncStream.makeStream(of: ArraySlice<UInt8>.self)
        more.yield(ArraySlice(#"{"name":"#.utf8))
        var fields = HTTPFields()
        fields[.contentType] = "application/json"
        let request = HTTPRequest(method: .post, scheme: "http", authority: "localhost", path: "/listings", headerFields: fields)
        let handled = Mutex(false)
        let (response, body) = try await patient.intercept(
            request, body: HTTPBody(chunks, length: .unknown, iterationBehavior: .single), metadata: ServerRequestMetadata(), operationID: "createListing"
        ) { _, _, _ in
            handled.withLock { $0 = true }
            return (HTTPResponse(status: .ok), nil)
        }
        more.finish()
        let text = String(decoding: try await [UInt8](collecting: try #require(body), upTo: 1 << 16), as: UTF8.self)
        #expect(response.status.code == 408)
        #expect(response.headerFields[.connection] == "close")
        #expect(text.contains(#""code":"deadlineExceeded""#))
        #expect(!handled.withLock { $0 })
    }

    @Test func aMediaTypeTheOperationDoesNotTakeIs415() async throws {
        let plain = try await exchange(middleware, "createListing", contentType: "text/plain", body: "hello")
        #expect(plain.status == 415)
        #expect(plain.codes == ["unsupportedMediaType"])
        let charset = try await exchange(middleware, "createListing", contentType: "Application/JSON; charset=utf-8", body: validListing)
        #expect(charset.status == 200)
    }

    @Test func aMissingRequiredBodyIs422() async throws {
        let result = try await exchange(middleware, "createListing", contentType: nil, body: nil)
        #expect(result.status == 422)
        #expect(result.codes == ["keyNotFound"])
        #expect(result.handled == nil)
    }

    @Test func queryParametersAreReadAsTheirSchemasTypeAndChecked() async throws {
        let fine = try await exchange(middleware, "listListings", .get, path: "/listings?limit=5&tag=music&tag=books", contentType: nil)
        #expect(fine.status == 200)
        let zero = try await exchange(middleware, "listListings", .get, path: "/listings?limit=0", contentType: nil)
        #expect(zero.status == 422)
        #expect(zero.codes == ["minimum"])
        #expect(zero.pointers == ["/query/limit"])
        #expect(zero.entries.first?["path"] as? String == "query.limit")
        let text = try await exchange(middleware, "listListings", .get, path: "/listings?limit=ten&tag=music&tag=spoons", contentType: nil)
        #expect(text.codes == ["type", "enum"])
        #expect(text.pointers == ["/query/limit", "/query/tag/1"])
        // Found by schemathesis: `tag=` is one empty element (the generated server then failed with 500), not an empty array.
        let empty = try await exchange(middleware, "listListings", .get, path: "/listings?tag=", contentType: nil)
        #expect(empty.codes == ["enum"])
        #expect(empty.pointers == ["/query/tag/0"])
        let malformed = try await exchange(middleware, "listListings", .get, path: "/listings?limit=%zz", contentType: nil)
        #expect(malformed.status == 400)
        #expect(malformed.codes == ["malformedParameter"])
    }

    @Test func pathParametersAreChecked() async throws {
        let zero = try await exchange(middleware, "getListing", .get, path: "/listings/0", contentType: nil, pathParameters: ["id": "0"])
        #expect(zero.status == 422)
        #expect(zero.codes == ["minimum"])
        #expect(zero.pointers == ["/path/id"])
        let one = try await exchange(middleware, "getListing", .get, path: "/listings/1", contentType: nil, pathParameters: ["id": "1"])
        #expect(one.status == 200)
    }

    @Test func defaultsAreFilledInBeforeTheHandlerWhenAsked() async throws {
        let filling = VettedOpenAPIMiddleware(contract: middleware.contract, applyDefaults: true)
        let result = try await exchange(filling, "createListing", body: validListing)
        #expect(result.status == 200)
        let handed = try #require(result.handled ?? nil)
        #expect(String(decoding: handed, as: UTF8.self) == #"{"name":"Lamp","description":"A desk lamp","price":"10.50","url":"https://example.com/1","tags":["electric"],"sold":false}"#)
        let given = try await exchange(filling, "createListing", body: validListing.replacingOccurrences(of: "}", with: #","sold":true}"#))
        #expect(given.handled == .some(Array(validListing.replacingOccurrences(of: "}", with: #","sold":true}"#).utf8)))
    }

    @Test func aResponseThatBreaksTheDocumentIsALogged500ThatSaysNothingOfIt() async throws {
        let checking = VettedOpenAPIMiddleware(contract: middleware.contract, validateResponses: true)
        let bad = try await exchange(checking, "getListing", .get, path: "/listings/1", contentType: nil, pathParameters: ["id": "1"]) {
            var fields = HTTPFields()
            fields[.contentType] = "application/json"
            return (HTTPResponse(status: .ok, headerFields: fields), HTTPBody(#"{"id":0}"#))
        }
        #expect(bad.status == 500)
        #expect(bad.entries.isEmpty)
        #expect(bad.problem["type"] as? String == "urn:vetted:problem:declaration")
        let undocumented = try await exchange(checking, "getListing", .get, path: "/listings/1", contentType: nil, pathParameters: ["id": "1"]) {
            (HTTPResponse(status: .init(code: 418)), nil)
        }
        #expect(undocumented.status == 500)
        let notFound = try await exchange(checking, "getListing", .get, path: "/listings/1", contentType: nil, pathParameters: ["id": "1"]) {
            (HTTPResponse(status: .notFound), nil)
        }
        #expect(notFound.status == 404)
    }

    @Test func anOperationTheDocumentDoesNotHaveIsTheServersFault() async throws {
        let result = try await exchange(middleware, "deleteListing", .delete, contentType: nil)
        #expect(result.status == 500)
        #expect(result.handled == nil)
    }
}
#endif
