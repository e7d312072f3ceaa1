// The corpus of model types both decoders are compared on against
// Foundation's decoders (VettedJSONDecoder with JSONDecoder,
// VettedPropertyListDecoder with PropertyListDecoder): one set of shapes,
// so the two differentials cover the same ground.

public import Foundation

public enum DecoderCorpus {
    public struct Simple: Codable, Equatable {
        public var a: Int
        public var b: String
        public var c: Double?
        public var d: [Bool]
    }

    public enum Color: String, Codable, Equatable { case red, green }
    public enum Level: Int, Codable, Equatable { case low = 1, high = 2 }
    public enum Shape: Codable, Equatable {
        case circle(radius: Double)
        case square(Int)
        case none
    }

    open class Base: Codable {
        public var x: Int
        public init(x: Int) { self.x = x }
    }

    public final class Derived: Base, Equatable {
        public var y: String
        public enum CodingKeys: String, CodingKey { case y }
        public required init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            y = try container.decode(String.self, forKey: .y)
            try super.init(from: container.superDecoder())
        }
        public static func == (lhs: Derived, rhs: Derived) -> Bool { lhs.x == rhs.x && lhs.y == rhs.y }
    }

    /// Uses nested containers, allKeys and contains by hand.
    public struct Inventory: Decodable, Equatable {
        public var counts: [String: Int]
        public var hasNote: Bool
        public var first: String
        public enum Keys: String, CodingKey { case items, note, names }
        public struct AnyKey: CodingKey {
            public var stringValue: String
            public var intValue: Int? { nil }
            public init?(stringValue: String) { self.stringValue = stringValue }
            public init?(intValue: Int) { nil }
        }
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            let items = try container.nestedContainer(keyedBy: AnyKey.self, forKey: .items)
            var counts: [String: Int] = [:]
            for key in items.allKeys { counts[key.stringValue] = try items.decode(Int.self, forKey: key) }
            self.counts = counts
            hasNote = container.contains(.note)
            var names = try container.nestedUnkeyedContainer(forKey: .names)
            first = try names.decode(String.self)
        }
    }

    public struct Everything: Codable, Equatable {
        public var url: URL
        public var decimal: Decimal
        public var uuid: UUID
        public var data: Data
        public var set: Set<Int>
        public var byName: [String: Int]
        public var byNumber: [Int: String]
        public var nested: [[Int?]]
        public var color: Color
        public var level: Level
        public var shape: Shape
        public var small: Int8
        public var unsigned: UInt16
        public var float: Float
    }

    public struct Dated: Codable, Equatable { public var when: Date }
    public struct Snake: Codable, Equatable {
        public var firstName: String
        public var lastUpdatedAt: Int
        public var url: String
    }

    public enum Outcome: Equatable {
        case value
        case error(kind: String, path: [String])
    }


    /// How a decode ended: a value, or a `DecodingError`'s case and coding path.
    public static func outcome(_ body: () throws -> Void) -> Outcome {
        do {
            try body()
            return .value
        } catch let error as DecodingError {
            switch error {
            case .typeMismatch(_, let context): return .error(kind: "typeMismatch", path: context.codingPath.map(\.stringValue))
            case .valueNotFound(_, let context): return .error(kind: "valueNotFound", path: context.codingPath.map(\.stringValue))
            case .keyNotFound(let key, let context):
                return .error(kind: "keyNotFound", path: context.codingPath.map(\.stringValue) + [key.stringValue])
            case .dataCorrupted(let context): return .error(kind: "dataCorrupted", path: context.codingPath.map(\.stringValue))
            @unknown default: return .error(kind: "unknown", path: [])
            }
        } catch {
            return .error(kind: "other: \(type(of: error))", path: [])
        }
    }
}
