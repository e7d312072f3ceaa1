import Foundation
import Testing
import VettedArchive
import VettedCore
import VettedPlist
import VettedRules

/// A collection whose key was damaged (one flipped byte) is corrupt at its
/// path, never an empty collection.
@Suite struct DamagedKeyTests {
    /// `bytes` with the first `from` replaced by `to` (same length).
    static func replacing(_ from: String, with to: String, in data: Data) throws -> Data {
        var bytes = Array(data)
        let needle = Array(from.utf8)
        let start = try #require(bytes.indices.first { bytes[$0...].starts(with: needle) })
        bytes.replaceSubrange(start..<start + needle.count, with: Array(to.utf8))
        return Data(bytes)
    }

    @Test func aDamagedArrayKeyIsCorrupt() throws {
        let data = try KeyedArchiver.archivedData(withRootObject: ["a", "b"])
        let damaged = try Self.replacing("NS.objects", with: "NS.objec.s", in: data)
        let error = archiveError { try KeyedUnarchiver.unarchivedArrayOfObjects(ofClass: String.self, from: damaged) }.vetted
        #expect(error?.code == .archiveCorrupted)
        #expect(error?.path == [.key("root"), .key("NS.objec.s")])
        let value = archiveError { try KeyedUnarchiver.unarchivedObject(ofClass: ArchivedValue.self, from: damaged) }.vetted
        #expect(value?.code == .archiveCorrupted)
    }

    @Test func aDamagedDictionaryKeyIsCorrupt() throws {
        let data = try KeyedArchiver.archivedData(withRootObject: ["k": "v"] as [String: String])
        for (from, to) in [("NS.keys", "NS.kexs"), ("NS.objects", "NS.objectZ")] {
            let damaged = try Self.replacing(from, with: to, in: data)
            let error = archiveError {
                try KeyedUnarchiver.unarchivedDictionary(ofKeyClass: String.self, objectClass: String.self, from: damaged)
            }.vetted
            #expect(error?.code == .archiveCorrupted, "\(to)")
            #expect(error?.path == [.key("root"), .key(to)])
        }
    }

    /// A class of the app's that reads primitives: Foundation's `decodeBool(forKey:)` answers
    /// `false` for an absent key, so a damaged key would read back as a plausible default.
    final class Settings: SecureCoding, @unchecked Sendable {  // immutable after init; test-only
        static let supportsSecureCoding = true
        static let archiveClassNames = ["Settings"]
        let sold: Bool
        let price: Double
        let count: Int
        let note: String?
        init(sold: Bool, price: Double, count: Int, note: String?) {
            (self.sold, self.price, self.count, self.note) = (sold, price, count, note)
        }
        init?(coder: KeyedUnarchiver) {
            sold = coder.decodeBool(forKey: "sold")
            price = coder.decodeDouble(forKey: "price")
            count = coder.decodeInteger(forKey: "count")
            // A key the class knows may be absent asks first: its absence is then not a damage.
            note = coder.containsValue(forKey: "note") ? coder.decodeObject(of: String.self, forKey: "note") : nil
        }
        func encode(with coder: KeyedArchiver) {
            coder.encode(sold, forKey: "sold")
            coder.encode(price, forKey: "price")
            coder.encode(count, forKey: "count")
            if let note { coder.encode(note, forKey: "note") }
        }
    }

    /// One flipped byte in each key: `archiveCorrupted` at the key that was asked for, never `false` or `0`.
    @Test(arguments: [("sold", "sole"), ("price", "prize"), ("count", "coun!")])
    func aDamagedPrimitiveKeyIsCorrupt(from: String, to: String) throws {
        let data = try KeyedArchiver.archivedData(withRootObject: Settings(sold: true, price: 9.5, count: 3, note: nil))
        let intact = try #require(try KeyedUnarchiver.unarchivedObject(ofClass: Settings.self, from: data))
        #expect(intact.sold && intact.price == 9.5 && intact.count == 3 && intact.note == nil)
        let damaged = try Self.replacing(from, with: to, in: data)
        let error = archiveError { try KeyedUnarchiver.unarchivedObject(ofClass: Settings.self, from: damaged) }.vetted
        #expect(error?.code == .archiveCorrupted)
        #expect(error?.path == [.key("root"), .key(from)])
        #expect(error?.message.contains("a damaged key") == true)
    }

    /// Older and newer archives stay readable: a key absent with nothing unread (an older
    /// class wrote it), or a key unread with nothing absent (a newer class wrote it).
    @Test func olderAndNewerArchivesStillRead() throws {
        let older: PlistValue = .dictionary([
            "$version": .integer(.signed(100_000)), "$archiver": .string("NSKeyedArchiver"), "$top": .dictionary(["root": .uid(1)]),
            "$objects": .array([
                .string("$null"), .dictionary(["$class": .uid(2), "sold": .bool(true)]),
                .dictionary(["$classname": .string("Settings"), "$classes": .array([.string("Settings"), .string("NSObject")])]),
            ]),
        ])
        let read = try KeyedUnarchiver.unarchivedObject(ofClass: Settings.self, from: Data(PlistWriter.binary(older)))
        #expect(read?.sold == true && read?.price == 0 && read?.count == 0)
        let newer = try KeyedArchiver.archivedData(withRootObject: Settings(sold: false, price: 1, count: 2, note: "x"))
        let withExtra = try Self.replacing("note", with: "nXte", in: newer)  // a key this class does not know, and "note" asked about first
        #expect(try KeyedUnarchiver.unarchivedObject(ofClass: Settings.self, from: withExtra)?.count == 2)
    }

    /// Where every key is known (a store only this app writes), a key the class never reads is
    /// corrupt, not a passenger; the collections under it are read whole, so they count as read.
    @Test func unreadKeysAreCorruptWhenAskedFor() throws {
        let newer = try KeyedArchiver.archivedData(withRootObject: Settings(sold: false, price: 1, count: 2, note: "x"))
        let withExtra = try Self.replacing("note", with: "nXte", in: newer)
        let strict = try KeyedUnarchiver(forReadingFrom: withExtra)
        strict.rejectsUnreadKeys = true
        let error = archiveError { try strict.finish(strict.decodeObject(of: Settings.self, forKey: KeyedUnarchiver.rootKey)) }.vetted
        #expect(error?.code == .archiveCorrupted)
        #expect(error?.path == [.key("root"), .key("nXte")])
        #expect(error?.message == "Settings never read nXte, which the archive holds")
        let intact = try KeyedUnarchiver(forReadingFrom: newer)
        intact.rejectsUnreadKeys = true
        #expect(try intact.finish(intact.decodeObject(of: Settings.self, forKey: KeyedUnarchiver.rootKey))?.note == "x")
        let dictionary = try KeyedUnarchiver(forReadingFrom: try KeyedArchiver.archivedData(withRootObject: ["a": "b"] as [String: String]))
        dictionary.rejectsUnreadKeys = true
        #expect(try dictionary.finish(dictionary.decodeDictionary(withKeysOfClass: String.self, objectsOfClass: String.self, forKey: KeyedUnarchiver.rootKey)) == ["a": "b"])
        let array = try KeyedUnarchiver(forReadingFrom: try KeyedArchiver.archivedData(withRootObject: ["a", "b"]))
        array.rejectsUnreadKeys = true
        #expect(try array.finish(array.decodeArrayOfObjects(ofClass: String.self, forKey: KeyedUnarchiver.rootKey)) == ["a", "b"])
    }

    /// The older numbered form (`NS.object.0` …) still reads, in time linear in its size.
    @Test func numberedElementsRead() throws {
        let count = 20_000
        var objects: [PlistValue] = [.string("$null"), .dictionary(["$classname": .string("NSArray"), "$classes": .array([.string("NSArray"), .string("NSObject")])])]
        var entries: [PlistDictionary.Entry] = [.init(key: "$class", value: .uid(1))]
        for index in 0..<count {
            objects.append(.string("e\(index)"))
            entries.append(.init(key: "NS.object.\(index)", value: .uid(UInt64(objects.count - 1))))
        }
        objects.append(.dictionary(PlistDictionary(entries)))
        let archive: PlistValue = .dictionary([
            "$version": .integer(.signed(100_000)), "$archiver": .string("NSKeyedArchiver"),
            "$top": .dictionary(["root": .uid(UInt64(objects.count - 1))]), "$objects": .array(objects),
        ])
        let read = try KeyedUnarchiver.unarchivedArrayOfObjects(ofClass: String.self, from: Data(PlistWriter.binary(archive)))
        #expect(read?.count == count)
        #expect(read?.last == "e\(count - 1)")
    }
}

@Suite struct NonFiniteArchivedDateTests {
    /// An NSDate whose NS.time is NaN (the attack on the purchase history) is refused.
    @Test func aNaNDateIsRefused() throws {
        let archive: PlistValue = .dictionary([
            "$version": .integer(.signed(100_000)), "$archiver": .string("NSKeyedArchiver"), "$top": .dictionary(["root": .uid(1)]),
            "$objects": .array([
                .string("$null"), .dictionary(["$class": .uid(2), "NS.time": .real(.nan)]),
                .dictionary(["$classname": .string("NSDate"), "$classes": .array([.string("NSDate"), .string("NSObject")])]),
            ]),
        ])
        let error = archiveError { try KeyedUnarchiver.unarchivedObject(ofClass: Date.self, from: Data(PlistWriter.binary(archive))) }.vetted
        #expect(error?.code == .nonFiniteDate)
        #expect(error?.path == [.key("root"), .key("NS.time")])
    }
}
