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
