import Foundation
import Testing
import VettedArchive
import VettedCore
import VettedPlist
import VettedRules
import VettedTestSupport

/// Codable values inside keyed archives, stored as Foundation's
/// `encodeEncodable(_:forKey:)` stores them, and the `ofClasses:` calls.
@Suite(.serialized) struct CodableArchiveTests {
    struct Item: Codable, Equatable, Validatable {
        var id: Int
        var name: String
        var tags: [String]
        var price: Double?
        var when: Date
        var blob: Data
        var nested: [String: [Int]]
        static let validation = Validation<Item> {
            Field("id", Rule<Int>.range(1...100))
            Field("tags", Rule<[String]>.each(.oneOf(["a", "b"])))
        }
    }

    static let item = Item(
        id: 7, name: "lamp", tags: ["a", "b"], price: nil, when: Date(timeIntervalSinceReferenceDate: 100), blob: Data([1, 2]),
        nested: ["x": [1, 2], "y": []])

    /// What Foundation's encodeEncodable writes: the value's property list as NS objects under the key.
    static func foundationArchive<T: Encodable>(_ value: T, forKey key: String) throws -> Data {
        let plist = Self.foundationObject(try PlistParser().parse(try PropertyListEncoder().encode(value)))
        let archiver = NSKeyedArchiver(requiringSecureCoding: true)
        archiver.encode(plist, forKey: key)
        archiver.finishEncoding()
        return archiver.encodedData
    }

    /// The NS object of a property-list value, as Foundation's encoder makes them.
    static func foundationObject(_ value: PlistValue) -> AnyObject {
        switch value {
        case .string(let string): return string as NSString
        case .data(let data): return data as NSData
        case .date(let date): return date as NSDate
        case .bool(let bool): return NSNumber(value: bool)
        case .real(let real): return NSNumber(value: real)
        case .integer(.signed(let integer)): return NSNumber(value: integer)
        case .integer(.unsigned(let integer)): return NSNumber(value: integer)
        case .uid(let uid): return NSNumber(value: uid)
        case .array(let elements): return elements.map(foundationObject) as NSArray
        case .dictionary(let dictionary):
            let result = NSMutableDictionary()
            for entry in dictionary { result[entry.key as NSString] = foundationObject(entry.value) }
            return result
        }
    }

    /// What Foundation's decodeDecodable reads: the NS object graph under the key, decoded as a property list.
    static func foundationRead<T: Decodable>(_ type: T.Type, from data: Data, forKey key: String) throws -> T? {
        let unarchiver = try NSKeyedUnarchiver(forReadingFrom: data)
        let classes: [AnyClass] = [NSDictionary.self, NSArray.self, NSString.self, NSNumber.self, NSDate.self, NSData.self]
        guard let object = unarchiver.decodeObject(of: classes, forKey: key) else { return nil }
        let bytes = try PropertyListSerialization.data(fromPropertyList: object, format: .binary, options: 0)
        return try PropertyListDecoder().decode(T.self, from: bytes)
    }

    @Test func roundTripsThroughVetted() throws {
        let archiver = KeyedArchiver()
        archiver.encodeEncodable(Self.item, forKey: "item")
        archiver.encode(3, forKey: "count")
        let unarchiver = try KeyedUnarchiver(forReadingFrom: archiver.encodedData)
        #expect(try unarchiver.decodeTopLevelDecodable(Item.self, forKey: "item") == Self.item)
        #expect(unarchiver.decodeInteger(forKey: "count") == 3)
        #expect(unarchiver.decodeDecodable(Item.self, forKey: "missing") == nil)
        #expect(unarchiver.error == nil)
    }

    @Test func foundationWritesVettedReads() throws {
        let data = try Self.foundationArchive(Self.item, forKey: "item")
        let unarchiver = try KeyedUnarchiver(forReadingFrom: data)
        #expect(try unarchiver.decodeTopLevelDecodable(Item.self, forKey: "item") == Self.item)
    }

    @Test func vettedWritesFoundationReads() throws {
        let archiver = KeyedArchiver()
        archiver.encodeEncodable(Self.item, forKey: "item")
        #expect(try Self.foundationRead(Item.self, from: archiver.encodedData, forKey: "item") == Self.item)
    }

    /// The type's rules run on the archived value: violations are the unarchiver's error, with paths below the key.
    @Test func rulesApplyInsideArchives() throws {
        var bad = Self.item
        bad.id = 500
        bad.tags = ["a", "zz"]
        let data = try Self.foundationArchive(bad, forKey: "item")
        let unarchiver = try KeyedUnarchiver(forReadingFrom: data)
        #expect(unarchiver.decodeDecodable(Item.self, forKey: "item") == nil)
        let errors = try #require(unarchiver.error as? ValidationErrors)
        #expect(errors.errors.map(\.code) == [.outOfRange, .notAllowed])
        #expect(errors.errors.map(\.path) == [[.key("id")], [.key("tags"), .index(1)]])
    }

    /// An object graph that a property list cannot hold (a set) is a typed error at its path.
    @Test func aSetInsideIsATypeMismatch() throws {
        let archiver = NSKeyedArchiver(requiringSecureCoding: true)
        archiver.encode(["id": 1, "tags": NSSet(array: ["a"])] as NSDictionary, forKey: "item")
        archiver.finishEncoding()
        let unarchiver = try KeyedUnarchiver(forReadingFrom: archiver.encodedData)
        #expect(unarchiver.decodeDecodable(Item.self, forKey: "item") == nil)
        let error = try #require(unarchiver.error as? VettedError)
        #expect(error.code == .typeMismatch)
        #expect(error.path == [.key("item"), .key("tags")])
    }

    /// A structural failure is Foundation's DecodingError, kept as the unarchiver's error.
    @Test func aMissingFieldIsKeyNotFound() throws {
        let data = try Self.foundationArchive(["id": 1], forKey: "item")
        let unarchiver = try KeyedUnarchiver(forReadingFrom: data)
        #expect(unarchiver.decodeDecodable(Item.self, forKey: "item") == nil)
        guard case .keyNotFound(let key, _)? = unarchiver.error as? DecodingError else {
            Issue.record("expected keyNotFound, got \(String(describing: unarchiver.error))")
            return
        }
        #expect(key.stringValue == "name")
    }

    @Test func arraysAndDictionariesOfSeveralClasses() throws {
        let array = try NSKeyedArchiver.archivedData(withRootObject: ["a", 1, "b"] as NSArray, requiringSecureCoding: true)
        let elements = try KeyedUnarchiver.unarchivedArrayOfObjects(ofClasses: [String.self, Int.self], from: array)
        #expect(elements?.count == 3)
        #expect(elements?.first as? String == "a" && elements?[1] as? Int == 1)
        let refused = archiveError { try KeyedUnarchiver.unarchivedArrayOfObjects(ofClasses: [String.self], from: array) }.vetted
        #expect(refused?.code == .classNotAllowed)
        #expect(refused?.path == [.key("root"), .index(1)])

        let dictionary = try NSKeyedArchiver.archivedData(withRootObject: ["a": 1, "b": "two"] as NSDictionary, requiringSecureCoding: true)
        let pairs = try KeyedUnarchiver.unarchivedDictionary(keysOfClasses: [String.self], objectsOfClasses: [Int.self, String.self], from: dictionary)
        #expect(pairs?["a"] as? Int == 1 && pairs?["b"] as? String == "two")
        let wrongValue = archiveError {
            try KeyedUnarchiver.unarchivedDictionary(keysOfClasses: [String.self], objectsOfClasses: [Int.self], from: dictionary)
        }.vetted
        #expect(wrongValue?.code == .typeMismatch || wrongValue?.code == .classNotAllowed)

        // The element classes are the call's: the same object read again with fewer classes is refused, not served from a cache.
        let unarchiver = try KeyedUnarchiver(forReadingFrom: array)
        #expect(unarchiver.decodeArrayOfObjects(ofClasses: [String.self, Int.self], forKey: "root")?.count == 3)
        #expect(unarchiver.decodeArrayOfObjects(ofClasses: [String.self], forKey: "root") == nil)
        #expect((unarchiver.error as? VettedError)?.code == .classNotAllowed)
    }
}
