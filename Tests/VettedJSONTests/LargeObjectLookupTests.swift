import Foundation
import Testing
import VettedCore
import VettedJSON
import VettedTestSupport

/// An `init(from:)` may ask for an object's keys in any order. In an object of more
/// than 16 members, a key the hint does not point at is found through an index of
/// the object's keys made once, not by a scan per lookup (which made n keys asked
/// backwards cost O(n²)). The answers must be the scan's.
@Suite struct LargeObjectLookupTests {
    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Every key asked for backwards, then `absent` keys that are not there.
    struct Backwards: Decodable {
        var values: [String: Int] = [:]
        var order: [String] = []
        var found = 0

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            for key in container.allKeys.reversed() {
                values[key.stringValue] = try container.decode(Int.self, forKey: key)
                order.append(key.stringValue)
            }
            found = (0..<50).filter { container.contains(Key("absent\($0)")) }.count
        }
    }

    static func object(_ count: Int) -> String {
        "{" + (0..<count).map { "\"k\($0)\": \($0)" }.joined(separator: ", ") + "}"
    }

    @Test(arguments: [1, 16, 17, 18, 40, 2_000])
    func everyKeyAskedForBackwardsIsFound(count: Int) throws {
        let decoded = try VettedJSONDecoder().decode(Backwards.self, from: Data(Self.object(count).utf8))
        #expect(decoded.values.count == count)
        #expect(decoded.values.allSatisfy { $0.key == "k\($0.value)" })
        #expect(decoded.order == (0..<count).reversed().map { "k\($0)" })
        #expect(decoded.found == 0)
    }

    /// A key spelled with a combining accent is the precomposed key (canonical
    /// equivalence, as `String` compares), whether the scan or the index finds it.
    @Test(arguments: [3, 40])
    func aKeyIsFoundByCanonicalEquivalenceInTheIndexAsInTheScan(count: Int) throws {
        struct Accented: Decodable {
            var value: Int
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: Key.self)
                value = try container.decode(Int.self, forKey: Key("caf\u{E9}"))
            }
        }
        let members = (0..<count).map { "\"k\($0)\": \($0)" } + [#""cafe\u0301": 7"#]
        let json = "{" + members.joined(separator: ", ") + "}"
        #expect(try VettedJSONDecoder().decode(Accented.self, from: Data(json.utf8)).value == 7)
    }

    /// A key that is not there is `keyNotFound` at its path, in a large object as in a small one.
    @Test(arguments: [3, 40])
    func aMissingKeyIsNamed(count: Int) throws {
        struct Wants: Decodable {
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: Key.self)
                _ = try container.decode(Int.self, forKey: Key("k1"))
                _ = try container.decode(Int.self, forKey: Key("nope"))
            }
        }
        let json = "[" + Self.object(count) + "]"
        #expect {
            try VettedJSONDecoder().decode([Wants].self, from: Data(json.utf8))
        } throws: { error in
            guard case DecodingError.keyNotFound(let key, let context) = error else { return false }
            return key.stringValue == "nope" && context.codingPath.map(\.stringValue) == ["Index 0"]
        }
    }

    /// Under a key strategy the index is of the converted keys, as before.
    @Test func convertedKeysAreFoundBackwards() throws {
        let decoder = VettedJSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let json = "{" + (0..<40).map { "\"key_\($0)\": \($0)" }.joined(separator: ", ") + "}"
        let decoded = try decoder.decode(Backwards.self, from: Data(json.utf8))
        #expect(decoded.order.first == "key39")
        #expect(decoded.values["key0"] == 0 && decoded.values.count == 40)
    }
}
