// Samples of the articles (TheGate, ParsingJSON, PrimitiveRules, DecodingWithValidation, PropertyLists, KeyedArchivesOverview), compiled and run.
// Regions between `// sample:` and `// end sample` are the blocks, line for line (DocSampleTests
// checks it); the code around them supplies what a block assumes.

import Foundation
import Testing
// sample: ParsingJSON.md#1
import Vetted

// end sample

/// The README's model: a few of the talk's fields.
private
struct Listing: Codable, Equatable {
    enum Tag: String, Codable { case music, books }
    enum CodingKeys: String, CodingKey { case id, url, tags, created, lastUpdated = "last_updated" }
    var id: Int
    var url: String
    var tags: [Tag]
    var created: Date
    var lastUpdated: Date
}

private enum PurchaseError: Error { case tooEarly }
private let launch = Date(timeIntervalSince1970: 1_500_000_000)
private func show(_ listings: [Listing]) { print("\(listings.count) listings") }

private func listingsJSON(url: String = "https://example.com/1") -> Data {
    Data(#"[{"id": 1, "url": "\#(url)", "tags": ["music"], "created": "2024-01-01T00:00:00Z", "last_updated": "2024-01-02T00:00:00Z"}]"#.utf8)
}

// sample: DecodingWithValidation.md#1
extension Listing: Validatable {
    static let validation = Validation<Listing> {
        Field(CodingKeys.id, Rule<Int>.range(1...Int(Int32.max)))
        Field(CodingKeys.url, Rule<String>.url(URLPolicy(hosts: [.exact("example.com")], maximumLength: 50)))
        Field(CodingKeys.tags, Rule<[Tag]>.count(1...10))
        Relation(CodingKeys.lastUpdated, after: CodingKeys.created, as: Date.self)
    }
}
// end sample

private
// sample: KeyedArchivesOverview.md#1
final class Purchase: SecureCoding {
    static let supportsSecureCoding = true
    static let archiveClassNames = ["Purchase"]
    let listing: Listing        // a Codable struct, stored as Foundation stores one
    let date: Date

    init(listing: Listing, date: Date) { (self.listing, self.date) = (listing, date) }
    init?(coder: KeyedUnarchiver) {
        guard let listing = coder.decodeDecodable(Listing.self, forKey: "listing"),   // with Listing's rules
              let date = coder.decodeObject(of: Date.self, forKey: "date") else { return nil }   // only a date here
        guard date >= launch else { coder.failWithError(PurchaseError.tooEarly); return nil }
        (self.listing, self.date) = (listing, date)
    }
    func encode(with coder: KeyedArchiver) {
        coder.encodeEncodable(listing, forKey: "listing")
        coder.encode(date, forKey: "date")
    }
}
// end sample

@Suite struct ReadmeSampleTests {
    static func decoder() -> VettedJSONDecoder {
        let decoder = VettedJSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    /// The raw stage: a signed file with its digest passes the gate and decodes.
    @Test func gate() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("readme-gate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let key = SigningKey.generate(.ed25519)
        let publicKeyPath = folder.appendingPathComponent("server.pub").path
        try key.writeKeyFiles(privateKeyPath: folder.appendingPathComponent("server.key").path, publicKeyPath: publicKeyPath)
        let path = folder.appendingPathComponent("listings.json").path
        let bytes = listingsJSON()
        try bytes.write(to: URL(fileURLWithPath: path))
        let manifestDigest = DigestAlgorithm.sha256.digest(of: bytes).map { String(format: "%02x", $0) }.joined()
        let signatureHeader = try DetachedSignature.sign(bytes, with: key).base64
        let decoder = Self.decoder()
        // sample: TheGate.md#1
        let keys = try TrustedKeys(fileText: String(contentsOfFile: publicKeyPath, encoding: .utf8))   // server.pub
        let policy = GatePolicy(
            maxBytes: 1 << 20,                                     // refused from the file's size, or at the cap
            digest: try ExpectedDigest(.sha256, hexOrBase64: manifestDigest),
            signature: .detached(try DetachedSignature(base64: signatureHeader), trusting: keys),
            limits: Limits(maxDepth: 16))                          // for the parser, after the gate
        let listings = try decoder.decode([Listing].self, from: .file(path: path), policy: policy)
        // also: from: .bytes(…), .data(…), .fileHandle(…), or any AsyncSequence of byte chunks (an HTTP body)
        // end sample
        #expect(listings.map(\.id) == [1])
    }

    /// The parser: the duplicate key of the comments, at the offsets and place they give.
    @Test func parser() throws {
        let data = Data("[{\"id\": 1, \"price\": \"5\"},\n{\"id\":2,\n    \"id\":3}]".utf8)
        let error = #expect(throws: VettedError.self) {
            // sample: ParsingJSON.md#1
            do throws(VettedError) {
                let value = try JSONParser().parse(data)          // Data, [UInt8] or String
                let price = value[0]?["price"]?.stringValue
                let id = try value[0]?["id"]?.numberValue?.int64Value   // throws on overflow or fraction
                print(id ?? 0, price ?? "-")
            } catch {
                // `error` is a VettedError: the parser uses typed throws.
                print(error.code, error.offset ?? -1, error.path, error.location.map(String.init(describing:)) ?? "-")
                // duplicateKey 39 $[1].id 3:5
                print(error.message)              // duplicate key "id" (first at offset 27, again at offset 39)
                print(error.excerpt?.text ?? "")  // escaped, at most 40 bytes
            }

            try JSONParser().validate(data)   // validate-only: same checks and errors, no values built
            // end sample
        }
        #expect(error == VettedError(code: .duplicateKey, offset: 39, path: [.index(1), .key("id")]))
        #expect(error.map { $0.location.map(String.init(describing:)) } == "3:5")
        #expect(error?.message == #"duplicate key "id" (first at offset 27, again at offset 39)"#)
    }

    /// Rules on their own: the confusable URL and the name at its path.
    @Test func rules() throws {
        let error = #expect(throws: VettedError.self) {
            // sample: PrimitiveRules.md#1
            let launch = Date(timeIntervalSince1970: 1_525_132_800)          // 2018-05-01, the talk's app's launch
            let value = "Lamp\u{1B}[2J"                                       // a name with a terminal escape
            let id: Rule<Int> = .range(1...Int(Int32.max))
            let name: Rule<String> = .length(1...200) && .displaySafe()     // characters; .utf8Length for bytes
            let price: Rule<String> = .pattern(try LinearPattern("[0-9]+(\\.[0-9]{1,2})?"))
            let tags: Rule<[String]> = .count(1...10) && .unique && .each(.oneOf(["music", "books"]))
            let url: Rule<String> = .url(URLPolicy(schemes: ["https"], hosts: [.exact("example.com")], maximumLength: 50))
            let created: Rule<Date> = .within(notBefore: launch)             // and not after now + 5 minutes
            if let violation = url.check("https://ex\u{430}mple.com/") { print(violation) }
            // confusableHost: host mixes scripts in one label, a common disguise
            try name.validate(value, at: [.index(3), .key("name")])         // throws VettedError at $[3].name
            // end sample
            #expect(id.check(0)?.code == .outOfRange && price.check("1.5") == nil && tags.check(["music"]) == nil)
            #expect(created.check(Date.distantPast)?.code == .tooEarly)
            #expect(url.check("https://ex\u{430}mple.com/")?.code == .confusableHost)
            // The comment quotes what `print(violation)` shows.
            let shown = url.check("https://ex\u{430}mple.com/").map { "\($0)" } ?? ""
            #expect(shown.hasPrefix("confusableHost: host mixes scripts in one label, a common disguise"), "\(shown)")
        }
        #expect(error?.code == .controlCharacter)
        #expect(error?.path.description == "$[3].name")
    }

    /// Decoding with validation: a listing that passes, and one whose URL is a look-alike.
    @Test func decoding() throws {
        let decoder = Self.decoder()
        for data in [listingsJSON(), listingsJSON(url: "https://ex\u{430}mple.com/1")] {
            // sample: DecodingWithValidation.md#1
            do {
                let listings = try decoder.decode([Listing].self, from: data)
                show(listings)
            } catch let errors as ValidationErrors {
                for error in errors.errors { print(error.path, error.code, error.message) }  // $[3].url confusableHost …
            }
            // end sample
        }
        let errors = #expect(throws: ValidationErrors.self) {
            try decoder.decode([Listing].self, from: listingsJSON(url: "https://ex\u{430}mple.com/1"))
        }
        #expect(errors?.errors.map(\.code) == [.confusableHost])
        #expect(errors?.errors.map(\.path.description) == ["$[0].url"])
    }

    /// Property lists: an archive's root UID, written back in both formats.
    @Test func propertyLists() throws {
        let purchase = Purchase(listing: try Self.decoder().decode([Listing].self, from: listingsJSON())[0], date: Date())
        let data = try KeyedArchiver.archivedData(withRootObject: purchase, requiringSecureCoding: true)
        // sample: PropertyLists.md#1
        let value = try PlistParser().parse(data)          // bplist00 or XML, detected from the first bytes
        let root = value["$top"]?["root"]?.uidValue         // PlistValue: dictionary, array, string, data,
                                                           // date, integer, real, bool, uid
        let binary = PlistWriter.binary(value)             // [UInt8], bplist00
        let xml = try PlistWriter.xml(value)               // [UInt8], XML (throws for what XML cannot hold)
        // end sample
        #expect(root == 1)
        #expect(try PlistParser().parse(binary) == value)
        #expect(try PlistParser().parse(xml) == value)
    }

    /// Archives: a purchase round-trips; one dated before launch fails with its own error.
    @Test func archives() throws {
        let listing = try Self.decoder().decode([Listing].self, from: listingsJSON())[0]
        let purchase = Purchase(listing: listing, date: Date(timeIntervalSince1970: 1_600_000_000))
        // sample: KeyedArchivesOverview.md#1
        let data = try KeyedArchiver.archivedData(withRootObject: purchase, requiringSecureCoding: true)
        let again = try KeyedUnarchiver.unarchivedObject(ofClass: Purchase.self, from: data)
        // end sample
        #expect(again?.listing == listing)
        #expect(again?.date == purchase.date)
        let early = try KeyedArchiver.archivedData(
            withRootObject: Purchase(listing: listing, date: Date(timeIntervalSince1970: 0)), requiringSecureCoding: true)
        #expect(throws: PurchaseError.tooEarly) { try KeyedUnarchiver.unarchivedObject(ofClass: Purchase.self, from: early) }
    }
}
