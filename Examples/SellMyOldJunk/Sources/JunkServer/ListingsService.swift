public import Foundation
public import Hummingbird
import HTTPTypes
public import JunkModel
import Synchronization
public import Vetted

/// The routes of the listings server.
///
/// Every response (error reports too) carries a SHA-256 `Content-Digest` of
/// its body and an RFC 9421 signature by the server's Ed25519 key
/// (`Signature-Input`/`Signature`, label `junk`) covering `@status`,
/// `content-type` and `content-digest`, with `created`, `keyid`, `alg` and `tag`.
///
/// - `GET /listings[?tag=TAG]`: the listings as the talk's JSON.
///   The server decodes its own body with the talk's rules before it signs it:
///   it never signs a listing the client would refuse.
/// - `POST /listings`: one listing, checked with the same rules as the client.
///   More than ``ListingsAPI/maximumPostBytes`` → 413 (from `Content-Length`
///   before reading, or at the cap while reading); invalid → 400 with each
///   error's path and code, never the payload; an id in use → 409; else 201.
public final class ListingsService: Sendable {
    public let store: ListingsStore
    public let identity: ServerIdentity
    /// Signed bodies by tag, and a generation that every change bumps (a body
    /// read before a change is never cached after it).
    private let cache = Mutex<(generation: Int, bodies: [String: [UInt8]])>((0, [:]))
    private let tamper = Mutex<TamperHook?>(nil)

    public init(store: ListingsStore, identity: ServerIdentity) throws {
        self.store = store
        self.identity = identity
    }

    /// For the demo's tamper tour only: what a compromised server (before
    /// signing) or a man in the middle (after signing) does to a response.
    public struct TamperHook: Sendable {
        public enum Point: Sendable {
            /// The body is changed, then signed.
            case beforeSigning
            /// The body is changed after signing, its `Content-Digest` recomputed.
            case afterSigning
            /// The body is left alone; the signature is made (or mangled) as `SignatureTamper` says.
            case signature(SignatureTamper)
            /// A genuine response, its body sent one byte every 100 ms: a slow sender.
            case trickle
        }
        public var point: Point
        public var transform: @Sendable ([UInt8]) -> [UInt8]
        public init(_ point: Point, _ transform: @escaping @Sendable ([UInt8]) -> [UInt8] = { $0 }) {
            self.point = point
            self.transform = transform
        }
    }

    /// What can go wrong with a response's signature.
    public enum SignatureTamper: Sendable {
        /// A valid signature by the server's key that covers no component.
        case coversNothing
        /// A genuine signature made `seconds` ago, replayed.
        case replayed(seconds: Int)
        /// Signed by a key the client does not know.
        case unknownKey
        /// `Signature-Input` and `Signature` removed in transit.
        case stripped
    }

    /// Sets (or clears) the tamper hook for the responses that follow.
    public func setTamperHook(_ hook: TamperHook?) { tamper.withLock { $0 = hook } }

    /// The signed `GET /listings` response for `tag` (all listings when nil).
    public func signedListings(tagged tag: Listing.Tag?) async throws -> HTTPMessage {
        let hook = tamper.withLock { $0 }
        let cacheKey = tag?.rawValue ?? ""
        let (generation, cached) = cache.withLock { ($0.generation, $0.bodies[cacheKey]) }
        var body: [UInt8]
        if hook == nil, let cached {
            body = cached
        } else {
            body = try Self.encoder.encode(try await store.listings(tagged: tag)).map { $0 }
            // Validate first: the server refuses to sign what its own rules reject.
            _ = try Self.decoder.decode([Listing].self, from: body)
            if hook == nil {
                let validated = body
                cache.withLock { if $0.generation == generation { $0.bodies[cacheKey] = validated } }
            }
        }
        guard let hook else { return try sign(status: 200, body) }
        switch hook.point {
        case .beforeSigning:
            return try sign(status: 200, hook.transform(body))
        case .afterSigning:
            // A man in the middle changes the body and, knowing the format, fixes the digest; not the signature.
            var message = try sign(status: 200, body)
            message.body = hook.transform(body)
            message.setContentDigest(.sha256)
            return message
        case .signature(let tamper):
            return try sign(status: 200, body, tamper: tamper)
        case .trickle:
            return try sign(status: 200, body)
        }
    }

    /// A response with `Content-Type`, `Content-Digest` and the server's RFC 9421 signature.
    func sign(status: Int, _ body: [UInt8], tamper: SignatureTamper? = nil) throws -> HTTPMessage {
        var message = HTTPMessage(status: status, fields: [.init(name: "Content-Type", value: "application/json")], body: body)
        message.setContentDigest(.sha256)
        var created = Date()
        var key = identity.signingKey
        switch tamper {
        case .coversNothing?:
            // Made by hand: Vetted's signer refuses to sign nothing.
            let parameters = "();created=\(Int(created.timeIntervalSince1970));keyid=\"\(key.keyID)\";tag=\"\(ListingsAPI.signatureTag)\""
            let signature = try key.signature(for: Array("\"@signature-params\": \(parameters)".utf8))
            message.append("Signature-Input", "\(ListingsAPI.signatureLabel)=\(parameters)")
            message.append("Signature", "\(ListingsAPI.signatureLabel)=:\(Data(signature).base64EncodedString()):")
            return message
        case .replayed(let seconds)?: created -= TimeInterval(seconds)
        case .unknownKey?: key = SigningKey.generate(.ed25519)
        case .stripped?, nil: break
        }
        try HTTPSignatures.sign(
            &message, label: ListingsAPI.signatureLabel, covering: ListingsAPI.signedComponents, with: key, created: created,
            tag: ListingsAPI.signatureTag)
        if case .stripped? = tamper {
            message.removeFields(named: "Signature-Input")
            message.removeFields(named: "Signature")
        }
        return message
    }

    /// The event feed: each listing's creation, its price changes and, when sold,
    /// its sale (at its last update), oldest first, as one tagged union.
    public func events() async throws -> [ListingEvent] {
        let changes = try await store.priceChanges()
        // Each listing was created at the price it had before its first change.
        var firstPrice: [Int: String] = [:]
        for change in changes where firstPrice[change.id] == nil { firstPrice[change.id] = change.oldPrice }
        var events: [ListingEvent] = []
        for listing in try await store.listings() {
            let first = firstPrice[listing.id] ?? listing.price
            events.append(.created(ListingCreated(id: listing.id, name: listing.name, price: first, tags: listing.tags, at: listing.created)))
            if listing.sold { events.append(.sold(ListingSold(id: listing.id, price: listing.price, at: listing.lastUpdated))) }
        }
        events += changes.map(ListingEvent.priceChanged)
        // Oldest first; events at the same time keep their order (a listing's creation first).
        return events.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
    }

    /// The signed `GET /events` response: the feed, checked against its own rules before it is signed.
    public func signedEvents() async throws -> HTTPMessage {
        let body = Array(try Self.encoder.encode(try await events()))
        _ = try Self.decoder.decode([ListingEvent].self, from: body)
        return try sign(status: 200, body)
    }

    /// Routes for `GET /listings`, `POST /listings` and `GET /events`.
    public func router() -> Router<ListingsRequestContext> {
        let router = Router(context: ListingsRequestContext.self)
        router.get("listings") { request, _ -> Response in
            await self.getListings(request)
        }
        router.get("events") { _, _ -> Response in
            do {
                return self.response(try await self.signedEvents())
            } catch {
                return self.problems(
                    .internalServerError, [Problem(stage: .store, path: "$", code: "storeUnavailable", message: "the events could not be read")])
            }
        }
        router.post("listings") { request, context -> Response in
            await self.postListing(request, context: context)
        }
        router.post("listings/:id/price") { request, context -> Response in
            await self.postPrice(request, context: context)
        }
        return router
    }

    private func getListings(_ request: Request) async -> Response {
        var tag: Listing.Tag?
        if let raw = request.uri.queryParameters.get("tag") {
            guard let known = Listing.Tag(rawValue: raw) else {
                return problems(.badRequest, [Problem(stage: .request, path: "tag", code: "unknownTag", message: "not one of the listing tags")])
            }
            tag = known
        }
        do {
            let message = try await signedListings(tagged: tag)
            if case .trickle? = tamper.withLock({ $0?.point }) { return trickled(message) }
            return response(message)
        } catch {
            return problems(.internalServerError, [Problem(stage: .store, path: "$", code: "storeUnavailable", message: "the listings could not be read")])
        }
    }

    /// A request body decoded as `T`, or the response that refuses it.
    private enum Body<T> {
        case value(T)
        case refused(Response)
    }

    /// The body of a POST as `T`: JSON only (any other media type is not read), at most
    /// ``ListingsAPI/maximumPostBytes``, within ``bodyTimeout``, decoded with the talk's rules.
    private func body<T: Decodable & Sendable>(_ type: T.Type, of request: Request, context: ListingsRequestContext) async -> Body<T> {
        // JSON only: a body declared as anything else is not read at all.
        let contentType = request.headers[.contentType] ?? ""
        let mediaType = contentType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        guard mediaType == "application/json" else {
            return .refused(
                problems(
                    .unsupportedMediaType,
                    [Problem(stage: .request, path: "$", code: "unsupportedMediaType", message: "the body must be application/json")]))
        }
        let limit = ListingsAPI.maximumPostBytes
        if let declared = request.headers[.contentLength].flatMap({ Int($0) }), declared > limit {
            return .refused(tooLarge(limit))
        }
        do {
            // Hummingbird's own request decoding, with the context's JSONDecoder: Vetted's
            // decoder behind `asJSONDecoder`. (Not `request.decode(as:)`, which turns a
            // DecodingError into a bare message and would lose each problem's path and code.)
            // The whole body within `bodyTimeout`: a sender that trickles it is cut off (408).
            let timeout = bodyTimeout
            return .value(
                try await Deadline.run(within: timeout, expired: "the body did not arrive within \(timeout)") {
                    try await context.requestDecoder.decode(T.self, from: request, context: context)
                })
        } catch let error as any HTTPResponseError where error.status == .contentTooLarge {  // NIOTooManyBytesError, from collect(upTo:)
            return .refused(tooLarge(limit))
        } catch let error as VettedError where error.code == .deadlineExceeded {
            return .refused(
                problems(
                    .requestTimeout,
                    [Problem(stage: .raw, path: "$", code: "deadlineExceeded", message: "the body did not arrive within \(bodyTimeout)")]))
        } catch {
            return .refused(problems(.badRequest, Problem.all(in: error)))
        }
    }

    /// Forgets the validated bodies of `GET /listings`: the listings changed.
    private func invalidateCache() {
        cache.withLock {
            $0.generation += 1
            $0.bodies.removeAll()
        }
    }

    private func postListing(_ request: Request, context: ListingsRequestContext) async -> Response {
        let listing: Listing
        switch await body(Listing.self, of: request, context: context) {
        case .value(let value): listing = value
        case .refused(let response): return response
        }
        do {
            guard try await store.add(listing) else {
                return problems(.conflict, [Problem(stage: .store, path: "$.id", code: "idInUse", message: "a listing with this id exists")])
            }
        } catch {
            return problems(.internalServerError, [Problem(stage: .store, path: "$", code: "storeUnavailable", message: "the listing could not be saved")])
        }
        invalidateCache()
        return problems(.created, [])
    }

    /// `POST /listings/{id}/price` with `{"price": "…"}`: the listing's new price, recorded
    /// for the event feed. 200; no such listing → 404; a price the rules refuse → 400.
    private func postPrice(_ request: Request, context: ListingsRequestContext) async -> Response {
        guard let id = context.parameters.get("id", as: Int.self) else {
            return problems(.notFound, [Problem(stage: .request, path: "id", code: "noSuchListing", message: "no listing has this id")])
        }
        let update: PriceUpdate
        switch await body(PriceUpdate.self, of: request, context: context) {
        case .value(let value): update = value
        case .refused(let response): return response
        }
        do {
            guard try await store.changePrice(id: id, to: update.price, at: Date()) else {
                return problems(.notFound, [Problem(stage: .request, path: "id", code: "noSuchListing", message: "no listing has this id")])
            }
        } catch {
            return problems(.internalServerError, [Problem(stage: .store, path: "$", code: "storeUnavailable", message: "the price could not be saved")])
        }
        invalidateCache()
        return problems(.ok, [])
    }

    /// How long a `POST` body may take to arrive, however slowly it trickles in.
    public var bodyTimeout: Duration { bodyTimeoutSetting.withLock { $0 } }
    /// Sets ``bodyTimeout`` (the tests shorten it).
    public func setBodyTimeout(_ timeout: Duration) { bodyTimeoutSetting.withLock { $0 = timeout } }
    private let bodyTimeoutSetting = Mutex<Duration>(.seconds(10))

    private func tooLarge(_ limit: Int) -> Response {
        problems(.contentTooLarge, [Problem(stage: .raw, path: "$", code: "inputSizeLimitExceeded", message: "the body is over \(limit) bytes")])
    }

    /// A problem report (empty for 201), signed like every response.
    private func problems(_ status: HTTPResponse.Status, _ problems: [Problem]) -> Response {
        let body = (try? Self.encoder.encode(ProblemReport(errors: problems))).map { Array($0) } ?? Array("{\"errors\":[]}".utf8)
        guard let signed = try? sign(status: Int(status.code), body) else {
            return Response(status: .internalServerError, headers: [.contentType: "application/json"])
        }
        return response(signed)
    }

    /// For the tamper tour: `message` with its body sent a byte at a time, one every 100 ms.
    private func trickled(_ message: HTTPMessage) -> Response {
        var plain = response(message)
        let body = message.body
        plain.body = ResponseBody { writer in
            for byte in body {
                try await writer.write(ByteBuffer(bytes: [byte]))
                try await Task.sleep(for: .milliseconds(100))
            }
            try await writer.finish(nil)
        }
        return plain
    }

    /// The signed message as Hummingbird's response: its status, every field line, its body.
    private func response(_ message: HTTPMessage) -> Response {
        var headers = HTTPFields()
        for field in message.fields {
            if let name = HTTPField.Name(field.name) { headers.append(HTTPField(name: name, value: field.value)) }
        }
        let status: HTTPResponse.Status = if case .response(let code) = message.start { .init(code: code) } else { .internalServerError }
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: message.body)))
    }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return encoder
    }()

    static let decoder = ListingsAPI.makeDecoder()
}

/// The server's request context: Hummingbird decodes request bodies with
/// ``requestDecoder``, here the talk's rules and limits (``ListingsAPI/makeDecoder(maximumProblems:)``)
/// behind Vetted's `asJSONDecoder`, and collects at most ``ListingsAPI/maximumPostBytes`` of a body.
public struct ListingsRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
    }

    public var requestDecoder: JSONDecoder { Self.decoder }
    public var maxUploadSize: Int { ListingsAPI.maximumPostBytes }

    static let decoder = ListingsService.decoder.asJSONDecoder
}
