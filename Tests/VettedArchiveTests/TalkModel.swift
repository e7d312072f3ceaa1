import Foundation
import Synchronization
import VettedArchive
import VettedCore

/// The talk's listing, as a secure-coding class.
final class ArchiveListing: SecureCoding, Equatable {
    static let supportsSecureCoding = true
    static let archiveClassNames = ["Listing"]
    let id: Int
    let name: String
    let tags: [String]

    init(id: Int, name: String, tags: [String]) {
        self.id = id
        self.name = name
        self.tags = tags
    }

    init?(coder: KeyedUnarchiver) {
        guard let name = coder.decodeObject(of: String.self, forKey: "name"),
            let tags = coder.decodeArrayOfObjects(ofClass: String.self, forKey: "tags")
        else { return nil }
        self.id = coder.decodeInteger(forKey: "id")
        self.name = name
        self.tags = tags
    }

    func encode(with coder: KeyedArchiver) {
        coder.encode(id, forKey: "id")
        coder.encode(name, forKey: "name")
        coder.encode(tags, forKey: "tags")
    }

    static func == (a: ArchiveListing, b: ArchiveListing) -> Bool { a.id == b.id && a.name == b.name && a.tags == b.tags }
}

/// A purchase: a listing, a date and a receipt. Its date must not be before the app went live.
final class Purchase: SecureCoding, Equatable {
    static let supportsSecureCoding = true
    static let archiveClassNames = ["Purchase"]
    static let launch = Date(timeIntervalSince1970: 1_525_132_800)  // 2018-05-01

    struct DateBeforeLaunch: Error, Equatable {}

    let listing: ArchiveListing
    let date: Date
    let receipt: Data

    init(listing: ArchiveListing, date: Date, receipt: Data) {
        self.listing = listing
        self.date = date
        self.receipt = receipt
    }

    init?(coder: KeyedUnarchiver) {
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

    func encode(with coder: KeyedArchiver) {
        coder.encode(listing, forKey: "listing")
        coder.encode(date, forKey: "date")
        coder.encode(receipt, forKey: "receipt")
    }

    static func == (a: Purchase, b: Purchase) -> Bool { a.listing == b.listing && a.date == b.date && a.receipt == b.receipt }

    static var sample: Purchase {
        Purchase(
            listing: ArchiveListing(id: 1, name: "Guitar", tags: ["music", "acoustic"]),
            date: Date(timeIntervalSince1970: 1_600_000_000), receipt: Data([0xCA, 0xFE]))
    }
}

/// Harmless, registered nowhere, and must never run: its init sets a flag.
final class UnexpectedClass: SecureCoding {
    static let supportsSecureCoding = true
    static let archiveClassNames = ["UnexpectedClass"]
    static let initialized = Mutex(false)
    init() {}
    init?(coder: KeyedUnarchiver) { Self.initialized.withLock { $0 = true } }
    func encode(with coder: KeyedArchiver) { coder.encode("payload", forKey: "x") }
}

/// Writes itself under another class's name, with another type at "listing": for crafting attacks.
struct Impostor: SecureCoding {
    static let supportsSecureCoding = true
    static let archiveClassNames = ["Purchase"]
    let listing: any SecureCoding
    init(listing: any SecureCoding) { self.listing = listing }
    init?(coder: KeyedUnarchiver) { return nil }
    func encode(with coder: KeyedArchiver) {
        coder.encode(listing, forKey: "listing")
        coder.encode(Date(timeIntervalSince1970: 1_600_000_000), forKey: "date")
        coder.encode(Data([1]), forKey: "receipt")
    }
}

/// Allowed but not secure.
final class NotSecure: SecureCoding {
    static let supportsSecureCoding = false
    static let archiveClassNames = ["NotSecure"]
    init() {}
    init?(coder: KeyedUnarchiver) {}
    func encode(with coder: KeyedArchiver) {}
}

/// A base class, a subclass that only inherits its conformance, and one that declares its own.
class Base: SecureCoding {
    class var supportsSecureCoding: Bool { true }
    class var archiveClassNames: [String] { ["Base"] }
    static let initializedSubclasses = Mutex(0)
    init() {}
    required init?(coder: KeyedUnarchiver) {
        if type(of: self) != Base.self { Self.initializedSubclasses.withLock { $0 += 1 } }
    }
    func encode(with coder: KeyedArchiver) {}
}

final class Sneaky: Base {}

final class Declared: Base {
    override class var archiveClassNames: [String] { ["Declared"] }
}

/// A node that may hold another: for cycles and depth.
final class Node: SecureCoding {
    static let supportsSecureCoding = true
    static let archiveClassNames = ["Node"]
    var next: Node?
    init(next: Node? = nil) { self.next = next }
    init?(coder: KeyedUnarchiver) {
        next = coder.decodeObject(of: Node.self, forKey: "next")
        if coder.error != nil { return nil }
    }
    func encode(with coder: KeyedArchiver) { coder.encode(next, forKey: "next") }
}
