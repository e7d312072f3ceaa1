import Foundation
public import Hummingbird
import HTTPTypes
public import JunkModel
import Synchronization
import Vetted

/// The routes of the listings server.
///
/// Every response carries a SHA-256 `Content-Digest` and an Ed25519
/// `Vetted-Signature` of its body (error reports too).
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
    private let cache = Mutex<(generation: Int, bodies: [String: SignedBody])>((0, [:]))
    private let tamper = Mutex<TamperHook?>(nil)
    private let names: HeaderNames

    public init(store: ListingsStore, identity: ServerIdentity) throws {
        self.store = store
        self.identity = identity
        self.names = try HeaderNames()
    }

    /// A body and the headers that vouch for it.
    public struct SignedBody: Sendable {
        public var body: [UInt8]
        public var digestBase64: String
        public var signatureBase64: String
    }

    /// For the demo's tamper tour only: what a compromised server (before
    /// signing) or a man in the middle (after signing) does to a response.
    public struct TamperHook: Sendable {
        public enum Point: Sendable { case beforeSigning, afterSigning }
        public var point: Point
        public var transform: @Sendable ([UInt8]) -> [UInt8]
        public init(_ point: Point, _ transform: @escaping @Sendable ([UInt8]) -> [UInt8]) {
            self.point = point
            self.transform = transform
        }
    }

    /// Sets (or clears) the tamper hook for the responses that follow.
    public func setTamperHook(_ hook: TamperHook?) { tamper.withLock { $0 = hook } }

    /// The signed `GET /listings` body for `tag` (all listings when nil).
    public func signedListings(tagged tag: Listing.Tag?) async throws -> SignedBody {
        let hook = tamper.withLock { $0 }
        let cacheKey = tag?.rawValue ?? ""
        let (generation, cached) = cache.withLock { ($0.generation, $0.bodies[cacheKey]) }
        if hook == nil, let cached { return cached }
        var body = try Self.encoder.encode(try await store.listings(tagged: tag)).map { $0 }
        // Validate first: the server refuses to sign what its own rules reject.
        _ = try Self.decoder.decode([Listing].self, from: body)
        if let hook, hook.point == .beforeSigning { body = hook.transform(body) }
        var signed = try sign(body)
        if let hook, hook.point == .afterSigning {
            // A man in the middle changes the body and, knowing the format, fixes the digest; not the signature.
            signed.body = hook.transform(body)
            signed.digestBase64 = Data(DigestAlgorithm.sha256.digest(of: signed.body)).base64EncodedString()
        }
        if hook == nil {
            cache.withLock { if $0.generation == generation { $0.bodies[cacheKey] = signed } }
        }
        return signed
    }

    private func sign(_ body: [UInt8]) throws -> SignedBody {
        SignedBody(
            body: body, digestBase64: Data(DigestAlgorithm.sha256.digest(of: body)).base64EncodedString(),
            signatureBase64: try DetachedSignature.sign(body, with: identity.signingKey).base64)
    }

    /// Routes for `GET /listings` and `POST /listings`.
    public func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.get("listings") { request, _ -> Response in
            await self.getListings(request)
        }
        router.post("listings") { request, _ -> Response in
            await self.postListing(request)
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
            return response(.ok, try await signedListings(tagged: tag))
        } catch {
            return problems(.internalServerError, [Problem(stage: .store, path: "$", code: "storeUnavailable", message: "the listings could not be read")])
        }
    }

    private func postListing(_ request: Request) async -> Response {
        // JSON only: a body declared as anything else is not read at all.
        let contentType = request.headers[.contentType] ?? ""
        let mediaType = contentType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        guard mediaType == "application/json" else {
            return problems(
                .unsupportedMediaType,
                [Problem(stage: .request, path: "$", code: "unsupportedMediaType", message: "the body must be application/json")])
        }
        let limit = ListingsAPI.maximumPostBytes
        if let declared = request.headers[.contentLength].flatMap({ Int($0) }), declared > limit {
            return tooLarge(limit)
        }
        let listing: Listing
        do {
            listing = try await Self.decoder.decode(
                Listing.self, from: request.body.map(\.readableBytesView), policy: GatePolicy(maxBytes: limit, limits: ListingsAPI.parserLimits))
        } catch let error as VettedError where error.code == .inputSizeLimitExceeded {
            return tooLarge(limit)
        } catch {
            return problems(.badRequest, Problem.all(in: error))
        }
        do {
            guard try await store.add(listing) else {
                return problems(.conflict, [Problem(stage: .store, path: "$.id", code: "idInUse", message: "a listing with this id exists")])
            }
        } catch {
            return problems(.internalServerError, [Problem(stage: .store, path: "$", code: "storeUnavailable", message: "the listing could not be saved")])
        }
        cache.withLock {
            $0.generation += 1
            $0.bodies.removeAll()
        }
        return problems(.created, [])
    }

    private func tooLarge(_ limit: Int) -> Response {
        problems(.contentTooLarge, [Problem(stage: .raw, path: "$", code: "inputSizeLimitExceeded", message: "the body is over \(limit) bytes")])
    }

    /// A problem report (empty for 201), signed like every response.
    private func problems(_ status: HTTPResponse.Status, _ problems: [Problem]) -> Response {
        let body = (try? Self.encoder.encode(ProblemReport(errors: problems))).map { Array($0) } ?? Array("{\"errors\":[]}".utf8)
        guard let signed = try? sign(body) else {
            return Response(status: .internalServerError, headers: [.contentType: "application/json"])
        }
        return response(status, signed)
    }

    /// Every response carries the SHA-256 and the signature of its body.
    private func response(_ status: HTTPResponse.Status, _ signed: SignedBody) -> Response {
        var headers: HTTPFields = [.contentType: "application/json"]
        headers[names.digest] = ListingsAPI.digestHeaderValue(base64: signed.digestBase64)
        headers[names.signature] = signed.signatureBase64
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: signed.body)))
    }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return encoder
    }()

    static let decoder = ListingsAPI.makeDecoder()
}

/// Header names, made once: `HTTPField.Name`'s initializer is failable.
private struct HeaderNames: Sendable {
    let digest: HTTPField.Name
    let signature: HTTPField.Name
    init() throws {
        guard let digest = HTTPField.Name(ListingsAPI.digestHeader), let signature = HTTPField.Name(ListingsAPI.signatureHeader)
        else { throw CocoaError(.featureUnsupported) }
        self.digest = digest
        self.signature = signature
    }
}
