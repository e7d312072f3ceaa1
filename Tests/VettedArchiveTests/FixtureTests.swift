import Foundation
import Testing
import VettedArchive
import VettedCore
import VettedTestSupport
import VettedPlist

/// The 46 archives written by Apple's Foundation, in ../shared (skipped with a message when absent).
enum AppleArchives {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/fixtures/keyed-archives/apple")

    static var names: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
            .filter { $0.hasSuffix(".archive") || $0.hasSuffix(".plist") }.sorted()
    }

    static func data(_ name: String) throws -> Data { try Data(contentsOf: folder.appendingPathComponent(name)) }

    /// Archives made only of Apple's value classes.
    static let valueOnly: Set<String> = [
        "NSKeyedUnarchiver-ArrayTest.plist", "NSKeyedUnarchiver-ComplexTest.plist", "NSKeyedUnarchiver-OrderedSetTest.plist",
        "NSKeyedUnarchiver-URLTest.plist", "NSKeyedUnarchiver-UUIDTest.plist", "NSMutableOrderedSet-Empty.archive",
        "NSMutableOrderedSet-Numbers.archive", "NSMutableSet-Empty.archive", "NSMutableSet-Numbers.archive", "NSOrderedSet-Empty.archive",
        "NSOrderedSet-Numbers.archive", "NSSet-Empty.archive", "NSSet-Numbers.archive",
    ]

    /// Whether the fixtures are there; tests that need them are skipped, and say so, when not.
    static var present: Bool { !names.isEmpty }
    static let absent: Comment = "Apple's keyed archives are not at ../shared/fixtures/keyed-archives/apple"
}

@Suite struct AppleFixtureTests {
    /// Every archive can be inspected without instantiating anything; value-only ones decode;
    /// the others fail with a clean secure-coding error.
    @Test(.enabled(if: AppleArchives.present, AppleArchives.absent))
    func everyAppleArchiveIsInspectedAndDecodedOrCleanlyRefused() throws {
        #expect(AppleArchives.names.count == 46)
        var decoded = 0
        for name in AppleArchives.names {
            let data = try AppleArchives.data(name)
            let graph = try ArchiveGraph(parsing: Array(data))
            #expect(!graph.classNames().isEmpty, "\(name)")
            do {
                _ = try KeyedUnarchiver.unarchivedObject(ofClass: ArchivedValue.self, from: data)
                #expect(AppleArchives.valueOnly.contains(name), "\(name) decoded but holds other classes")
                decoded += 1
            } catch let error as VettedError {
                #expect(!AppleArchives.valueOnly.contains(name), "\(name): \(error)")
                #expect(error.code == .classNotAllowed, "\(name): \(error)")
            }
        }
        #expect(decoded == AppleArchives.valueOnly.count)
    }

    @Test(.enabled(if: AppleArchives.present, AppleArchives.absent))
    func valueArchivesDecodeToTheExpectedValues() throws {
        #expect(
            try KeyedUnarchiver.unarchivedArrayOfObjects(ofClass: String.self, from: AppleArchives.data("NSKeyedUnarchiver-ArrayTest.plist"))
                == ["baa", "baa", "black", "sheep"])
        #expect(
            try KeyedUnarchiver.unarchivedObject(ofClass: Set<Int>.self, from: AppleArchives.data("NSSet-Numbers.archive")) == [1, 2, 3, 4, 5])
        #expect(try KeyedUnarchiver.unarchivedObject(ofClass: Set<Int>.self, from: AppleArchives.data("NSSet-Empty.archive")) == [])
        let ordered = try KeyedUnarchiver.unarchivedObject(
            ofClass: ArchiveOrderedSet<String>.self, from: AppleArchives.data("NSKeyedUnarchiver-OrderedSetTest.plist"))
        #expect(ordered?.elements == ["valgeir", "nico", "puzzle"])
        let uuid = try KeyedUnarchiver.unarchivedObject(ofClass: UUID.self, from: AppleArchives.data("NSKeyedUnarchiver-UUIDTest.plist"))
        #expect(uuid?.uuidString == "0AD863BA-7584-40CF-8896-BD87B3280C34")
        let url = try KeyedUnarchiver.unarchivedObject(ofClass: URL.self, from: AppleArchives.data("NSKeyedUnarchiver-URLTest.plist"))
        #expect(url?.absoluteString == "https://www.example.com/foo.xml")
        let complex = try KeyedUnarchiver.unarchivedObject(ofClass: ArchivedValue.self, from: AppleArchives.data("NSKeyedUnarchiver-ComplexTest.plist"))
        guard case .dictionary(let keys, let values)? = complex else {
            Issue.record("ComplexTest is not a dictionary: \(String(describing: complex))")
            return
        }
        let entries = Dictionary(uniqueKeysWithValues: zip(keys, values))
        #expect(entries[.string("string")] == .string("hello"))
        #expect(entries[.string("array")] == .array([.null, .string("hello"), .integer(34545), .dictionary([.string("key")], [.string("val")])]))
        if case .url(let nested)? = entries[.string("url")] { #expect(nested.absoluteString == "https://www.swift.org/index.xml") } else { Issue.record("no url") }
        if case .uuid? = entries[.string("uuid")] {} else { Issue.record("no uuid") }
    }

    /// Archives written by Vetted, read back by Vetted, equal to what was written, for every value class.
    @Test func valueClassesRoundTrip() throws {
        let value: ArchivedValue = .dictionary(
            [.string("strings"), .string("numbers"), .string("things")],
            [
                .array([.string("a"), .string("a"), .string("ü")]),
                .set([.integer(1), .integer(-2), .real(2.5), .bool(true)]),
                .orderedSet([
                    .date(Date(timeIntervalSinceReferenceDate: 12.5)), .uuid(UUID(uuidString: "0AD863BA-7584-40CF-8896-BD87B3280C34") ?? UUID()),
                    .url(URL(string: "https://example.com/x") ?? URL(fileURLWithPath: "/")), .null, .data(Data([1, 2])),
                ]),
            ])
        let data = try KeyedArchiver.archivedData(withRootObject: value)
        #expect(try KeyedUnarchiver.unarchivedObject(ofClass: ArchivedValue.self, from: data) == value)
        let typed: [String: [Int]] = ["a": [1, 2], "b": []]
        let typedData = try KeyedArchiver.archivedData(withRootObject: typed)
        #expect(try KeyedUnarchiver.unarchivedDictionary(ofKeyClass: String.self, objectClass: [Int].self, from: typedData) == typed)
    }
}

@Suite struct IndependentWriterTests {
    /// The archive fuzz seeds were written by Python's plistlib, independently of Vetted's writer.
    @Test func archivesWrittenByPlistlibDecode() throws {
        let seeds = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fuzz/seeds/archive")
        let one = try Data(contentsOf: seeds.appendingPathComponent("purchase.bplist"))
        #expect(try KeyedUnarchiver.unarchivedObject(ofClass: Purchase.self, from: one) == Purchase.sample)
        let two = try Data(contentsOf: seeds.appendingPathComponent("purchases.bplist"))
        let purchases = try #require(try KeyedUnarchiver.unarchivedArrayOfObjects(ofClass: Purchase.self, from: two))
        #expect(purchases == [Purchase.sample, Purchase.sample])
        #expect(purchases[0] === purchases[1])  // one object, referenced twice
    }
}
