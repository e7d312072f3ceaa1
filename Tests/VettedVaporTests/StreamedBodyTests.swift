#if Vapor  // the trait that brings in the framework (Package.swift)
import Foundation
import NIOCore
import NIOHTTP1
import Testing
import VettedVapor
import VaporTesting
import VettedTestSupport

enum VaporStreamFixture {
    /// `POST /import` (`body: .stream`) stores each valid listing's id and answers
    /// `index:id,…|pointer code,…` (`?stop=1` ends at the first failing record; `?total=N`
    /// caps the whole body); records are capped at 1 KiB, each due within 2.5 s (room for a
    /// machine busy with other tests).
    static func configure(_ app: Application) async throws {
        VaporFixture.useVettedCoders()
        app.middleware.use(VettedProblemMiddleware())
        app.middleware.use(VettedBodyMiddleware(maxBytes: 4_096, timeout: .seconds(1), leavingStreamsUnread: true))
        let decoder = VettedJSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        decoder.limits.maxRecordBytes = 1_024
        app.on(.POST, "import", body: .stream) { request async throws -> String in
            let policy: VettedJSONDecoder.StreamErrorPolicy = request.query[String.self, at: "stop"] == nil ? .skip : .stop
            var stored: [String] = []
            var refused: [String] = []
            let records = try request.decodeElements(
                of: Listing.self, decoder: decoder, onError: policy, maxTotalBytes: request.query[Int.self, at: "total"], timeout: .milliseconds(2_500))
            for try await element in records {
                switch element.result {
                case .success(let listing): stored.append("\(element.index):\(listing.id)")
                case .failure(let error): refused += (ProblemDetails(error)?.errors ?? []).map { "\($0.pointer) \($0.code)" }
                }
            }
            return stored.joined(separator: ",") + "|" + refused.joined(separator: ",")
        }
    }
}

extension VaporTests {
@Suite struct VaporStreamedBodyTests {
    static let ndjson: HTTPHeaders = ["Content-Type": "application/x-ndjson"]
    static func lines(_ records: [String]) -> ByteBuffer { ByteBuffer(string: records.map { $0 + "\n" }.joined()) }

    /// 23 records (about 5 KB) pass the middleware's 4 KiB whole-body cap: each is decoded
    /// alone, a failure is an entry under its index, the records around it are stored.
    @Test func eachRecordIsStoredOrRefusedUnderItsIndex() async throws {
        let records = [AdapterFixtures.valid, AdapterFixtures.breaksRules, AdapterFixtures.malformed]
            + Array(repeating: AdapterFixtures.valid, count: 20)
        try await withApp(configure: VaporStreamFixture.configure) { app in
            try await app.testing().test(.POST, "import", headers: Self.ndjson, body: Self.lines(records)) { response in
                #expect(response.status == .ok)
                let answer = String(buffer: response.body).split(separator: "|", omittingEmptySubsequences: false)
                #expect(answer.first?.split(separator: ",").count == 21)
                #expect(answer.last == "/1/price patternMismatch,/1/tags empty,/2 unterminatedObject")
            }
        }
    }

    /// `.stop`, the caps, and a media type that is no stream, each answered as a problem.
    @Test func refusalsAreProblems() async throws {
        let long = AdapterFixtures.valid.replacingOccurrences(of: "A desk lamp", with: String(repeating: "x", count: 1_000))
        let cases: [(String, HTTPHeaders, [String], HTTPStatus, [String])] = [
            ("import?stop=1", Self.ndjson, [AdapterFixtures.valid, AdapterFixtures.wrongShape], .unprocessableEntity,
             ["structure /1/id $[1].id typeMismatch"]),
            ("import?stop=1", Self.ndjson, [AdapterFixtures.valid, long], .payloadTooLarge, ["input /1 $[1] recordTooLarge"]),
            ("import?total=500", Self.ndjson, Array(repeating: AdapterFixtures.valid, count: 3), .payloadTooLarge,
             ["input  $ inputSizeLimitExceeded"]),
            ("import", ["Content-Type": "text/plain"], [AdapterFixtures.valid], .unsupportedMediaType, ["input  $ unsupportedMediaType"]),
        ]
        try await withApp(configure: VaporStreamFixture.configure) { app in
            for (path, headers, records, status, expected) in cases {
                try await app.testing().test(.POST, path, headers: headers, body: Self.lines(records)) { response in
                    #expect(response.status == status, "\(path)")
                    let details = try problem(response)
                    #expect(entries(details) == expected, "\(path)")
                }
            }
        }
    }
}

@Suite(.enabled(if: RawClient.available, "needs python3 to send a body slowly"))
struct VaporLiveStreamTests {
    func withServer(_ body: (Int) async throws -> Void) async throws {
        try await withLiveVaporServer(configure: VaporStreamFixture.configure, body)
    }

    /// Four records 1 s apart (3 s in all, past the 2.5 s deadline): each arrives within 2.5 s
    /// of the last, so the upload makes progress and is not cut.
    @Test func aSlowUploadThatMakesProgressIsNotCut() async throws {
        try await withServer { port in
            let answer = try await RawClient.post(
                port: port, path: "/import", contentType: "application/x-ndjson", ["records", "4", "1.0", AdapterFixtures.valid])
            #expect(answer.status == 200, "\(answer)")
            #expect(answer.body == "0:1,1:1,2:1,3:1|")
        }
    }

    /// A byte every 200 ms and never a newline: cut 2.5 s after the handler asked for the record (408).
    @Test func aStalledRecordIsCutAtTheDeadline() async throws {
        try await withServer { port in
            let answer = try await RawClient.post(port: port, path: "/import", contentType: "application/x-ndjson", ["trickle", "100", "0.2"])
            #expect(answer.status == 408, "\(answer)")
            #expect(answer.body.contains(#""code":"deadlineExceeded""#))
        }
    }
}
}
#endif
