import VettedCore

/// A JSON object: members in document order.
///
/// Lookup by key scans a small object (up to 16 members) and indexes a larger
/// one on its first lookup, so looking up every key of an object of n members
/// costs O(n), never O(n²). Two objects are equal when they have the same
/// members in any order: `{"a":1,"b":2} == {"b":2,"a":1}`.
public struct JSONObject: Sendable, RandomAccessCollection, CustomStringConvertible {
    /// One `"key": value` pair.
    public struct Member: Sendable, Equatable {
        public var key: String
        public var value: JSONValue

        public init(key: String, value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// The members: Vetted's one ordered map (``OrderedMembers``).
    private var storage: OrderedMembers<JSONValue>

    /// The keys, in document order. Objects of the same shape parsed from
    /// one document share this storage.
    public var keys: [String] { storage.keys }
    /// The values, in document order (`values[i]` belongs to `keys[i]`).
    public var values: [JSONValue] { storage.values }

    public init(_ members: [Member] = []) {
        storage = OrderedMembers(keys: members.map(\.key), values: members.map(\.value))
    }

    /// Parallel arrays of equal length (the parser's fast path).
    init(keys: [String], values: [JSONValue]) {
        storage = OrderedMembers(keys: keys, values: values)
    }

    /// The members, in document order.
    public var members: [Member] {
        zip(storage.keys, storage.values).map { Member(key: $0, value: $1) }
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { storage.count }
    public subscript(position: Int) -> Member { Member(key: storage.keys[position], value: storage.values[position]) }

    /// The value of the first member named `key`. Setting replaces that
    /// member's value in place, appends a new member, or (with `nil`) removes
    /// every member named `key`.
    public subscript(key: String) -> JSONValue? {
        get { storage[key] }
        set { storage[key] = newValue }
    }

    /// The members as a dictionary (a later duplicate key wins).
    public var dictionary: [String: JSONValue] {
        Dictionary(zip(keys, values), uniquingKeysWith: { _, last in last })
    }

    public var description: String { JSONValue.object(self).description }
}

extension JSONObject: Hashable {
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        JSONValue.object(lhs) == JSONValue.object(rhs)
    }

    /// The values to compare pairwise for equality, or `nil` when the keys
    /// already differ. Member order is ignored; the order among members that
    /// share a key is not.
    func memberPairs(with other: JSONObject) -> [(JSONValue, JSONValue)]? {
        storage.pairs(with: other.storage)
    }

    public func hash(into hasher: inout Hasher) {
        hash(into: &hasher, levels: 3)
    }

    /// Order-independent (a sum of per-member hashes) and depth-bounded.
    func hash(into hasher: inout Hasher, levels: Int) {
        hasher.combine(storage.count)
        guard levels > 0 else { return }
        hasher.combine(storage.memberHashSum { value, memberHasher in value.hash(into: &memberHasher, levels: levels - 1) })
    }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(elements.map { Member(key: $0.0, value: $0.1) })
    }
}
