// The talk's purchase history model ("Data You Can Trust", WWDC 2018) as
// secure-coding classes. Its home is the example app (`junk buy`, `junk
// history`); Vetted's archive tests, fuzz target and benchmark link to this file.

public import Foundation
public import VettedArchive
import VettedCore
import VettedRules

/// The talk's listing, as a secure-coding class.
public final class ArchiveListing: SecureCoding, Equatable, Sendable {
    public static let supportsSecureCoding = true
    public static let archiveClassNames = ["Listing"]
    public let id: Int
    public let name: String
    public let tags: [String]

    public init(id: Int, name: String, tags: [String]) {
        self.id = id
        self.name = name
        self.tags = tags
    }

    public init?(coder: KeyedUnarchiver) {
        guard let name = coder.decodeObject(of: String.self, forKey: "name"),
            let tags = coder.decodeArrayOfObjects(ofClass: String.self, forKey: "tags")
        else { return nil }
        let id = coder.decodeInteger(forKey: "id")
        // The JSON contract's rules hold for archived listings too: the same
        // rules of `Listing` on the fields both have, and tags from its list.
        if let error = Self.contractViolation(id: id, name: name, tags: tags, at: coder.codingPath) {
            coder.failWithError(error)
            return nil
        }
        self.id = id
        self.name = name
        self.tags = tags
    }

    /// The first of `Listing`'s rules that `id`, `name` or `tags` break, located under `path`.
    static func contractViolation(id: Int, name: String, tags: [String], at path: DocumentPath) -> VettedError? {
        func inside(_ key: String) -> DocumentPath { DocumentPath(path.components + [.key(key)]) }
        let rules = Listing.validation.fields
        for check in rules["id"] ?? [] { if let violation = check.check(id) { return violation.error(at: inside("id")) } }
        for check in rules["name"] ?? [] { if let violation = check.check(name) { return violation.error(at: inside("name")) } }
        if let violation = tagRule.check(tags) { return violation.error(at: inside("tags")) }
        return nil
    }

    /// `Listing`'s tag rule on tags archived as strings: built once, not per listing read.
    static let tagRule = Rule<[String]>.count(1...10) && .each(.oneOf(Set(Listing.Tag.allCases.map(\.rawValue))))

    public func encode(with coder: KeyedArchiver) {
        coder.encode(id, forKey: "id")
        coder.encode(name, forKey: "name")
        coder.encode(tags, forKey: "tags")
    }

    public static func == (a: ArchiveListing, b: ArchiveListing) -> Bool { a.id == b.id && a.name == b.name && a.tags == b.tags }
}

/// A purchase: a listing, a date and a receipt. Its date must not be before the app went live.
public final class Purchase: SecureCoding, Equatable, Sendable {
    public static let supportsSecureCoding = true
    public static let archiveClassNames = ["Purchase"]
    public static let launch = Date(timeIntervalSince1970: 1_525_132_800)  // 2018-05-01

    public struct DateBeforeLaunch: Error, Equatable { public init() {} }

    public let listing: ArchiveListing
    public let date: Date
    public let receipt: Data

    public init(listing: ArchiveListing, date: Date, receipt: Data) {
        self.listing = listing
        self.date = date
        self.receipt = receipt
    }

    public init?(coder: KeyedUnarchiver) {
        guard let listing = coder.decodeObject(of: ArchiveListing.self, forKey: "listing"),
            let date = coder.decodeObject(of: Date.self, forKey: "date"),
            let receipt = coder.decodeObject(of: Data.self, forKey: "receipt")
        else { return nil }
        guard date >= Self.launch else {
            coder.failWithError(DateBeforeLaunch())
            return nil
        }
        self.listing = listing
        self.date = date
        self.receipt = receipt
    }

    public func encode(with coder: KeyedArchiver) {
        coder.encode(listing, forKey: "listing")
        coder.encode(date, forKey: "date")
        coder.encode(receipt, forKey: "receipt")
    }

    public static func == (a: Purchase, b: Purchase) -> Bool { a.listing == b.listing && a.date == b.date && a.receipt == b.receipt }

    public static var sample: Purchase {
        Purchase(
            listing: ArchiveListing(id: 1, name: "Guitar", tags: ["music", "acoustic"]),
            date: Date(timeIntervalSince1970: 1_600_000_000), receipt: Data([0xCA, 0xFE]))
    }
}
