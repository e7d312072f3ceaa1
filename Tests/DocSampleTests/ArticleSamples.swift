// The DocC articles' samples, compiled and run (see DocSampleTests).
import Foundation
import Testing
import Vetted

// MARK: - Validating model types (VettedJSON.docc)

private enum ListingError: Error { case badID, badName, badDescription, badURL, badTags, badDates }

private
// sample: ValidatingModelTypes.md#1
struct Listing: Codable {
    enum Tag: String, Codable { case music, electric, acoustic, vintage, books, tools, garden, kids }
    enum CodingKeys: String, CodingKey {
        case id, name, description, price, sold, url, tags, created
        case lastUpdated = "last_updated"
    }

    var id: Int
    var name: String
    var description: String
    var price: String
    var sold: Bool
    var url: String
    var tags: [Tag]
    var created: Date
    var lastUpdated: Date

    func validate() throws {
        guard (1...Int(Int32.max)).contains(id) else { throw ListingError.badID }
        guard (1...200).contains(name.count) else { throw ListingError.badName }
        guard (1...5_000).contains(description.count) else { throw ListingError.badDescription }
        guard let components = URLComponents(string: url), components.scheme == "https",
              components.host == "example.com", url.count <= 50 else { throw ListingError.badURL }
        guard (1...10).contains(tags.count) else { throw ListingError.badTags }
        guard lastUpdated >= created else { throw ListingError.badDates }
    }
}
// end sample

// sample: ValidatingModelTypes.md#2
extension Listing: Validatable {
    static let validation = Validation<Listing> {
        Field(CodingKeys.id, Rule<Int>.range(1...Int(Int32.max)))
        Field(CodingKeys.name, Rule<String>.length(1...200))
        Field(CodingKeys.description, Rule<String>.length(1...5_000))
        Field(CodingKeys.price, Rule<String>.pattern("[0-9]+(\\.[0-9]{1,2})?", maximumLength: 32))
        Field(CodingKeys.url, Rule<String>.url(URLPolicy(schemes: ["https"], hosts: [.exact("example.com")], maximumLength: 50)))
        Field(CodingKeys.tags, Rule<[Tag]>.count(1...10))
        Relation(CodingKeys.lastUpdated, after: CodingKeys.created, as: Date.self)
    }
}

// end sample

private func listing(id: Int = 1, url: String = "https://example.com/1", updated: String = "2024-01-02T00:00:00Z") -> String {
    #"{"id": \#(id), "name": "Lamp", "description": "A lamp", "price": "5.00", "sold": false, "url": "\#(url)", "#
        + #""tags": ["electric"], "created": "2024-01-01T00:00:00Z", "last_updated": "\#(updated)"}"#
}

@Suite struct ValidatingModelTypesSampleTests {
    /// The hand-written checks and the declared rules agree on a valid listing and on a bad one.
    @Test func declarativeForm() throws {
        let data = Data("[\(listing()), \(listing(id: 2))]".utf8)
        // sample: ValidatingModelTypes.md#2
        let decoder = VettedJSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let listings = try decoder.decode([Listing].self, from: data)
        // end sample
        #expect(listings.map(\.id) == [1, 2])
        for listing in listings { try listing.validate() }

        let bad = Data("[\(listing()), \(listing(id: 0, url: "https://example.com@evil.test/", updated: "2023-01-01T00:00:00Z"))]".utf8)
        let errors = #expect(throws: ValidationErrors.self) { try decoder.decode([Listing].self, from: bad) }
        #expect(errors?.errors.map(\.code) == [.outOfRange, .userInfoNotAllowed, .relationViolated])
        #expect(errors?.errors.map(\.path.description) == ["$[1].id", "$[1].url", "$[1].last_updated"])
    }

    /// Skipping: the valid listing is kept, the invalid one set aside with its errors.
    @Test func skipping() throws {
        let decoder = VettedJSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let data = Data("[\(listing()), \(listing(id: 0))]".utf8)
        var shown: [[Listing]] = []
        func show(_ listings: [Listing]) { shown.append(listings) }
        // sample: ValidatingModelTypes.md#3
        let page = try decoder.decode(Skipping<Listing>.self, from: data)
        show(page.values)
        for skipped in page.skipped {
            print("listing \(skipped.index) skipped: \(skipped.error)")
        }
        // end sample
        #expect(shown.first?.map(\.id) == [1])
        #expect(page.skipped.map(\.index) == [1])
        #expect((page.skipped.first?.error as? ValidationErrors)?.errors.map(\.code) == [.outOfRange])
    }
}

// MARK: - Secure archives (VettedArchive.docc)

private let appLaunch = Date(timeIntervalSince1970: 1_500_000_000)
private enum PurchaseError: Error { case implausibleDate }

/// The Codable listing the articles share (a few of its fields here), with a rule.
private struct ArticleListing: Codable, Validatable {
    var name: String
    static let validation = Validation<ArticleListing> { Field("name", Rule<String>.length(1...200)) }
}

/// The article's `Purchase` stores the Codable `Listing`.
private enum SecureArchivesArticle {
    typealias Listing = ArticleListing

    // sample: SecureArchives.md#1
    final class Purchase: SecureCoding {
        static let supportsSecureCoding = true
        static let archiveClassNames = ["Purchase"]

        let listing: Listing   // the Codable `Listing` of the other articles, with its rules
        let date: Date

        init?(coder: KeyedUnarchiver) {
            guard let listing = coder.decodeDecodable(Listing.self, forKey: "listing"),
                  let date = coder.decodeObject(of: Date.self, forKey: "date")
            else { return nil }
            guard date >= appLaunch, date <= Date() else {
                coder.failWithError(PurchaseError.implausibleDate)   // a domain failure
                return nil
            }
            self.listing = listing
            self.date = date
        }

        func encode(with coder: KeyedArchiver) {
            coder.encodeEncodable(listing, forKey: "listing")
            coder.encode(date, forKey: "date")
        }
    }

    // end sample

    struct Written: SecureCoding {
        static let supportsSecureCoding = true
        static let archiveClassNames = ["Purchase"]
        let listing: Listing, date: Date
        init(listing: Listing, date: Date) { (self.listing, self.date) = (listing, date) }
        init?(coder: KeyedUnarchiver) { return nil }
        func encode(with coder: KeyedArchiver) {
            coder.encodeEncodable(listing, forKey: "listing")
            coder.encode(date, forKey: "date")
        }
    }
}

@Suite struct SecureArchivesSampleTests {
    private typealias Purchase = SecureArchivesArticle.Purchase

    @Test func roundTripAndDomainFailure() throws {
        let purchase = SecureArchivesArticle.Written(listing: ArticleListing(name: "Lamp"), date: Date(timeIntervalSince1970: 1_600_000_000))
        // sample: SecureArchives.md#1
        let data = try KeyedArchiver.archivedData(withRootObject: purchase, requiringSecureCoding: true)
        let again = try KeyedUnarchiver.unarchivedObject(ofClass: Purchase.self, from: data)
        // end sample
        #expect(again?.listing.name == "Lamp")
        let early = try KeyedArchiver.archivedData(
            withRootObject: SecureArchivesArticle.Written(listing: ArticleListing(name: "Lamp"), date: Date(timeIntervalSince1970: 0)),
            requiringSecureCoding: true)
        #expect(throws: PurchaseError.implausibleDate) { try KeyedUnarchiver.unarchivedObject(ofClass: Purchase.self, from: early) }
    }
}

// MARK: - Raw data (VettedRaw.docc)

@Suite struct RawDataSampleTests {
    @Test func oneCallForEveryStage() throws {
        let file = try SignedFileFixture("rawdata", algorithm: .p256, bytes: Data("[\(listing())]".utf8))
        defer { file.remove() }
        let (trustedKeysPath, path, signatureHeader) = (file.publicKeyPath, file.path, file.signatureHeader)
        // sample: RawData.md#3
        let keys = try TrustedKeys(fileText: String(contentsOfFile: trustedKeysPath, encoding: .utf8))
        let policy = GatePolicy(
            maxBytes: 1 << 20,
            signature: .detached(try DetachedSignature(base64: signatureHeader), trusting: keys),
            limits: Limits(maxDepth: 16))
        let decoder = VettedJSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let listings = try decoder.decode([Listing].self, from: .file(path: path), policy: policy)
        // end sample
        #expect(listings.map(\.id) == [1])
        try file.overwrite(with: file.bytes.dropLast())
        let error = #expect(throws: VettedError.self) { try decoder.decode([Listing].self, from: .file(path: path), policy: policy) }
        #expect(error?.code == .payloadLengthMismatch)  // the signature covers the length, checked first
    }

    @Test func httpMessageSignatures() throws {
        let serverKey = SigningKey.generate(.ed25519)
        let keys = try TrustedKeys([serverKey.verificationKey])
        let body = Array("[\(listing())]".utf8)
        let decoder = VettedJSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        // sample: RawData.md#1
        var response = HTTPMessage(
            status: 200, fields: [.init(name: "Content-Type", value: "application/json")], body: body)
        response.setContentDigest()
        try HTTPSignatures.sign(
            &response, label: "junk", covering: [.status, .field("content-type"), .field("content-digest")],
            with: serverKey, tag: "sell-my-old-junk")
        // end sample
        #expect(response.values(of: "signature-input").first?.hasPrefix(#"junk=("@status" "content-type" "content-digest");created="#) == true)
        // sample: RawData.md#2
        let policy = HTTPSignaturePolicy(
            requiring: [.status, .field("content-type")],  // and content-digest: requireContentDigest is on by default
            maximumAge: .seconds(300), expectedTag: "sell-my-old-junk")
        let verified = try HTTPSignatures.verify(response, trusting: keys, policy: policy)
        let listings = try decoder.decode([Listing].self, from: try verified.verifiedBody.bytes)
        // end sample
        #expect(listings.map(\.id) == [1])
        #expect(verified.signatureBase.hasPrefix("\"@status\": 200\n\"content-type\": application/json\n\"content-digest\": sha-256=:"))
    }
}
