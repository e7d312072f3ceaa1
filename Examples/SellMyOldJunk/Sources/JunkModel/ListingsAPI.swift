import Foundation
public import VettedCore
public import VettedJSON
public import VettedRaw
public import Vetted

// What server and client agree on besides the model: paths, headers, limits.

public enum ListingsAPI {
    /// `Content-Digest: sha-256=:BASE64:` (RFC 9530) — the SHA-256 of the body.
    public static let digestHeader = "Content-Digest"
    /// What the server's RFC 9421 signature on every response covers: the status,
    /// the media type and, through `Content-Digest`, the body.
    public static let signedComponents: [HTTPComponent] = [.status, .field("content-type"), .field("content-digest")]
    /// The `tag` of the server's signatures: a signature made for another application is refused.
    public static let signatureTag = "sell-my-old-junk"
    /// The label of the server's signature in `Signature-Input` and `Signature`.
    public static let signatureLabel = "junk"
    /// What the client demands of a response's signature: ``signedComponents`` covered,
    /// ``signatureTag``, at most five minutes old (one minute of clock skew).
    public static let signaturePolicy = HTTPSignaturePolicy(
        requiring: signedComponents, maximumAge: .seconds(300), clockSkew: .seconds(60), expectedTag: signatureTag)
    /// The largest listing a client may POST.
    public static let maximumPostBytes = 64 * 1024
    /// The largest `GET /listings` response a client accepts by default.
    public static let maximumResponseBytes = 4 * 1024 * 1024
    /// `GET /listings` and `GET /events` answer a page at a time: at most `limit` items
    /// (``pageSize`` when the query gives none, never more than ``maximumPageSize``) and at
    /// most ``maximumPageBytes`` of JSON, so however the data grows a page stays far inside
    /// ``maximumResponseBytes``. The next page starts `?after=` the last listing's id (for
    /// events: the number of events already read); an empty page is the end.
    public static let pageSize = 100
    public static let maximumPageSize = 500
    public static let maximumPageBytes = 1024 * 1024

    /// `POST /listings/import` takes a stream of listings (JSON Lines, a JSON text sequence
    /// or one array), each at most ``maximumPostBytes`` and at most this much in all.
    public static let maximumImportBytes = 256 * 1024 * 1024
    /// The path of the import.
    public static let importPath = "/listings/import"

    /// Parser limits for listings, on both sides: shallow documents, bounded size; a record of
    /// a stream (an import) as large as one POST.
    public static let parserLimits = Limits(maxInputBytes: maximumResponseBytes, maxDepth: 8, maxRecordBytes: maximumPostBytes)

    /// The decoder server and client share: the talk's ISO 8601 dates, ``parserLimits``,
    /// rule violations collected up to `maximumProblems`.
    public static func makeDecoder(maximumProblems: Int = 100) -> VettedJSONDecoder {
        let decoder = VettedJSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        decoder.limits = parserLimits
        decoder.validationMode = .collect(upTo: maximumProblems)
        return decoder
    }

    /// The header value for a SHA-256 digest given as base64.
    public static func digestHeaderValue(base64 digest: String) -> String { "sha-256=:\(digest):" }
}

/// What `POST /listings/import` answers (200) once the whole stream is read and every listing
/// stored: how many. The server also keeps its refusals here while it reads, each as RFC 9457
/// problem entries whose pointer starts with the record's index (`/17/price`), and answers them
/// as a problem (422, or 409 for ids in use alone). At most ``maximumEntries`` entries are
/// kept; ``omittedEntries`` counts the rest.
public struct ImportReport: Codable, Sendable, Hashable {
    public var imported = 0
    public var refused = 0
    public var errors: [ProblemDetails.Entry] = []
    public var omittedEntries = 0

    /// The most entries a report lists: the answer stays small whatever the stream holds.
    public static let maximumEntries = 100

    public init() {}

    /// Counts a refused record and lists its entries while there is room.
    public mutating func refuse(_ entries: [ProblemDetails.Entry]) {
        refused += 1
        let room = max(0, Self.maximumEntries - errors.count)
        errors += entries.prefix(room)
        omittedEntries += max(0, entries.count - room)
    }
}
