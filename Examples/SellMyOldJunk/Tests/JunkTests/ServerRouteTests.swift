import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import JunkModel
import JunkServer
import Testing
import Vetted

/// The server's routes, through Hummingbird's router test client (no sockets).
@Suite struct ServerRouteTests {
    let service: ListingsService

    init() throws {
        service = try ListingsService(store: try ListingsStore(), identity: ServerIdentity(signingKey: .generate(.ed25519)))
    }

    var app: some ApplicationProtocol { Application(router: service.router()) }

    static func header(_ name: String) throws -> HTTPField.Name { try #require(HTTPField.Name(name)) }

    /// A test response as RFC 9421 sees it: status, field lines, body.
    static func message(_ response: TestResponse) -> HTTPMessage {
        HTTPMessage(
            status: Int(response.status.code), fields: response.headers.map { HTTPMessage.Field(name: $0.name.rawName, value: $0.value) },
            body: Array(response.body.readableBytesView))
    }

    static func encoded(_ listing: Listing) throws -> ByteBuffer {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        return ByteBuffer(bytes: try encoder.encode(listing))
    }

    static let newListing = Listing(
        id: 42, name: "Record player", description: "Belt drive, new stylus.", price: "60.00", sold: false,
        url: "https://example.com/listings/42", tags: [.music, .vintage], created: Date(timeIntervalSince1970: 1_530_000_000),
        lastUpdated: Date(timeIntervalSince1970: 1_530_000_000))

    @Test func getListingsIsTheTalksShapeDigestedAndSigned() async throws {
        let key = service.identity.publicKey
        try await app.test(.router) { client in
            try await client.execute(uri: "/listings", method: .get) { response in
                #expect(response.status == .ok)
                let body = Array(response.body.readableBytesView)
                // The talk's shape, exactly these keys, price as a string.
                let first = try #require(try JSONParser().parse(body).arrayValue?.first?.objectValue)
                #expect(Set(first.keys) == ["id", "name", "description", "price", "sold", "url", "tags", "created", "last_updated"])
                #expect(first["price"] == "120.00")
                #expect(first["created"] == "2018-05-01T10:39:04Z")
                // Digest of the body, and an RFC 9421 signature over status, media type and digest.
                let digest = try #require(response.headers[try Self.header(ListingsAPI.digestHeader)])
                #expect(digest == ListingsAPI.digestHeaderValue(base64: Data(DigestAlgorithm.sha256.digest(of: body)).base64EncodedString()))
                let input = try #require(response.headers[try Self.header("Signature-Input")])
                #expect(input.hasPrefix(#"junk=("@status" "content-type" "content-digest");created="#))
                #expect(input.hasSuffix(#";keyid="\#(key.keyID)";alg="ed25519";tag="sell-my-old-junk""#))
                let verified = try HTTPSignatures.verify(
                    Self.message(response), trusting: TrustedKeys([key]), policy: ListingsAPI.signaturePolicy)
                #expect(verified.keyID == key.keyID && verified.body?.bytes == body)
                let decoder = VettedJSONDecoder()
                decoder.dateDecodingStrategy = .iso8601
                #expect(try decoder.decode([Listing].self, from: body) == Listing.samples)
            }
        }
    }

    @Test func getListingsFiltersByTagAndRefusesUnknownTags() async throws {
        try await app.test(.router) { client in
            try await client.execute(uri: "/listings?tag=music", method: .get) { response in
                let decoder = VettedJSONDecoder()
                decoder.dateDecodingStrategy = .iso8601
                let listings = try decoder.decode([Listing].self, from: Array(response.body.readableBytesView))
                #expect(listings.map(\.id) == [1, 2])
            }
            try await client.execute(uri: "/listings?tag=guitars", method: .get) { response in
                #expect(response.status == .badRequest)
                let report = try Self.problem(response)
                #expect(report.errors.map { "\($0.stage) \($0.code)" } == ["request unknownTag"])
            }
        }
    }

    static let json: HTTPFields = [.contentType: "application/json"]

    /// Issue 46 item 10: about 770 valid maximum-size listings made every `GET /listings` a
    /// 500 for good (the server's own check of its answer reads it with the client's 4 MiB
    /// limit). Now a page stops at `limit` and at 1 MiB, and the pages, each `?after=` the last
    /// id, give every listing once, in order.
    @Test func aListGrowsWithoutBreakingItsRoute() async throws {
        let big = String(repeating: "a", count: 5_000)
        for id in 100..<900 {
            var listing = Self.newListing
            listing.id = id
            listing.name = String(repeating: "n", count: 200)
            listing.description = big
            #expect(try await service.store.add(listing))
        }
        try await app.test(.router) { client in
            let decoder = ListingsAPI.makeDecoder()
            var ids: [Int] = []
            var after: Int?
            var pages = 0
            while pages < 20 {
                let query = "/listings?limit=500" + (after.map { "&after=\($0)" } ?? "")
                let page = try await client.execute(uri: query, method: .get) { response in
                    #expect(response.status == .ok)
                    #expect(response.body.readableBytes <= ListingsAPI.maximumPageBytes)
                    return try decoder.decode([Listing].self, from: Array(response.body.readableBytesView))
                }
                pages += 1
                guard let last = page.last else { break }
                ids += page.map(\.id)
                after = last.id
            }
            #expect(ids == Listing.samples.map(\.id) + Array(100..<900))
            #expect(pages >= 5)  // 4.4 MB of listings: pages of at most 1 MiB (not 500 listings), then an empty one
            try await client.execute(uri: "/listings", method: .get) { response in
                #expect(response.status == .ok)
                let first = try decoder.decode([Listing].self, from: Array(response.body.readableBytesView))
                #expect(first.count == ListingsAPI.pageSize)
            }
            for query in ["limit=0", "limit=501", "after=-1", "after=x"] {
                try await client.execute(uri: "/listings?" + query, method: .get) { response in
                    #expect(response.status == .badRequest, "\(query)")
                    let codes = try Self.problem(response).errors.map(\.code)
                    #expect(codes == ["badPage"], "\(query)")
                }
            }
        }
        // The event feed pages the same way (after: the count already read).
        let all = try await service.events()
        #expect(all.count > 800)
        try await app.test(.router) { client in
            let decoder = ListingsAPI.makeDecoder()
            var read = 0
            for _ in 0..<20 {
                let page = try await client.execute(uri: "/events?after=\(read)&limit=500", method: .get) { response in
                    #expect(response.status == .ok)
                    return try decoder.decode([ListingEvent].self, from: Array(response.body.readableBytesView))
                }
                if page.isEmpty { break }
                read += page.count
            }
            #expect(read == all.count)
        }
    }

    /// A refusal's RFC 9457 problem details.
    static func problem(_ response: TestResponse) throws -> ProblemDetails {
        #expect(response.headers[.contentType] == ProblemDetails.mediaType)
        return try VettedJSONDecoder().decode(ProblemDetails.self, from: Array(response.body.readableBytesView))
    }

    /// A method the document does not list for a path it does: 405, `Allow`, a signed problem.
    @Test func anUndeclaredMethodIs405WithAllow() async throws {
        try await app.test(.router) { client in
            for (uri, method, allow) in [
                ("/listings", HTTPRequest.Method.trace, "GET, POST"), ("/listings", .delete, "GET, POST"), ("/events", .post, "GET"),
                ("/listings/1/price", .get, "POST"), ("/openapi.json", .put, "GET"), ("/listings", try #require(HTTPRequest.Method("QUERY")), "GET, POST"),
            ] {
                try await client.execute(uri: uri, method: method) { response in
                    #expect(response.status == .methodNotAllowed, "\(method) \(uri)")
                    #expect(response.headers[.allow] == allow, "\(method) \(uri)")
                    #expect(response.headers[try Self.header("Signature")] != nil)
                    let report = try Self.problem(response)
                    #expect(report.status == 405 && report.errors.map(\.code) == ["methodNotAllowed"])
                }
            }
            try await client.execute(uri: "/nowhere", method: .trace) { response in
                #expect(response.status == .notFound)
            }
        }
    }

    /// A path's `{id}` is an integer as the document's schema means one (`1` and `1.0`, as a
    /// body's `"id"`); anything else names no listing.
    @Test func aPathIdIsAnIntegerAsTheSchemaMeansOne() async throws {
        #expect(["1", "1.0", "10e-1", "42"].map(ListingsService.pathInteger) == [1, 1, 1, 42])
        #expect(["1.5", "abc", "", " 1", "1 ", "0x1", "1e400", nil].map(ListingsService.pathInteger) == [nil, nil, nil, nil, nil, nil, nil, nil])
        try await app.test(.router) { client in
            for (uri, status) in [("/listings/1/price", HTTPResponse.Status.ok), ("/listings/1.0/price", .ok), ("/listings/1.5/price", .notFound), ("/listings/999/price", .notFound)] {
                try await client.execute(uri: uri, method: .post, headers: Self.json, body: ByteBuffer(string: #"{"price": "99.00"}"#)) { response in
                    #expect(response.status == status, "\(uri)")
                }
            }
        }
    }

    @Test func postAddsAValidListingOnceThenRefusesItsId() async throws {
        try await app.test(.router) { client in
            try await client.execute(uri: "/listings", method: .post, headers: Self.json, body: try Self.encoded(Self.newListing)) { response in
                #expect(response.status == .created)
            }
            try await client.execute(uri: "/listings", method: .post, headers: Self.json, body: try Self.encoded(Self.newListing)) { response in
                #expect(response.status == .conflict)
                let report = try Self.problem(response)
                #expect(report.errors == [ProblemDetails.Entry(pointer: "/id", path: "$.id", code: "idInUse", stage: "store", detail: "a listing with this id exists")])
                #expect(report.type == "urn:junk:problem:id-in-use" && report.status == 409)
            }
            try await client.execute(uri: "/listings?tag=vintage", method: .get) { response in
                let decoder = VettedJSONDecoder()
                decoder.dateDecodingStrategy = .iso8601
                let listings = try decoder.decode([Listing].self, from: Array(response.body.readableBytesView))
                #expect(listings.map(\.id) == [1, 3, 6, 42])
            }
        }
    }

    @Test func postInvalidListsEveryErrorByPathAndCodeWithoutEchoingThePayload() async throws {
        let marker = "SECRET-PAYLOAD-MARKER"
        let body = """
            {"id":-5,"name":"","description":"\(marker)","price":"12.345","sold":false,"url":"https://\(marker).test/x",\
            "tags":["music"],"created":"2018-05-02T00:00:00Z","last_updated":"2018-05-01T00:00:00Z"}
            """
        try await app.test(.router) { client in
            try await client.execute(uri: "/listings", method: .post, headers: Self.json, body: ByteBuffer(string: body)) { response in
                #expect(response.status == .unprocessableContent)
                let text = String(buffer: response.body)
                #expect(!text.contains(marker))
                let report = try Self.problem(response)
                #expect(report.errors.map { "\($0.path) \($0.code)" } == [
                    "$.id outOfRange", "$.name empty", "$.price patternMismatch", "$.url hostNotAllowed", "$.last_updated relationViolated",
                ])
                #expect(report.errors.allSatisfy { $0.stage == "rules" })
                #expect(report.errors.map(\.pointer) == ["/id", "/name", "/price", "/url", "/last_updated"])
            }
        }
    }

    @Test func postMalformedJSONIsAFormatErrorWithItsLocation() async throws {
        try await app.test(.router) { client in
            try await client.execute(uri: "/listings", method: .post, headers: Self.json, body: ByteBuffer(string: "{\"id\": 1,,}")) { response in
                #expect(response.status == .badRequest)
                let report = try Self.problem(response)
                let problem = try #require(report.errors.first)
                #expect(report.errors.count == 1)
                #expect(problem.stage == "syntax")
                #expect(problem.code == "expectedKey")
                #expect(problem.detail.hasSuffix("(line 1, column 10)"))
            }
        }
    }

    /// JSON only: any other declared type, or none, is 415 before a byte is read.
    @Test func postOfAnythingButJSONIs415() async throws {
        try await app.test(.router) { client in
            for headers: HTTPFields in [[:], [.contentType: "text/plain"], [.contentType: "application/jsonx"]] {
                try await client.execute(uri: "/listings", method: .post, headers: headers, body: try Self.encoded(Self.newListing)) { response in
                    #expect(response.status == .unsupportedMediaType)
                    let report = try Self.problem(response)
                    #expect(report.errors.map { "\($0.stage) \($0.code)" } == ["input unsupportedMediaType"])
                }
            }
            let charset: HTTPFields = [.contentType: "Application/JSON; charset=utf-8"]
            try await client.execute(uri: "/listings", method: .post, headers: charset, body: try Self.encoded(Self.newListing)) { response in
                #expect(response.status == .created)
            }
        }
    }

    @Test func postOverTheLimitIs413FromContentLength() async throws {
        let body = ByteBuffer(repeating: UInt8(ascii: " "), count: ListingsAPI.maximumPostBytes + 1)
        try await app.test(.router) { client in
            try await client.execute(uri: "/listings", method: .post, headers: Self.json, body: body) { response in
                #expect(response.status == .contentTooLarge)
                // Error answers are signed too.
                let verified = try HTTPSignatures.verify(
                    Self.message(response), trusting: TrustedKeys([service.identity.publicKey]), policy: ListingsAPI.signaturePolicy)
                #expect(verified.keyID == service.identity.publicKey.keyID && verified.coveredComponents.first == .status)
                let report = try Self.problem(response)
                #expect(report.errors.map { "\($0.stage) \($0.code)" } == ["input inputSizeLimitExceeded"])
            }
        }
    }

    @Test func aCorruptRowInTheDatabaseIsA500NotACrash() async throws {
        let folder = try temporaryFolder("store")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("listings.sqlite").path
        _ = try ListingsStore(path: path)
        // Someone edits the database by hand: a text where a date should be, then a tag that does not exist.
        try await DatabaseQueue(path: path).write { db in
            try db.execute(sql: "UPDATE listing SET created = 'yesterday' WHERE id = 3")
        }
        let broken = try ListingsService(store: try ListingsStore(path: path), identity: service.identity)
        try await Application(router: broken.router()).test(.router) { client in
            try await client.execute(uri: "/listings", method: .get) { response in
                #expect(response.status == .internalServerError)
                let report = try Self.problem(response)
                #expect(report.errors.map(\.code) == ["storeUnavailable"])
            }
        }
        try await DatabaseQueue(path: path).write { db in
            try db.execute(sql: "UPDATE listing SET created = 1525344000, tags = 'books,comics' WHERE id = 3")
        }
        await #expect(throws: ListingsStore.StoreError.malformedRow) { try await ListingsStore(path: path).listings() }
    }
}
