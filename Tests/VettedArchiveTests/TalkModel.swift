import Foundation
import Synchronization
import VettedArchive
import VettedCore
import VettedTestSupport

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
