import Foundation
public import Hummingbird
import HTTPTypes
public import JunkModel
import Synchronization
public import Vetted
public import VettedHummingbird

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
/// - `POST /listings/import`: a stream of listings, each stored or refused as it arrives.
/// - `POST /listings`: one listing, checked with the same rules as the client.
///   More than ``ListingsAPI/maximumPostBytes`` → 413 (from `Content-Length`
///   before reading, or at the cap while reading); not JSON → 415; malformed → 400;
///   breaking a rule → 422; each as an RFC 9457 problem with each error's path and
///   code, never the payload; an id in use → 409; else 201.
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

    /// The signed `GET /listings` response for `tag` (every tag when nil): one page, the
    /// listings whose id is over `after`, at most `limit` of them and ``ListingsAPI/maximumPageBytes``.
    public func signedListings(
        tagged tag: Listing.Tag?, after: Int? = nil, limit: Int = ListingsAPI.pageSize
    ) async throws -> HTTPMessage {
        let hook = tamper.withLock { $0 }
        // Only first pages of the default size are kept: the query cannot fill the cache.
        let cacheKey = after == nil && limit == ListingsAPI.pageSize ? tag?.rawValue ?? "" : nil
        let (generation, cached) = cache.withLock { state in (state.generation, cacheKey.flatMap { state.bodies[$0] }) }
        var body: [UInt8]
        if hook == nil, let cached {
            body = cached
        } else {
            body = try Self.page(try await store.listings(tagged: tag, after: after, limit: limit))
            // Validate first: the server refuses to sign what its own rules reject.
            _ = try Self.decoder.decode([Listing].self, from: body)
            if hook == nil, let cacheKey {
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
    func sign(status: Int, _ body: [UInt8], tamper: SignatureTamper? = nil, contentType: String = "application/json") throws -> HTTPMessage {
        var message = HTTPMessage(status: status, fields: [.init(name: "Content-Type", value: contentType)], body: body)
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

    /// The signed `GET /events` response: one page of the feed, the events after the first
    /// `after`, at most `limit` of them and ``ListingsAPI/maximumPageBytes``, checked against
    /// its own rules before it is signed.
    public func signedEvents(after: Int = 0, limit: Int = ListingsAPI.pageSize) async throws -> HTTPMessage {
        let body = try Self.page(try await events().dropFirst(after).prefix(limit))
        _ = try Self.decoder.decode([ListingEvent].self, from: body)
        return try sign(status: 200, body)
    }

    /// A JSON array of `items` in order, each encoded as the whole array would encode it,
    /// stopping before the first that would take the page past ``ListingsAPI/maximumPageBytes``
    /// (the first always goes in: one item is at most a POST body, far below the page).
    static func page<Item: Encodable>(_ items: some Sequence<Item>) throws -> [UInt8] {
        var body: [UInt8] = [UInt8(ascii: "[")]
        var first = true
        for item in items {
            let encoded = try encoder.encode(item)
            guard first || body.count + 1 + encoded.count + 1 <= ListingsAPI.maximumPageBytes else { break }
            if !first { body.append(UInt8(ascii: ",")) }
            body += encoded
            first = false
        }
        body.append(UInt8(ascii: "]"))
        return body
    }

    /// Routes for `GET /listings`, `POST /listings`, `POST /listings/{id}/price`, `GET /events`,
    /// and `GET /openapi.json`, which describes them (their bodies' schemas are the model types' rules).
    ///
    /// Request bodies are read by VettedHummingbird: ``ListingsRequestContext`` gives
    /// Vetted's decoder, the cap and the deadline, and every refusal is a problem
    /// (RFC 9457) that ``SignedProblems`` signs like any other response.
    public func router() -> Router<ListingsRequestContext> {
        let router = Router(context: ListingsRequestContext.self)
        router.add(middleware: SignedProblems(service: self))
        router.add(middleware: DeclaredMethods(service: self))
        router.get("listings") { request, _ -> Response in
            try await self.getListings(request)
        }
        router.get("events") { request, _ -> Response in
            let (after, limit) = try Self.pageQuery(request)
            do {
                return self.response(try await self.signedEvents(after: after ?? 0, limit: limit))
            } catch {
                throw Self.storeUnavailable("the events could not be read")
            }
        }
        router.get("openapi.json") { _, _ -> Response in
            try self.signedResponse(status: 200, OpenAPIDocument.bytes)
        }
        router.post("listings") { request, context -> Response in
            try await self.postListing(try await request.decode(as: Listing.self, context: context))
        }
        router.post("listings/import") { request, context -> Response in
            try await self.importListings(request, context: context)
        }
        router.post("listings/:id/price") { request, context -> Response in
            guard let id = Self.pathInteger(context.parameters.get("id")) else { throw Self.noSuchListing }
            return try await self.postPrice(id: id, try await request.decode(as: PriceUpdate.self, context: context))
        }
        return router
    }

    /// A path's `{id}`, an integer as the document's schema means one: the number the segment
    /// writes, read by the same decoder as a body's `"id"` (so `42` and `42.0`, as JSON Schema's
    /// `integer` allows both), nothing but a number's characters; `nil` for anything else.
    public static func pathInteger(_ segment: String?) -> Int? {
        guard let segment, !segment.isEmpty, segment.utf8.count <= 32,
            segment.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || "-+.eE".utf8.contains($0) })
        else { return nil }
        return try? VettedJSONDecoder().decode(Int.self, from: Array(segment.utf8))
    }

    /// Each path the document describes (a template segment is `*`), and the methods it lists for
    /// it, read from the document itself; `GET /openapi.json`, served beside the API, is added.
    static let declaredPaths: [(path: [String], methods: [HTTPRequest.Method])] = {
        var paths: [(path: [String], methods: [HTTPRequest.Method])] = [(["openapi.json"], [.get])]
        for member in OpenAPIDocument.document.objectValue?["paths"]?.objectValue ?? JSONObject() {
            let (path, item) = (member.key, member.value)
            let segments = path.split(separator: "/").map { $0.hasPrefix("{") ? "*" : String($0) }
            let methods = (item.objectValue?.keys ?? []).compactMap { HTTPRequest.Method($0.uppercased()) }
                .filter { [.get, .put, .post, .delete, .options, .head, .patch, .trace].contains($0) }
            paths.append((segments, methods))
        }
        return paths
    }()

    /// The methods the document lists for `path`, or `nil` for a path it does not describe.
    static func declaredMethods(for path: String) -> [HTTPRequest.Method]? {
        let segments = path.split(separator: "/", omittingEmptySubsequences: true)
        for (template, methods) in declaredPaths where template.count == segments.count {
            if zip(template, segments).allSatisfy({ $0 == "*" || $0 == $1 }) { return methods }
        }
        return nil
    }

    static func methodNotAllowed(_ method: HTTPRequest.Method, _ allowed: [HTTPRequest.Method]) -> VettedProblem {
        let list = allowed.map(\.rawValue).joined(separator: ", ")
        return problem(
            405, "method-not-allowed", "This path does not take this method",
            Entry(pointer: "", path: "$", code: "methodNotAllowed", stage: "request", detail: "\(method.rawValue) is not one of this path's methods (\(list))"))
    }

    private func getListings(_ request: Request) async throws -> Response {
        var tag: Listing.Tag?
        if let raw = request.uri.queryParameters.get("tag") {
            guard let known = Listing.Tag(rawValue: raw) else {
                throw Self.problem(400, "unknown-tag", "Not one of the listing tags", Entry(pointer: "", path: "tag", code: "unknownTag", stage: "request", detail: "not one of the listing tags"))
            }
            tag = known
        }
        let (after, limit) = try Self.pageQuery(request)
        do {
            let message = try await signedListings(tagged: tag, after: after, limit: limit)
            if case .trickle? = tamper.withLock({ $0?.point }) { return trickled(message) }
            return response(message)
        } catch {
            throw Self.storeUnavailable("the listings could not be read")
        }
    }

    /// `?after=` (a non-negative integer) and `?limit=` (1 to ``ListingsAPI/maximumPageSize``,
    /// ``ListingsAPI/pageSize`` when absent); anything else is a 400 problem naming the parameter.
    static func pageQuery(_ request: Request) throws -> (after: Int?, limit: Int) {
        func refused(_ name: String, _ detail: String) -> VettedProblem {
            problem(400, "bad-page", "Not a page of this list", Entry(pointer: "", path: name, code: "badPage", stage: "request", detail: detail))
        }
        var after: Int?
        if let raw = request.uri.queryParameters.get("after") {
            guard let value = Int(raw), value >= 0 else { throw refused("after", "not a non-negative integer") }
            after = value
        }
        var limit = ListingsAPI.pageSize
        if let raw = request.uri.queryParameters.get("limit") {
            guard let value = Int(raw), (1...ListingsAPI.maximumPageSize).contains(value) else {
                throw refused("limit", "not an integer from 1 to \(ListingsAPI.maximumPageSize)")
            }
            limit = value
        }
        return (after, limit)
    }

    /// Forgets the validated bodies of `GET /listings`: the listings changed.
    private func invalidateCache() {
        cache.withLock {
            $0.generation += 1
            $0.bodies.removeAll()
        }
    }

    private func postListing(_ listing: Listing) async throws -> Response {
        let added: Bool
        do {
            added = try await store.add(listing)
        } catch {
            throw Self.storeUnavailable("the listing could not be saved")
        }
        guard added else {
            throw Self.problem(409, "id-in-use", "A listing with this id exists", Entry(pointer: "/id", path: "$.id", code: "idInUse", stage: "store", detail: "a listing with this id exists"))
        }
        invalidateCache()
        return try signedResponse(status: 201, Array("{}".utf8))
    }

    /// `POST /listings/import`: a stream of listings (`application/x-ndjson`, `application/jsonl`,
    /// `application/json-seq`, or one `application/json` array), read record by record and never
    /// held whole. Each valid listing is stored as it arrives. When every record was stored the
    /// answer is 200 and an ``ImportReport``; otherwise it is a problem whose entries are the
    /// refused records' errors under their index (`/17/price`), its detail how many were
    /// stored: 422 when any record broke the rules (its syntax, shape or rules), 409 when the
    /// only refusals were ids in use. A record is at most ``ListingsAPI/maximumPostBytes``, the stream at most
    /// ``ListingsAPI/maximumImportBytes`` (413), and each record must arrive within the body
    /// deadline of the one before (408): a slow upload that makes progress goes on, a stalled
    /// one is cut. Either refusal ends the import; the listings stored before it stay.
    private func importListings(_ request: Request, context: ListingsRequestContext) async throws -> Response {
        var report = ImportReport()
        var refusedForData = false
        do {
            let records = try request.decodeElements(
                of: Listing.self, context: context, onError: .skip, maxTotalBytes: ListingsAPI.maximumImportBytes)
            for try await record in records {
                switch record.result {
                case .success(let listing):
                    let added: Bool
                    do {
                        added = try await store.add(listing)
                    } catch {
                        throw Self.storeUnavailable("listing \(record.index) could not be saved; the \(report.imported) before it were")
                    }
                    if added {
                        report.imported += 1
                    } else {
                        report.refuse([
                            Entry(
                                pointer: "/\(record.index)/id", path: "$[\(record.index)].id", code: "idInUse", stage: "store",
                                detail: "a listing with this id exists")
                        ])
                    }
                case .failure(let error):
                    refusedForData = true
                    report.refuse(ProblemDetails(error)?.errors ?? [])
                }
            }
        } catch {
            if report.imported > 0 { invalidateCache() }
            throw error
        }
        if report.imported > 0 { invalidateCache() }
        guard report.refused > 0 else { return try signedResponse(status: 200, Array(try Self.encoder.encode(report))) }
        var entries = report.errors
        if report.omittedEntries > 0 {
            entries.append(Entry(pointer: "", path: "$", code: "moreErrors", stage: "rules", detail: "\(report.omittedEntries) more errors not listed"))
        }
        let total = report.imported + report.refused
        let details = ProblemDetails(
            type: refusedForData ? "urn:junk:problem:records-refused" : "urn:junk:problem:id-in-use",
            title: refusedForData ? "Records of the import were refused" : "Listings of the import have ids in use",
            status: refusedForData ? 422 : 409,
            detail: "\(report.refused) of \(total) records refused; the other \(report.imported) were stored", errors: entries)
        throw VettedProblem(details: details, underlying: VettedError(code: VettedError.Code("recordsRefused"), message: details.detail))
    }

    /// `POST /listings/{id}/price` with `{"price": "…"}`: the listing's new price, recorded
    /// for the event feed. 200; no such listing → 404; a price the rules refuse → 422.
    private func postPrice(id: Int, _ update: PriceUpdate) async throws -> Response {
        let changed: Bool
        do {
            changed = try await store.changePrice(id: id, to: update.price, at: Date())
        } catch {
            throw Self.storeUnavailable("the price could not be saved")
        }
        guard changed else { throw Self.noSuchListing }
        invalidateCache()
        return try signedResponse(status: 200, Array("{}".utf8))
    }

    /// How long a `POST` body may take to arrive, however slowly it trickles in.
    public var bodyTimeout: Duration { bodyTimeoutSetting.withLock { $0 } }
    /// Sets ``bodyTimeout`` (the tests shorten it).
    public func setBodyTimeout(_ timeout: Duration) { bodyTimeoutSetting.withLock { $0 = timeout } }
    private let bodyTimeoutSetting = Mutex<Duration>(.seconds(10))

    typealias Entry = ProblemDetails.Entry

    /// A problem of the app's own (not Vetted's): a stale id, storage that failed.
    static func problem(_ status: Int, _ kind: String, _ title: String, _ entry: Entry) -> VettedProblem {
        let details = ProblemDetails(type: "urn:junk:problem:\(kind)", title: title, status: status, detail: entry.detail, errors: [entry])
        return VettedProblem(details: details, underlying: VettedError(code: VettedError.Code(entry.code), message: entry.detail))
    }

    static let noSuchListing = problem(404, "no-such-listing", "No listing has this id", Entry(pointer: "", path: "id", code: "noSuchListing", stage: "request", detail: "no listing has this id"))

    static func storeUnavailable(_ detail: String) -> VettedProblem {
        problem(500, "store-unavailable", "The store is unavailable", Entry(pointer: "", path: "$", code: "storeUnavailable", stage: "store", detail: detail))
    }

    /// A signed response with a JSON body.
    func signedResponse(status: Int, _ body: [UInt8], contentType: String = "application/json") throws -> Response {
        response(try sign(status: status, body, contentType: contentType))
    }

    /// A problem as a signed `application/problem+json` response (unsigned, bare 500 if signing fails).
    func signedProblem(_ details: ProblemDetails) -> Response {
        guard let signed = try? signedResponse(status: details.status, details.json, contentType: ProblemDetails.mediaType) else {
            return Response(status: .internalServerError)
        }
        return signed
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

/// The server's request context: VettedHummingbird reads request bodies with
/// ``requestDecoder`` (the talk's rules and limits, ``ListingsAPI/makeDecoder(maximumProblems:)``),
/// at most ``ListingsAPI/maximumPostBytes`` of them, within ``bodyTimeout``.
public struct ListingsRequestContext: VettedRequestContext {
    public var coreContext: CoreRequestContextStorage
    /// Set for each request from ``ListingsService/bodyTimeout`` (by ``SignedProblems``).
    public var bodyTimeout: Duration = .seconds(10)

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
    }

    public var requestDecoder: VettedJSONDecoder { Self.decoder }
    public var maxUploadSize: Int { ListingsAPI.maximumPostBytes }

    static let decoder = ListingsService.decoder
}

/// Gives each request the service's body deadline, and answers every problem
/// (Vetted's refusals and the app's own) as a signed `application/problem+json` response.
/// A method the document does not list on a path it does (`TRACE /listings`, or a method no
/// one has heard of) is 405 with `Allow` (RFC 9110 §15.5.6), as a signed problem; 404 is for
/// paths the document does not have. HEAD goes on to the router, which answers it for GET.
struct DeclaredMethods: RouterMiddleware {
    let service: ListingsService

    func handle(
        _ request: Request, context: ListingsRequestContext, next: (Request, ListingsRequestContext) async throws -> Response
    ) async throws -> Response {
        guard request.method != .head, let allowed = ListingsService.declaredMethods(for: request.uri.path),
            !allowed.contains(request.method)
        else { return try await next(request, context) }
        var response = service.signedProblem(ListingsService.methodNotAllowed(request.method, allowed).details)
        response.headers[.allow] = allowed.map(\.rawValue).joined(separator: ", ")
        return response
    }
}

struct SignedProblems: RouterMiddleware {
    let service: ListingsService

    func handle(
        _ request: Request, context: ListingsRequestContext, next: (Request, ListingsRequestContext) async throws -> Response
    ) async throws -> Response {
        var context = context
        context.bodyTimeout = service.bodyTimeout
        do {
            return try await next(request, context)
        } catch {
            guard let problem = VettedProblem(error) else { throw error }
            return service.signedProblem(problem.details)
        }
    }
}
