public import AsyncHTTPClient
public import Foundation
public import JunkModel
public import NIOCore
import NIOHTTP1
public import Vetted

/// The validating client: every response passes the raw stage (size cap, an
/// RFC 9421 signature by the pinned server key covering status, media type and
/// `Content-Digest`, the body's SHA-256), then the parser, then decoding with the talk's rules.
public struct ListingsClient: Sendable {
    public var baseURL: String
    /// The server's public key, pinned: the only key whose signatures are accepted.
    public var trustedKeys: TrustedKeys
    /// Largest response accepted; a larger `Content-Length` is refused before the body is read.
    public var maximumResponseBytes = ListingsAPI.maximumResponseBytes
    /// Deadline for a whole request, connect to last byte.
    public var timeout: TimeAmount = .seconds(10)
    private let http: HTTPClient

    /// Uses `http` (the caller shuts it down), or ``standardHTTP``: never a client
    /// that follows redirects, so a response from another host is never accepted.
    public init(baseURL: String, trustedKeys: TrustedKeys, http: HTTPClient = ListingsClient.standardHTTP) {
        self.baseURL = baseURL
        self.trustedKeys = trustedKeys
        self.http = http
    }

    /// The process's client for ``ListingsClient``s given none: redirects refused, with
    /// timeouts (like `HTTPClient.shared`, it lives as long as the process).
    public static let standardHTTP = makeHTTPClient()

    /// A client with its own connection pool and connect/read timeouts, refusing redirects.
    public static func makeHTTPClient() -> HTTPClient {
        var configuration = HTTPClient.Configuration()
        configuration.timeout = .init(connect: .seconds(5), read: .seconds(10))
        configuration.redirectConfiguration = .disallow
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    /// `GET /listings`, one page, checked at every stage: the listings whose id is over
    /// `after` (from the first when nil), at most `limit` (the server's ``ListingsAPI/pageSize``
    /// when nil). The next page is `after:` the last id received; an empty page is the end.
    public func listings(
        tagged tag: Listing.Tag? = nil, after: Int? = nil, limit: Int? = nil, policy: ResponsePolicy = .strict
    ) async throws -> CheckedListings {
        let query = [tag.map { "tag=\($0.rawValue)" }, after.map { "after=\($0)" }, limit.map { "limit=\($0)" }].compactMap { $0 }
        let verified = try await fetchVerified(path: "/listings" + (query.isEmpty ? "" : "?" + query.joined(separator: "&")))
        return try ListingsChecker().check(verified.bytes, policy: policy, report: verified.report)
    }

    /// `GET /events`, one page: the feed after its first `after` events, verified like every
    /// response, then decoded as the ``ListingEvent`` union with each payload's rules (an
    /// unknown event type is `unknownTag`). The next page is `after:` plus the count received.
    public func events(after: Int = 0, limit: Int? = nil) async throws -> [ListingEvent] {
        let query = ["after=\(after)"] + (limit.map { ["limit=\($0)"] } ?? [])
        let verified = try await fetchVerified(path: "/events?" + query.joined(separator: "&"))
        do {
            return try ListingsAPI.makeDecoder().decode([ListingEvent].self, from: verified.bytes)
        } catch {
            throw ListingsRejected(Problem.all(in: error, direct: .syntax))
        }
    }

    /// The raw stage of a GET: status, declared length, digest, signature.
    public func fetchVerified(path: String) async throws -> VerifiedBytes {
        try await withinDeadline { [self] in
            let response = try await http.execute(HTTPClientRequest(url: baseURL + path), timeout: timeout)
            guard response.status == .ok else {
                throw ListingsRejected([Problem(stage: .raw, path: "$", code: "httpStatus", message: "the server answered \(response.status.code)")])
            }
            return try await verify(response, maximumBytes: maximumResponseBytes)
        }
    }

    /// `exchange` — request, response head and the whole body — within ``timeout``:
    /// AsyncHTTPClient's own deadline ends at the head, so a server that trickles its
    /// body would otherwise hold the client as long as it likes.
    func withinDeadline<T: Sendable>(_ exchange: @escaping @Sendable () async throws -> T) async throws -> T {
        let seconds = Double(timeout.nanoseconds) / 1e9
        let message = "the exchange did not end within \(seconds) s"
        do {
            return try await Deadline.run(within: .nanoseconds(max(0, timeout.nanoseconds)), expired: message, exchange)
        } catch let error as VettedError where error.code == .deadlineExceeded {
            throw ListingsRejected([Problem(stage: .raw, path: "$", code: "deadlineExceeded", message: message)])
        }
    }

    /// Length, then the RFC 9421 signature (by the pinned key, under
    /// ``ListingsAPI/signaturePolicy``) and the body's `Content-Digest`, of any response of the server.
    func verify(_ response: HTTPClientResponse, maximumBytes: Int) async throws -> VerifiedBytes {
        if let declared = response.headers.first(name: "Content-Length").flatMap({ Int($0) }), declared > maximumBytes {
            throw ListingsRejected([
                Problem(stage: .raw, path: "$", code: "inputSizeLimitExceeded", message: "the response is \(declared) bytes; the limit is \(maximumBytes)")
            ])
        }
        do {
            let bounded = try await Gate.admit(response.body.map(\.readableBytesView), policy: GatePolicy(maxBytes: maximumBytes))
            let message = HTTPMessage(
                status: Int(response.status.code), fields: response.headers.map { HTTPMessage.Field(name: $0.name, value: $0.value) },
                body: bounded.bytes)
            let verified = try HTTPSignatures.verify(message, trusting: trustedKeys, policy: ListingsAPI.signaturePolicy)
            guard let body = verified.body else {
                // The policy requires content-digest, so a verified signature always vouches for the body.
                throw VettedError(code: .uncoveredComponent, message: "the signature does not cover the body")
            }
            return body
        } catch let error as VettedError {
            throw ListingsRejected(Problem.all(in: error, direct: .raw))
        }
    }

    /// `POST /listings`. Returns the status and, for a 4xx, the server's problems.
    public func add(_ listing: Listing) async throws -> (status: Int, problems: [Problem]) {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        return try await post(body: Array(try encoder.encode(listing)))
    }

    /// `POST /listings/{id}/price`. Returns the status and, for a 4xx, the server's problems.
    public func changePrice(of id: Int, to price: String) async throws -> (status: Int, problems: [Problem]) {
        try await post(body: Array(try JSONEncoder().encode(PriceUpdate(price: price))), path: "/listings/\(id)/price")
    }

    /// `POST /listings/import` with the file at `file`, sent as it is read (64 KiB at a time,
    /// never held whole) as `contentType` (`application/x-ndjson` by default; also
    /// `application/jsonl`, `application/json-seq` or `application/json` for one array).
    /// The answer is verified like any response (size, digest, signature) before it is read.
    ///
    /// - Returns: the server's ``ImportReport`` when every listing was stored (200); else the
    ///   problem's detail (how many records were refused and stored) and its entries: 422 for
    ///   records that broke the rules, 409 for ids in use, 413 over the total, 408 stalled, 415
    ///   not a stream of JSON.
    /// - Throws: ``ListingsRejected`` for an answer that does not verify; errors of the file or the network.
    public func importListings(
        from file: URL, contentType: String = "application/x-ndjson"
    ) async throws -> (status: Int, report: ImportReport?, detail: String, problems: [Problem]) {
        let handle = try FileHandle(forReadingFrom: file)
        defer { try? handle.close() }
        let chunks = AsyncThrowingStream<ByteBuffer, any Error> {
            guard let data = try handle.read(upToCount: 64 * 1024), !data.isEmpty else { return nil }
            return ByteBuffer(bytes: data)
        }
        var request = HTTPClientRequest(url: baseURL + ListingsAPI.importPath)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: contentType)
        request.body = .stream(chunks, length: .unknown)
        // No deadline for the whole exchange: a large import takes as long as it takes; the
        // server holds each record to its deadline, and the client's read timeout holds the answer.
        let response = try await http.execute(request, timeout: .hours(1))
        let status = Int(response.status.code)
        let verified = try await verify(response, maximumBytes: 256 * 1024)
        let decoder = VettedJSONDecoder()
        decoder.limits = Limits(maxInputBytes: 256 * 1024, maxDepth: 5)
        do {
            if status == 200 { return (status, try decoder.decode(ImportReport.self, from: verified.bytes), "", []) }
            let problem = try decoder.decode(ProblemDetails.self, from: verified.bytes)
            return (status, nil, problem.detail, problem.errors.map(Problem.init))
        } catch {
            throw ListingsRejected(Problem.all(in: error, direct: .syntax))
        }
    }

    /// `POST /listings` with any body. The answer is verified like any
    /// response (size, digest, signature) before its problem details (RFC 9457) are read.
    public func post(body: [UInt8], path: String = "/listings") async throws -> (status: Int, problems: [Problem]) {
        var request = HTTPClientRequest(url: baseURL + path)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(ByteBuffer(bytes: body))
        let (status, verified) = try await withinDeadline { [self, request] in
            let response = try await http.execute(request, timeout: timeout)
            return (Int(response.status.code), try await verify(response, maximumBytes: 256 * 1024))
        }
        if (200..<300).contains(status) { return (status, []) }
        do {
            let decoder = VettedJSONDecoder()
            decoder.limits = Limits(maxInputBytes: 256 * 1024, maxDepth: 4)
            return (status, try decoder.decode(ProblemDetails.self, from: verified.bytes).errors.map(Problem.init))
        } catch {
            throw ListingsRejected(Problem.all(in: error, direct: .syntax))
        }
    }
}
