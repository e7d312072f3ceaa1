import AsyncHTTPClient
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import JunkClient
import JunkDemo
import JunkModel
import JunkServer
import NIOCore
import NIOHTTP1
import Testing
import Vetted

/// The client against a live server on loopback.
@Suite struct ClientTests {
    @Test func fetchesVerifiesAndDecodesEveryListing() async throws {
        try await withLiveServer { server, client in
            let checked = try await client.listings()
            #expect(checked.listings == Listing.samples)
            #expect(checked.skipped.isEmpty)
            let report = try #require(checked.report)
            #expect(report.signedBy == server.service.identity.publicKey.keyID)
            #expect(try await client.listings(tagged: .tools).listings.map(\.id) == [4])
        }
    }

    @Test func theEventFeedDecodesAsOneTaggedUnion() async throws {
        try await withLiveServer { server, client in
            let events = try await client.events()
            // Each sample's creation, and a sale for each sold one, oldest first.
            let sold = Listing.samples.filter(\.sold)
            #expect(events.count == Listing.samples.count + sold.count)
            let created = events.compactMap { event -> Int? in if case .created(let payload) = event { payload.id } else { nil } }
            #expect(Set(created) == Set(Listing.samples.map(\.id)))
            let sales = events.compactMap { event -> Int? in if case .sold(let payload) = event { payload.id } else { nil } }
            #expect(Set(sales) == Set(sold.map(\.id)))
            #expect(events == (try await server.service.events()))
            // A price change is an event of its own; the listing is created at its first price.
            let listing = try #require(Listing.samples.first { !$0.sold })
            #expect(try await client.changePrice(of: listing.id, to: "7.50").status == 200)
            let refused = try await client.changePrice(of: listing.id, to: "7.5.0")
            #expect(refused.status == 422 && refused.problems.map { "\($0.path) \($0.code)" } == ["$.price patternMismatch"])
            #expect(try await client.changePrice(of: 999_999, to: "1.00").status == 404)
            let after = try await client.events()
            #expect(after.count == events.count + 1)
            guard case .priceChanged(let change) = after.last else {
                Issue.record("no price change last: \(after.last.map { "\($0)" } ?? "none")")
                return
            }
            #expect(change.id == listing.id && change.oldPrice == listing.price && change.newPrice == "7.50")
            #expect(after.contains(.created(ListingCreated(id: listing.id, name: listing.name, price: listing.price, tags: listing.tags, at: listing.created))))
            #expect(try await client.listings().listings.first { $0.id == listing.id }?.price == "7.50")
        }
    }

    @Test func anUnknownEventTypeIsAnUnknownTagAtItsPath() throws {
        let body = Array(#"[{"type": "listing.teleported", "id": 1, "at": "2020-01-01T00:00:00Z"}]"#.utf8)
        let error = #expect(throws: DecodingError.self) { try ListingsAPI.makeDecoder().decode([ListingEvent].self, from: body) }
        let problems = error.map { Problem.all(in: $0, direct: .syntax) } ?? []
        #expect(problems.map { "\($0.path) \($0.code)" } == ["$[0].type unknownTag"])
    }

    @Test func aResponseSignedByAnotherKeyIsRejectedAtTheRawStage() async throws {
        try await withLiveServer { server, client in
            var pinnedElsewhere = client
            // Another key under the server's key id.
            pinnedElsewhere.trustedKeys = try TrustedKeys([
                SigningKey.generate(.ed25519, keyID: server.service.identity.publicKey.keyID).verificationKey
            ])
            let rejected = await #expect(throws: ListingsRejected.self) { try await pinnedElsewhere.listings() }
            #expect(rejected?.problems.map { "\($0.stage) \($0.path) \($0.code)" } == ["raw $.signature.junk signatureMismatch"])
            var unknownKey = client
            unknownKey.trustedKeys = try TrustedKeys([SigningKey.generate(.ed25519, keyID: try KeyID("someone-else")).verificationKey])
            let unknown = await #expect(throws: ListingsRejected.self) { try await unknownKey.listings() }
            #expect(unknown?.problems.map { "\($0.stage) \($0.path) \($0.code)" } == [#"raw $["signature-input"].junk unknownKeyID"#])
        }
    }

    /// A redirect, to another host or not, is a status the client refuses, never a hop it takes.
    @Test func aRedirectIsNeverFollowed() async throws {
        let router = Router()
        router.get("/listings") { _, _ in Response(status: .found, headers: [.location: "http://203.0.113.7/listings"]) }
        try await Application(router: router).test(.live) { client in
            let port = try #require(client.port)
            let junk = ListingsClient(
                baseURL: "http://127.0.0.1:\(port)", trustedKeys: try TrustedKeys([SigningKey.generate(.ed25519).verificationKey]))
            let rejected = await #expect(throws: ListingsRejected.self) { try await junk.listings() }
            #expect(rejected?.problems.map { "\($0.stage) \($0.code) \($0.message)" } == ["raw httpStatus the server answered 302"])
        }
    }

    /// One deadline covers the whole exchange: a server that sends its head at once
    /// and then trickles its body is cut off at the client's timeout.
    @Test func aTrickledBodyRunsIntoTheDeadline() async throws {
        // The client reads the (bounded) body before it checks the signature, so no signature is needed here.
        let headers: HTTPFields = [.contentType: "application/json"]
        let router = Router()
        router.get("/listings") { [headers] _, _ in
            Response(
                status: .ok, headers: headers,
                body: ResponseBody { writer in
                    for _ in 0..<600 {
                        try await writer.write(ByteBuffer(string: " "))
                        try await Task.sleep(for: .milliseconds(100))
                    }
                    try await writer.finish(nil)
                })
        }
        try await Application(router: router).test(.live) { client in
            let port = try #require(client.port)
            var junk = ListingsClient(
                baseURL: "http://127.0.0.1:\(port)", trustedKeys: try TrustedKeys([SigningKey.generate(.ed25519).verificationKey]))
            junk.timeout = .seconds(1)
            let rejected = await #expect(throws: ListingsRejected.self) { try await junk.listings() }
            #expect(rejected?.problems.map { "\($0.stage) \($0.code)" } == ["raw deadlineExceeded"])
        }
    }

    @Test func aResponseOverTheClientsCapIsRefusedFromItsLength() async throws {
        try await withLiveServer { server, client in
            var small = client
            small.maximumResponseBytes = 100
            let rejected = await #expect(throws: ListingsRejected.self) { try await small.listings() }
            #expect(rejected?.problems.map(\.code) == ["inputSizeLimitExceeded"])
        }
    }

    @Test func postThroughTheClientAndTheServerAnswersWithProblems() async throws {
        try await withLiveServer { server, client in
            var listing = Listing.samples[0]
            listing.id = 77
            let added = try await client.add(listing)
            #expect(added.status == 201)
            #expect(added.problems.isEmpty)
            listing.tags = []
            listing.id = 78
            let (status, problems) = try await client.add(listing)
            #expect(status == 422)
            #expect(problems.map { "\($0.path) \($0.code)" } == ["$.tags empty"])
            #expect(try await client.listings().listings.map(\.id) == [1, 2, 3, 4, 5, 6, 77])
        }
    }

    @Test func streamedOversizePostsAreRefusedAtTheCapAndTheServerKeepsServing() async throws {
        try await withLiveServer { server, client in
            let http = LoadGenerator.makeHTTPClient(connections: 4)
            let url = server.baseURL + "/listings"
            for kind in LoadGenerator.BadPost.allCases {
                #expect(await LoadGenerator.post(http, url, kind), "\(kind)")
            }
            try await http.shutdown()
            #expect(try await client.listings().listings.count == 6)
        }
    }

    /// A POST whose body trickles in (a byte every 200 ms) is cut off at the server's body
    /// timeout with 408 and its problem, and the server keeps serving.
    @Test func aTrickledPostBodyIsCutOffWith408() async throws {
        try await withLiveServer { server, client in
            server.service.setBodyTimeout(.seconds(1))
            let http = LoadGenerator.makeHTTPClient(connections: 2)
            var request = HTTPClientRequest(url: server.baseURL + "/listings")
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/json")
            let trickle = AsyncStream<ByteBuffer> { continuation in
                let task = Task {
                    for _ in 0..<50 {
                        try? await Task.sleep(for: .milliseconds(200))
                        if Task.isCancelled { break }
                        continuation.yield(ByteBuffer(string: " "))
                    }
                    continuation.finish()
                }
                continuation.onTermination = { _ in task.cancel() }
            }
            request.body = .stream(trickle, length: .unknown)
            let response = try await http.execute(request, timeout: .seconds(30))
            var body = ByteBuffer()
            for try await part in response.body { body.writeImmutableBuffer(part) }
            #expect(response.status.code == 408)
            let report = try VettedJSONDecoder().decode(ProblemDetails.self, from: Array(body.readableBytesView))
            #expect(report.errors.map { "\($0.stage) \($0.path) \($0.code)" } == ["input $ deadlineExceeded"])
            try await http.shutdown()
            #expect(try await client.listings().listings.count == 6)
        }
    }

    @Test func validateChecksAFileOffline() async throws {
        let folder = try temporaryFolder("validate")
        defer { try? FileManager.default.removeItem(at: folder) }
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let good = folder.appendingPathComponent("good.json")
        try encoder.encode(Listing.samples).write(to: good)
        var bad = Listing.samples
        bad[2].url = "https://examp1e.com/3"
        let badFile = folder.appendingPathComponent("bad.json")
        try encoder.encode(bad).write(to: badFile)

        let valid = try await run(executable("junk"), ["validate", good.path])
        #expect(valid.status == 0)
        #expect(valid.stdout == "valid: 6 listings\n")
        let invalid = try await run(executable("junk"), ["validate", badFile.path])
        #expect(invalid.status == 1)
        #expect(invalid.stderr.contains("rules stage · $[2].url · hostNotAllowed"))
        let missing = try await run(executable("junk"), ["validate", folder.appendingPathComponent("none.json").path])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("raw stage · $ · unreadableInput"))
    }
}

/// Runs a program to its end (off the cooperative pool: see `offThePool`).
func run(_ program: URL, _ arguments: [String]) async throws -> (status: Int32, stdout: String, stderr: String) {
    try await offThePool { try runBlocking(program, arguments) }
}

func runBlocking(_ program: URL, _ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
    let process = Process()
    process.executableURL = program
    process.arguments = arguments
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    try process.run()
    let out = output.fileHandleForReading.readDataToEndOfFile()
    let err = error.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
}
