import Foundation
import Synchronization
import Testing
import VettedArchive
import VettedCore
import VettedTestSupport
import VettedPlist

/// The attacks of "Data You Can Trust", each refused before any code of a non-allowed class runs.
@Suite(.serialized) struct AttackTests {
    @Test func purchasesRoundTrip() throws {
        let data = try KeyedArchiver.archivedData(withRootObject: Purchase.sample, requiringSecureCoding: true)
        let decoded = try KeyedUnarchiver.unarchivedObject(ofClass: Purchase.self, from: data)
        #expect(decoded == Purchase.sample)
    }

    /// A root of class UnexpectedClass decoded as a Purchase: refused, and its init never runs.
    @Test func anUnexpectedRootClassIsRefusedAndNeverRuns() throws {
        let data = try KeyedArchiver.archivedData(withRootObject: UnexpectedClass(), requiringSecureCoding: true)
        let error = archiveError { try KeyedUnarchiver.unarchivedObject(ofClass: Purchase.self, from: data) }.vetted
        #expect(error == VettedError(code: .classNotAllowed, path: [.key("root")]))
        #expect(error?.message == "the archive holds class UnexpectedClass here; allowed: Purchase")
        #expect(UnexpectedClass.initialized.withLock { $0 } == false)
    }

    /// The same substitution one level down: "listing" holds an UnexpectedClass.
    @Test func anUnexpectedNestedClassIsRefusedWithItsPath() throws {
        let data = try KeyedArchiver.archivedData(withRootObject: Impostor(listing: UnexpectedClass()), requiringSecureCoding: true)
        let error = archiveError { try KeyedUnarchiver.unarchivedObject(ofClass: Purchase.self, from: data) }.vetted
        #expect(error == VettedError(code: .classNotAllowed, path: [.key("root"), .key("listing")]))
        #expect(error?.message.hasSuffix("allowed: ArchiveListing") == true)
        #expect(UnexpectedClass.initialized.withLock { $0 } == false)
    }

    /// `$classes` grants nothing: "Evil" claiming to be a Purchase is still Evil.
    @Test func theArchivesOwnClassListIsNeverTrusted() throws {
        let genuine = try KeyedArchiver.archivedData(withRootObject: Purchase.sample)
        let evil = try renamingClass(genuine, "Purchase", to: "Evil", classes: ["Evil", "Purchase", "NSObject"])
        let error = archiveError { try KeyedUnarchiver.unarchivedObject(ofClass: Purchase.self, from: evil) }.vetted
        #expect(error == VettedError(code: .classNotAllowed, path: [.key("root")]))
    }

    @Test func anAllowedClassThatIsNotSecureIsRefused() throws {
        let data = try KeyedArchiver.archivedData(withRootObject: NotSecure(), requiringSecureCoding: false)
        let error = archiveError { try KeyedUnarchiver.unarchivedObject(ofClass: NotSecure.self, from: data) }.vetted
        #expect(error == VettedError(code: .secureCodingNotSupported, path: [.key("root")]))
        // Writing it with secure coding required fails too.
        let writing = archiveError { try KeyedArchiver.archivedData(withRootObject: NotSecure(), requiringSecureCoding: true) }.vetted
        #expect(writing?.code == .unencodableValue)
    }

    /// Writing a subclass that only inherits its superclass's names is refused: it would read back as the superclass.
    @Test func theArchiverRefusesASubclassWithoutItsOwnNames() throws {
        let error = archiveError { try KeyedArchiver.archivedData(withRootObject: Sneaky()) }.vetted
        #expect(error?.code == .secureCodingNotSupported)
        // Without secure coding required, it is written (under the parent's name), as Foundation would.
        #expect(throws: Never.self) { try KeyedArchiver.archivedData(withRootObject: Sneaky(), requiringSecureCoding: false) }
        // A subclass that declares its own names is written under them.
        #expect(throws: Never.self) { try KeyedArchiver.archivedData(withRootObject: Declared()) }
    }

    /// The talk's escape hatch: a subclass that inherits its superclass's conformance.
    @Test func aSubclassThatOnlyInheritsItsConformanceIsRefused() throws {
        let base = try KeyedArchiver.archivedData(withRootObject: Base())
        let sneaky = try renamingClass(base, "Base", to: "Sneaky", classes: ["Sneaky", "Base", "NSObject"])
        let before = Base.initializedSubclasses.withLock { $0 }

        // Not registered: an unknown name.
        #expect(archiveError { try KeyedUnarchiver.unarchivedObject(ofClass: Base.self, from: sneaky) }.vetted?.code == .classNotAllowed)
        // Registered, but it declares no names of its own.
        let unarchiver = try KeyedUnarchiver(forReadingFrom: sneaky)
        unarchiver.setClass(Sneaky.self, forClassName: "Sneaky")
        #expect(unarchiver.decodeObject(of: Base.self, forKey: "root") == nil)
        #expect((unarchiver.error as? VettedError) == VettedError(code: .secureCodingNotSupported, path: [.key("root")]))
        // Allowed directly, it would read "Base" objects as Sneaky: refused as well.
        #expect(archiveError { try KeyedUnarchiver.unarchivedObject(ofClass: Sneaky.self, from: base) }.vetted?.code == .secureCodingNotSupported)
        #expect(Base.initializedSubclasses.withLock { $0 } == before)

        // A subclass that declares its own conformance, registered for its superclass, is read.
        let declared = try KeyedArchiver.archivedData(withRootObject: Declared())
        let reader = try KeyedUnarchiver(forReadingFrom: declared)
        reader.setClass(Declared.self, forClassName: "Declared")
        #expect(reader.decodeObject(of: Base.self, forKey: "root") is Declared)
        #expect(reader.error == nil)
        // …but only where its superclass is allowed.
        let elsewhere = try KeyedUnarchiver(forReadingFrom: declared)
        elsewhere.setClass(Declared.self, forClassName: "Declared")
        #expect(elsewhere.decodeObject(of: Purchase.self, forKey: "root") == nil)
        #expect((elsewhere.error as? VettedError)?.code == .classNotAllowed)
    }

    @Test func typeConfusionIsCorruptionNotACrash() throws {
        let genuine = try KeyedArchiver.archivedData(withRootObject: Purchase.sample)
        // $class pointing at a string instead of a class dictionary.
        let badClass = try rewritten(genuine) { objects, _ in
            guard let index = objectIndex(ofClass: "Purchase", in: objects), case .dictionary(var object) = objects[index] else { return }
            let stringIndex = objects.firstIndex { $0.stringValue == "Guitar" } ?? 0
            object["$class"] = .uid(UInt64(stringIndex))
            objects[index] = .dictionary(object)
        }
        #expect(
            archiveError { try KeyedUnarchiver.unarchivedObject(ofClass: Purchase.self, from: badClass) }.vetted
                == VettedError(code: .archiveCorrupted, path: [.key("root")]))
        // A UID out of range, at the top and inside.
        let outOfRange = try rewritten(genuine) { objects, _ in
            guard let index = objectIndex(ofClass: "Purchase", in: objects), case .dictionary(var object) = objects[index] else { return }
            object["listing"] = .uid(9_999)
            objects[index] = .dictionary(object)
        }
        #expect(
            archiveError { try KeyedUnarchiver.unarchivedObject(ofClass: Purchase.self, from: outOfRange) }.vetted
                == VettedError(code: .archiveCorrupted, path: [.key("root"), .key("listing")]))
        let badTop = try rewritten(genuine) { _, top in top["root"] = .uid(1_000_000) }
        #expect(archiveError { try KeyedUnarchiver.unarchivedObject(ofClass: Purchase.self, from: badTop) }.vetted?.code == .archiveCorrupted)
        // NS.keys and NS.objects of different lengths.
        let dictionary = try KeyedArchiver.archivedData(withRootObject: ["a": 1, "b": 2])
        let uneven = try rewritten(dictionary) { objects, _ in
            guard let index = objectIndex(ofClass: "NSDictionary", in: objects), case .dictionary(var object) = objects[index],
                case .array(let keys)? = object["NS.keys"]
            else { return }
            object["NS.keys"] = .array(Array(keys.dropLast()))
            objects[index] = .dictionary(object)
        }
        let unevenError = archiveError {
            try KeyedUnarchiver.unarchivedDictionary(ofKeyClass: String.self, objectClass: Int.self, from: uneven)
        }.vetted
        #expect(unevenError == VettedError(code: .archiveCorrupted, path: [.key("root")]))
        #expect(unevenError?.message == "NS.keys has 1 elements and NS.objects 2")
        // A string where a dictionary (a Purchase) is expected.
        let string = try KeyedArchiver.archivedData(withRootObject: "just a string")
        #expect(
            archiveError { try KeyedUnarchiver.unarchivedObject(ofClass: Purchase.self, from: string) }.vetted
                == VettedError(code: .classNotAllowed, path: [.key("root")]))
    }

    @Test func primitiveTypeMismatches() throws {
        let archiver = KeyedArchiver()
        archiver.encode(3, forKey: "integer")
        archiver.encode(2.5, forKey: "double")
        archiver.encode("text", forKey: "object")
        archiver.encode(Int64.max, forKey: "big")
        let data = archiver.encodedData
        let cases: [(String, (KeyedUnarchiver) -> Void, VettedError.Code)] = [
            ("double", { _ = $0.decodeInteger(forKey: "double") }, .typeMismatch),
            ("integer", { _ = $0.decodeDouble(forKey: "integer") }, .typeMismatch),
            ("object", { _ = $0.decodeInteger(forKey: "object") }, .typeMismatch),
            ("integer", { _ = $0.decodeObject(of: String.self, forKey: "integer") }, .typeMismatch),
            ("big", { _ = $0.decodeInt32(forKey: "big") }, .numberOutOfRange),
            ("integer", { _ = $0.decodeBool(forKey: "integer") }, .typeMismatch),
        ]
        for (key, decode, code) in cases {
            let unarchiver = try KeyedUnarchiver(forReadingFrom: data)
            decode(unarchiver)
            #expect((unarchiver.error as? VettedError) == VettedError(code: code, path: [.key(key)]), "\(key)")
        }
        let unarchiver = try KeyedUnarchiver(forReadingFrom: data)
        #expect(unarchiver.decodeInteger(forKey: "integer") == 3)
        #expect(unarchiver.decodeDouble(forKey: "double") == 2.5)
        #expect(unarchiver.decodeInt64(forKey: "big") == Int64.max)
        #expect(unarchiver.decodeObject(of: String.self, forKey: "object") == "text")
        // A missing value is not a failure, and containsValue tells it apart.
        #expect(unarchiver.decodeInteger(forKey: "missing") == 0)
        #expect(!unarchiver.containsValue(forKey: "missing") && unarchiver.containsValue(forKey: "integer"))
        #expect(unarchiver.error == nil)
    }
}

@Suite struct FailurePolicyTests {
    static func data() throws -> Data {
        let archiver = KeyedArchiver()
        archiver.encode(2.5, forKey: "double")
        archiver.encode(7, forKey: "integer")
        return archiver.encodedData
    }

    /// The first error sticks, later decodes do nothing, the top level throws it.
    @Test func theFirstErrorSticks() throws {
        let unarchiver = try KeyedUnarchiver(forReadingFrom: Self.data())
        #expect(unarchiver.decodeInteger(forKey: "double") == 0)
        let first = try #require(unarchiver.error as? VettedError)
        #expect(first == VettedError(code: .typeMismatch, path: [.key("double")]))
        #expect(unarchiver.decodeInteger(forKey: "integer") == 0)  // valid, but decoding has stopped
        unarchiver.failWithError(Purchase.DateBeforeLaunch())
        #expect((unarchiver.error as? VettedError) == first)
        #expect(throws: first) { _ = try unarchiver.finish(Optional(1)) }
    }

    /// failWithError reports the type's own domain failure: the talk's purchase date before launch.
    @Test func failWithErrorCarriesADomainFailure() throws {
        let early = Purchase(listing: Purchase.sample.listing, date: Date(timeIntervalSince1970: 0), receipt: Data([1]))
        let data = try KeyedArchiver.archivedData(withRootObject: early)
        #expect(throws: Purchase.DateBeforeLaunch()) { _ = try KeyedUnarchiver.unarchivedObject(ofClass: Purchase.self, from: data) }
    }

    /// raiseException never ends the process; objects finished after the failure are discarded.
    @Test func raiseExceptionIsSafe() throws {
        let early = Purchase(listing: Purchase.sample.listing, date: Date(timeIntervalSince1970: 0), receipt: Data([1]))
        let data = try KeyedArchiver.archivedData(withRootObject: [early])
        let unarchiver = try KeyedUnarchiver(forReadingFrom: data)
        unarchiver.decodingFailurePolicy = .raiseException
        #expect(unarchiver.decodeArrayOfObjects(ofClass: Purchase.self, forKey: "root") == nil)
        #expect(unarchiver.error is Purchase.DateBeforeLaunch)
    }
}

@Suite struct GraphTests {
    /// Shared references decode to one instance; a cycle is an error, never a hang.
    @Test func sharedReferencesAndCycles() throws {
        let shared = Node()
        let data = try KeyedArchiver.archivedData(withRootObject: [Node(next: shared), Node(next: shared)])
        let nodes = try #require(try KeyedUnarchiver.unarchivedArrayOfObjects(ofClass: Node.self, from: data))
        #expect(nodes.count == 2 && nodes[0].next === nodes[1].next)

        let a = Node()
        let b = Node(next: a)
        a.next = b
        let cyclic = try KeyedArchiver.archivedData(withRootObject: a)
        a.next = nil  // break the cycle for memory
        let error = archiveError { try KeyedUnarchiver.unarchivedObject(ofClass: Node.self, from: cyclic) }.vetted
        #expect(error == VettedError(code: .archiveCycle, path: [.key("root"), .key("next"), .key("next")]))
    }

    /// Classes recurse in their own `init(coder:)`: past the depth a stack
    /// budget allows, a typed error at the chain's own path, never a crash,
    /// on a thread with a 512 KiB stack.
    @Test func deepChainsFailWithADepthErrorOnASmallStack() async throws {
        var chain = Node()
        for _ in 0..<1_000 { chain = Node(next: chain) }
        let data = try KeyedArchiver.archivedData(withRootObject: chain, limits: Limits(maxDepth: 1_024))
        while let next = chain.next { chain = next }  // release iteratively
        let result = await onSmallStack { Result { try KeyedUnarchiver.unarchivedObject(ofClass: Node.self, from: data, limits: .unlimited) } }
        guard case .failure(let failure) = result, let error = failure as? VettedError else {
            Issue.record("expected a depth error, got \(result)")
            return
        }
        #expect(error.code == .depthLimitExceeded)
        #expect(error.message.hasPrefix("objects nest deeper than decoding may recurse on the stack"))
        let components = error.path.components
        #expect(components.count > 8 && components.count <= 1_000)
        #expect(components.enumerated().allSatisfy { index, component in component == .key(index == 0 ? "root" : "next") })
    }

    /// The budget is `Limits.maxStackBytes`; a smaller one stops shorter chains.
    @Test func aSmallerStackBudgetStopsShorterChains() async throws {
        var chain = Node()
        for _ in 0..<100 { chain = Node(next: chain) }
        let data = try KeyedArchiver.archivedData(withRootObject: chain)
        while let next = chain.next { chain = next }  // release iteratively
        let result = await onSmallStack {
            Result { try KeyedUnarchiver.unarchivedObject(ofClass: Node.self, from: data, limits: Limits(maxStackBytes: 8 << 10)) }
        }
        guard case .failure(let failure) = result, let error = failure as? VettedError else {
            Issue.record("expected a depth error, got \(result)")
            return
        }
        #expect(error.code == .depthLimitExceeded)
        #expect(error.message == "objects nest deeper than decoding may recurse on the stack (8 KiB, Limits.maxStackBytes)")
        #expect(error.path.components.count > 8 && error.path.components.count < 100)
    }

    @Test func depthAndSizeLimits() throws {
        var chain = Node()
        for _ in 0..<600 { chain = Node(next: chain) }
        let data = try KeyedArchiver.archivedData(withRootObject: chain, limits: Limits(maxDepth: 1_000))
        let error = archiveError { try KeyedUnarchiver.unarchivedObject(ofClass: Node.self, from: data, limits: Limits(maxDepth: 20)) }.vetted
        #expect(error?.code == .depthLimitExceeded)
        #expect(error?.message == "objects nest deeper than 20")
        #expect(error?.path.components.count == 21)
        let limited = archiveError {
            try KeyedUnarchiver.unarchivedArrayOfObjects(ofClass: Int.self, from: try KeyedArchiver.archivedData(withRootObject: Array(0..<100)), limits: Limits(maxMembers: 10))
        }.vetted
        #expect(limited?.code == .memberLimitExceeded)
        while let next = chain.next { chain = next }  // release iteratively

        // Writing is bounded too, for every kind of object: 700 nested arrays of value classes.
        var nested = ArchivedValue.null
        for _ in 0..<700 { nested = .array([nested]) }
        let writing = archiveError { try KeyedArchiver.archivedData(withRootObject: nested) }.vetted
        #expect(writing?.code == .depthLimitExceeded)
    }
}

/// An archived listing keeps to the JSON contract's rules: the history loader
/// refuses an id out of range, a name with escape sequences, an unknown tag.
@Suite struct ArchivedListingContractTests {
    func unarchive(_ listing: ArchiveListing) throws -> Purchase? {
        let purchase = Purchase(listing: listing, date: Date(timeIntervalSince1970: 1_600_000_000), receipt: Data([1]))
        let data = try KeyedArchiver.archivedData(withRootObject: purchase, requiringSecureCoding: true)
        return try KeyedUnarchiver.unarchivedObject(ofClass: Purchase.self, from: data)
    }

    @Test func theContractsRulesApply() throws {
        #expect(try unarchive(ArchiveListing(id: 7, name: "Lamp", tags: ["music"]))?.listing.id == 7)
        let cases: [(ArchiveListing, VettedError.Code, String)] = [
            (ArchiveListing(id: 0, name: "Lamp", tags: ["music"]), .outOfRange, "$.root.listing.id"),
            (ArchiveListing(id: Int(Int32.max) + 1, name: "Lamp", tags: ["music"]), .outOfRange, "$.root.listing.id"),
            (ArchiveListing(id: 1, name: "Lamp\u{1B}[2J", tags: ["music"]), .controlCharacter, "$.root.listing.name"),
            (ArchiveListing(id: 1, name: "", tags: ["music"]), .empty, "$.root.listing.name"),
            (ArchiveListing(id: 1, name: "Lamp", tags: ["music", "weapons"]), .notAllowed, "$.root.listing.tags[1]"),
            (ArchiveListing(id: 1, name: "Lamp", tags: []), .empty, "$.root.listing.tags"),
        ]
        for (listing, code, path) in cases {
            let error = #expect(throws: VettedError.self) { try unarchive(listing) }
            #expect(error?.code == code, "\(path)")
            #expect(error?.path.description == path)
        }
    }
}
