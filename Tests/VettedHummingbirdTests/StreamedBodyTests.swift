#if Hummingbird  // the trait that brings in the framework (Package.swift)
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing
import VettedHummingbird
import VettedTestSupport

/// Routes that read a streamed body record by record: `POST /import` stores each valid
/// listing's id and answers `ids|pointer code,…` (`?stop` ends at the first failing record;
/// `?total=N` caps the whole body). A record is capped at 1 KiB.
func importRouter<Context: VettedRequestContext>(_ context: Context.Type = ListingsContext.self) -> Router<Context> {
    let importDecoder = VettedJSONDecoder()
    importDecoder.limits.maxRecordBytes = 1_024
    importDecoder.dateDecodingStrategy = .iso8601
    let router = Router(context: Context.self)
    router.post("import") { request, context -> String in
        let query = request.uri.queryParameters
        let policy: VettedJSONDecoder.StreamErrorPolicy = query.get("stop") == nil ? .skip : .stop
        var stored: [String] = []
        var refused: [String] = []
        for try await element in try request.decodeElements(
            of: Listing.self, context: context, decoder: importDecoder, onError: policy, maxTotalBytes: query.get("total").flatMap { Int($0) })
        {
            switch element.result {
            case .success(let listing): stored.append("\(element.index):\(listing.id)")
            case .failure(let error): refused += (ProblemDetails(error)?.errors ?? []).map { "\($0.pointer) \($0.code)" }
            }
        }
        return stored.joined(separator: ",") + "|" + refused.joined(separator: ",")
    }
    return router
}

@Suite struct HummingbirdStreamedBodyTests {
    static func lines(_ records: [String]) -> ByteBuffer { ByteBuffer(string: records.map { $0 + "\n" }.joined()) }
    static let ndjson: HTTPFields = [.contentType: "application/x-ndjson"]

    /// Each record is decoded alone; a failure is an entry under its index, and the records
    /// around it are stored. 23 records (about 5 KB) pass a context whose whole-body cap is 4 KiB.
    @Test func eachRecordIsStoredOrRefusedUnderItsIndex() async throws {
        let records = [AdapterFixtures.valid, AdapterFixtures.breaksRules, AdapterFixtures.malformed]
            + Array(repeating: AdapterFixtures.valid, count: 20)
        try await Application(router: importRouter()).test(.router) { client in
            try await client.execute(uri: "/import", method: .post, headers: Self.ndjson, body: Self.lines(records)) { response in
                #expect(response.status == .ok)
                let answer = String(buffer: response.body).split(separator: "|", omittingEmptySubsequences: false)
                #expect(answer.first?.split(separator: ",").count == 21)
                #expect(answer.last == "/1/price patternMismatch,/1/tags empty,/2 unterminatedObject")
            }
        }
    }

    /// Every framing from its media type: JSON Lines under both names, RFC 7464, one array.
    @Test func theFramingFollowsTheMediaType() async throws {
        let two = [AdapterFixtures.valid, AdapterFixtures.breaksRules]
        let bodies: [(String, String)] = [
            ("application/x-ndjson", two.map { $0 + "\n" }.joined()),
            ("application/jsonl; charset=utf-8", two.map { $0 + "\r\n" }.joined()),
            ("application/json-seq", two.map { "\u{1E}" + $0 + "\n" }.joined()),
            ("application/json", "[" + two.joined(separator: ",") + "]"),
        ]
        try await Application(router: importRouter()).test(.router) { client in
            for (type, body) in bodies {
                let headers: HTTPFields = [.contentType: type]
                try await client.execute(uri: "/import", method: .post, headers: headers, body: ByteBuffer(string: body)) { response in
                    #expect(String(buffer: response.body) == "0:1|/1/price patternMismatch,/1/tags empty", "\(type)")
                }
            }
        }
    }

    /// Under `.stop` the first failing record is the answer: its problem, pointer under its index.
    @Test func stopAnswersTheFirstFailingRecordsProblem() async throws {
        let records = [AdapterFixtures.valid, AdapterFixtures.valid, AdapterFixtures.wrongShape, AdapterFixtures.breaksRules]
        try await Application(router: importRouter()).test(.router) { client in
            try await client.execute(uri: "/import?stop=1", method: .post, headers: Self.ndjson, body: Self.lines(records)) { response in
                #expect(response.status == .unprocessableContent)
                let details = try problem(response)
                #expect(entries(details) == ["structure /2/id $[2].id typeMismatch"])
            }
            try await client.execute(uri: "/import?stop=1", method: .post, headers: Self.ndjson, body: Self.lines(["{\"id\":1,\n"])) {
                response in
                #expect(response.status == .badRequest)
                let details = try problem(response)
                #expect(entries(details) == ["syntax /0 $[0] unterminatedObject"])
            }
        }
    }

    /// The caps: a media type that is no stream (415, unread), a total declared or read past
    /// `maxTotalBytes` (413), a record past the decoder's `maxRecordBytes` (413 under `.stop`,
    /// an entry under `.skip`, the records after it still read).
    @Test func theCapsAreAPerRecordCapAndAnOptionalTotal() async throws {
        let three = Self.lines([AdapterFixtures.valid, AdapterFixtures.valid, AdapterFixtures.valid])
        try await Application(router: importRouter()).test(.router) { client in
            try await client.execute(uri: "/import", method: .post, headers: [.contentType: "text/plain"], body: three) { response in
                #expect(response.status == .unsupportedMediaType)
                let details = try problem(response)
                #expect(entries(details) == ["input  $ unsupportedMediaType"])
            }
            try await client.execute(uri: "/import?total=500", method: .post, headers: Self.ndjson, body: three) { response in
                #expect(response.status == .contentTooLarge)
                let details = try problem(response)
                #expect(entries(details) == ["input  $ inputSizeLimitExceeded"])
            }
            let long = Self.lines([AdapterFixtures.valid, AdapterFixtures.valid.replacingOccurrences(of: "A desk lamp", with: String(repeating: "x", count: 1_000)), AdapterFixtures.valid])
            try await client.execute(uri: "/import?stop=1", method: .post, headers: Self.ndjson, body: long) { response in
                #expect(response.status == .contentTooLarge, "\(String(buffer: response.body))")
                let details = try problem(response)
                #expect(entries(details) == ["input /1 $[1] recordTooLarge"])
            }
            try await client.execute(uri: "/import", method: .post, headers: Self.ndjson, body: long) { response in
                #expect(String(buffer: response.body) == "0:1,2:1|/1 recordTooLarge")
            }
        }
    }
}

/// A context whose body deadline leaves room for a machine busy with other tests: 4 s (2.5 s
/// was cut once in CI, on a machine building and fuzzing beside the tests).
struct StreamContext: VettedRequestContext {
    var coreContext: CoreRequestContextStorage
    init(source: ApplicationRequestContextSource) { coreContext = .init(source: source) }
    var bodyTimeout: Duration { .seconds(4) }
}

@Suite(.enabled(if: RawClient.available, "needs python3 to send a body slowly"))
struct HummingbirdLiveStreamTests {
    /// Six records 1 s apart: 5 s in all, past the context's 4 s deadline, yet each record
    /// arrives within 4 s of the last, so the upload makes progress and is not cut.
    @Test func aSlowUploadThatMakesProgressIsNotCut() async throws {
        try await Application(router: importRouter(StreamContext.self)).test(.live) { client in
            let port = try #require(client.port)
            let answer = try await RawClient.post(
                port: port, path: "/import", contentType: "application/x-ndjson", ["records", "6", "1.0", AdapterFixtures.valid])
            #expect(answer.status == 200, "\(answer)")
            #expect(answer.body == "0:1,1:1,2:1,3:1,4:1,5:1|")
        }
    }

    /// A declared length over the total is refused before a byte of the body is read.
    @Test func aDeclaredLengthOverTheTotalIsRefusedBeforeReading() async throws {
        try await Application(router: importRouter()).test(.live) { client in
            let port = try #require(client.port)
            let answer = try await RawClient.post(
                port: port, path: "/import?total=500", contentType: "application/x-ndjson", ["declared", "100000"])
            #expect(answer.status == 413, "\(answer)")
            #expect(answer.body.contains("declared as 100000 bytes, over the limit of 500"), "\(answer)")
        }
    }

    /// A byte every 200 ms and never a newline: the chunks keep coming, the record does not,
    /// and the stream is cut 1 s after the handler asked for it (408).
    @Test func aStalledRecordIsCutAtTheDeadline() async throws {
        try await Application(router: importRouter()).test(.live) { client in
            let port = try #require(client.port)
            let answer = try await RawClient.post(port: port, path: "/import", contentType: "application/x-ndjson", ["trickle", "50", "0.2"])
            #expect(answer.status == 408, "\(answer)")
            #expect(answer.body.contains(#""code":"deadlineExceeded""#))
        }
    }
}
#endif
