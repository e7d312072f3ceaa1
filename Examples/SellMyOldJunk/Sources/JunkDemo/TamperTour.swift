public import Foundation
public import JunkClient
public import JunkModel
public import JunkServer
public import Vetted
import NIOCore

/// The demo's attacks: each changes what the client gets — the response (as
/// a compromised server before signing, or a man in the middle after), or a
/// file in the purchase history — and names the stage that must catch it.
public struct TamperStep: Sendable {
    public enum Target: Sendable {
        /// The first listing of the response, as a server would send it (then signed).
        case firstListing(@Sendable (inout JSONObject) -> Void)
        /// The body, before signing.
        case bodyBeforeSigning(@Sendable ([UInt8]) -> [UInt8])
        /// The body, after signing (the digest recomputed: a man in the middle who knows the format).
        case bodyAfterSigning(@Sendable ([UInt8]) -> [UInt8])
        /// The response's RFC 9421 signature.
        case signature(ListingsService.SignatureTamper)
        /// A genuine response whose body trickles in, a byte every 100 ms (the client's deadline: 1 s).
        case trickledBody
        /// A history file, given the folder and the file of a genuine purchase.
        case historyFile(@Sendable (_ folder: URL, _ genuine: URL) throws -> Void)
    }

    public var name: String
    public var attack: String
    public var target: Target
    /// What must catch it.
    public var expected: Expected

    public struct Expected: Sendable, Hashable {
        public var stage: Problem.Stage
        public var path: String
        public var code: String
    }

    public init(_ name: String, _ attack: String, _ target: Target, caughtAt stage: Problem.Stage, _ path: String, _ code: String) {
        self.name = name
        self.attack = attack
        self.target = target
        self.expected = Expected(stage: stage, path: path, code: code)
    }
}

/// The outcome of one step.
public struct TamperOutcome: Sendable {
    public var step: TamperStep
    /// What the strict client (or the history loader) reported; empty when nothing caught it.
    public var problems: [Problem]
    /// For response steps: what the lenient (skip-invalid-tags) client made of it.
    public var lenient: Result<CheckedListings, ListingsRejected>?

    /// The first problem is the expected one.
    public var caughtAsExpected: Bool {
        guard let first = problems.first else { return false }
        return first.stage == step.expected.stage && first.path == step.expected.path && first.code == step.expected.code
    }
}

extension TamperStep {
    /// Every attack of the tour, in order.
    public static let tour: [TamperStep] = [
        TamperStep(
            "flipped byte", "one bit of the body flipped in transit; the Content-Digest recomputed to match",
            .bodyAfterSigning { body in
                var body = body
                if !body.isEmpty { body[body.count / 2] ^= 0x04 }
                return body
            }, caughtAt: .raw, "$.signature.junk", "signatureMismatch"),
        TamperStep(
            "covers nothing", "a valid signature by the server's key that covers no component",
            .signature(.coversNothing), caughtAt: .raw, "$[\"signature-input\"].junk", "uncoveredComponent"),
        TamperStep(
            "replayed signature", "a genuine signature made an hour ago, replayed",
            .signature(.replayed(seconds: 3_600)), caughtAt: .raw, "$[\"signature-input\"].junk", "signatureExpired"),
        TamperStep(
            "unknown key", "signed by a key the client never pinned",
            .signature(.unknownKey), caughtAt: .raw, "$[\"signature-input\"].junk", "unknownKeyID"),
        TamperStep(
            "stripped signature", "Signature-Input and Signature removed in transit",
            .signature(.stripped), caughtAt: .raw, "$", "missingHTTPSignature"),
        TamperStep(
            "trickled body", "a genuine response whose body arrives one byte every 100 ms",
            .trickledBody, caughtAt: .raw, "$", "deadlineExceeded"),
        TamperStep(
            "oversize body", "5 MB of padding appended to a signed response",
            .bodyBeforeSigning { $0 + [UInt8](repeating: 0x20, count: 5_000_000) }, caughtAt: .raw, "$", "inputSizeLimitExceeded"),
        TamperStep(
            "tag is a number", "tags: [\"music\", 5]", .firstListing { $0["tags"] = ["music", 5] },
            caughtAt: .structure, "$[0].tags[1]", "typeMismatch"),
        TamperStep(
            "null tag", "tags: [\"music\", null]", .firstListing { $0["tags"] = ["music", JSONValue.null] },
            caughtAt: .structure, "$[0].tags[1]", "valueNotFound"),
        TamperStep(
            "negative id", "id: -1", .firstListing { $0["id"] = -1 }, caughtAt: .rules, "$[0].id", "outOfRange"),
        TamperStep(
            "id of 2^40", "id: 1099511627776", .firstListing { $0["id"] = 1_099_511_627_776 },
            caughtAt: .rules, "$[0].id", "outOfRange"),
        TamperStep(
            "empty description", "description: \"\"", .firstListing { $0["description"] = "" },
            caughtAt: .rules, "$[0].description", "empty"),
        TamperStep(
            "1 MB description", "description: 1,000,000 characters",
            .firstListing { $0["description"] = .string(String(repeating: "x", count: 1_000_000)) },
            caughtAt: .rules, "$[0].description", "tooLong"),
        TamperStep(
            "not a URL", "url: \"not a url\"", .firstListing { $0["url"] = "not a url" },
            caughtAt: .rules, "$[0].url", "invalidURL"),
        TamperStep(
            "phishing URL", "url: \"https://example.com@evil.test/1\" (userinfo trick)",
            .firstListing { $0["url"] = "https://example.com@evil.test/1" }, caughtAt: .rules, "$[0].url", "userInfoNotAllowed"),
        TamperStep(
            "look-alike host", "url: \"https://ex\u{430}mple.com/1\" (a Cyrillic а)",
            .firstListing { $0["url"] = "https://ex\u{430}mple.com/1" }, caughtAt: .rules, "$[0].url", "confusableHost"),
        TamperStep(
            "escape sequences in a name", "name: \"Lamp\\u{1B}[2J\\u{1B}]0;pwned\\u{07}\" (clear the screen, retitle the terminal)",
            .firstListing { $0["name"] = "Lamp\u{1B}[2J\u{1B}]0;pwned\u{07}" }, caughtAt: .rules, "$[0].name", "controlCharacter"),
        TamperStep(
            "updated before created", "last_updated a day before created",
            .firstListing { $0["last_updated"] = "2018-04-30T10:39:04Z" }, caughtAt: .rules, "$[0].last_updated", "relationViolated"),
        TamperStep(
            "swapped class", "a history file whose root class is UnexpectedClass (checksum recomputed)",
            .historyFile { folder, genuine in
                let archive = try KeyedArchiver.archivedData(withRootObject: UnexpectedClass(), requiringSecureCoding: true)
                let url = folder.appendingPathComponent("9999999999999-1-swapped.\(PurchaseHistory.fileExtension)")
                try Data(PurchaseHistory.fileBytes(archive: Array(archive))).write(to: url)
            }, caughtAt: .structured, "$.root", "classNotAllowed"),
        TamperStep(
            "NaN date", "a history file whose purchase date is NaN (checksum recomputed)",
            .historyFile { folder, genuine in
                let purchase = Purchase(listing: Listing.samples[0].archived, date: Date(timeIntervalSinceReferenceDate: .nan), receipt: Data(repeating: 7, count: 16))
                let archive = try KeyedArchiver.archivedData(withRootObject: purchase, requiringSecureCoding: true)
                let url = folder.appendingPathComponent("9999999999999-1-nan.\(PurchaseHistory.fileExtension)")
                try Data(PurchaseHistory.fileBytes(archive: Array(archive))).write(to: url)
            }, caughtAt: .rules, #"$.root.date["NS.time"]"#, "nonFiniteDate"),
        TamperStep(
            "truncated history file", "a copy of a genuine history file cut in half",
            .historyFile { folder, genuine in
                let bytes = try Data(contentsOf: genuine)
                let url = folder.appendingPathComponent("9999999999999-1-truncated.\(PurchaseHistory.fileExtension)")
                try bytes.prefix(bytes.count / 2).write(to: url)
            }, caughtAt: .raw, "$", "checksumMismatch"),
    ]
}

/// What an attacker would put in a purchase history: a class the app never asked for.
final class UnexpectedClass: SecureCoding, @unchecked Sendable {
    static let supportsSecureCoding = true
    static let archiveClassNames = ["UnexpectedClass"]
    init() {}
    init?(coder: KeyedUnarchiver) {}
    func encode(with coder: KeyedArchiver) {
        coder.encode("rm -rf ~", forKey: "command")
    }
}

/// Runs the tour against a running server and a history folder.
public struct TamperTour: Sendable {
    public var server: RunningServer
    public var client: ListingsClient
    public var history: PurchaseHistory

    public init(server: RunningServer, client: ListingsClient, history: PurchaseHistory) {
        self.server = server
        self.client = client
        self.history = history
    }

    public func run(_ step: TamperStep) async throws -> TamperOutcome {
        let service = server.service
        switch step.target {
        case .firstListing(let edit):
            service.setTamperHook(.init(.beforeSigning) { body in Self.editFirstListing(body, edit) })
        case .bodyBeforeSigning(let transform):
            service.setTamperHook(.init(.beforeSigning, transform))
        case .bodyAfterSigning(let transform):
            service.setTamperHook(.init(.afterSigning, transform))
        case .signature(let tamper):
            service.setTamperHook(.init(.signature(tamper)))
        case .trickledBody:
            service.setTamperHook(.init(.trickle))
        case .historyFile(let write):
            let genuine = try history.save(Purchase(listing: Listing.samples[0].archived, date: Date(), receipt: Data(repeating: 7, count: 16)))
            try write(history.folder, genuine)
            let loaded = try history.load()
            let problems = loaded.quarantined.filter { !$0.file.hasPrefix(genuine.lastPathComponent) }.flatMap(\.problems)
            return TamperOutcome(step: step, problems: problems, lenient: nil)
        }
        defer { service.setTamperHook(nil) }
        var client = client
        if case .trickledBody = step.target { client.timeout = .seconds(1) }
        var problems: [Problem] = []
        do {
            _ = try await client.listings(policy: .strict)
        } catch let rejected as ListingsRejected {
            problems = rejected.problems
        }
        var lenient: Result<CheckedListings, ListingsRejected>?
        do {
            lenient = .success(try await client.listings(policy: .skipInvalidTags))
        } catch let rejected as ListingsRejected {
            lenient = .failure(rejected)
        }
        return TamperOutcome(step: step, problems: problems, lenient: lenient)
    }

    /// Parses the response, edits its first listing, writes it back.
    static func editFirstListing(_ body: [UInt8], _ edit: (inout JSONObject) -> Void) -> [UInt8] {
        guard case .array(var listings)? = try? JSONParser().parse(body), case .object(var first)? = listings.first else { return body }
        edit(&first)
        listings[0] = .object(first)
        return JSONValue.array(listings).jsonBytes()
    }
}
