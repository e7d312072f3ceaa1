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

    /// The keys, in document order. Objects of the same shape parsed from
    /// one document share this storage.
    public private(set) var keys: [String]
    /// The values, in document order (`values[i]` belongs to `keys[i]`).
    public private(set) var values: [JSONValue]
    /// Each key's first position, for objects over ``indexThreshold`` members: built on
    /// the first lookup, replaced on every change (copies share it until then).
    private var lookup: FirstPositions?

    /// Objects up to this many members are searched in place.
    static let indexThreshold = SmallKeyTable.linearSearchLimit

    public init(_ members: [Member] = []) {
        keys = members.map(\.key)
        values = members.map(\.value)
        lookup = keys.count > Self.indexThreshold ? FirstPositions() : nil
    }

    /// Parallel arrays of equal length (the parser's fast path).
    init(keys: [String], values: [JSONValue]) {
        self.keys = keys
        self.values = values
        lookup = keys.count > Self.indexThreshold ? FirstPositions() : nil
    }

    /// The position of the first member named `key`.
    private func position(of key: String) -> Int? {
        if let lookup { return lookup.position(of: key, in: keys) }
        return keys.firstIndex(of: key)
    }

    /// The members, in document order.
    public var members: [Member] {
        zip(keys, values).map { Member(key: $0, value: $1) }
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { Swift.min(keys.count, values.count) }
    public subscript(position: Int) -> Member { Member(key: keys[position], value: values[position]) }

    /// The value of the first member named `key`. Setting replaces that
    /// member's value in place, appends a new member, or (with `nil`) removes
    /// every member named `key`.
    public subscript(key: String) -> JSONValue? {
        get {
            guard let index = position(of: key), values.indices.contains(index) else { return nil }
            return values[index]
        }
        set {
            guard let newValue else {
                var kept = 0
                for index in keys.indices where keys[index] != key {
                    keys[kept] = keys[index]
                    if values.indices.contains(index) { values[kept] = values[index] }
                    kept += 1
                }
                keys.removeLast(keys.count - kept)
                values.removeLast(Swift.max(0, values.count - kept))
                lookup = keys.count > Self.indexThreshold ? FirstPositions() : nil
                return
            }
            if let index = position(of: key), values.indices.contains(index) {
                values[index] = newValue
            } else {
                keys.append(key)
                values.append(newValue)
                // Extended in place when this object alone holds it, so that building a large
                // object key by key stays linear; else (shared with a copy, or none yet) a new one.
                if lookup != nil, isKnownUniquelyReferenced(&lookup) {
                    lookup?.appended(key, at: keys.count - 1)
                } else {
                    lookup = keys.count > Self.indexThreshold ? FirstPositions() : nil
                }
            }
        }
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
        guard keys.count == other.keys.count, values.count == other.values.count else { return nil }
        // Fast path: same keys in the same order.
        if keys == other.keys {
            return Array(zip(values, other.values))
        }
        let mine = Dictionary(grouping: keys.indices, by: { keys[$0] })
        let theirs = Dictionary(grouping: other.keys.indices, by: { other.keys[$0] })
        guard mine.count == theirs.count else { return nil }
        var pairs: [(JSONValue, JSONValue)] = []
        pairs.reserveCapacity(values.count)
        for (key, indices) in mine {
            guard let otherIndices = theirs[key], otherIndices.count == indices.count else { return nil }
            for (index, otherIndex) in zip(indices, otherIndices)
            where values.indices.contains(index) && other.values.indices.contains(otherIndex) {
                pairs.append((values[index], other.values[otherIndex]))
            }
        }
        return pairs
    }

    public func hash(into hasher: inout Hasher) {
        hash(into: &hasher, levels: 3)
    }

    /// Order-independent (a sum of per-member hashes) and depth-bounded.
    func hash(into hasher: inout Hasher, levels: Int) {
        hasher.combine(keys.count)
        guard levels > 0 else { return }
        var sum = 0
        for (key, value) in zip(keys, values) {
            var memberHasher = Hasher()
            memberHasher.combine(key)
            value.hash(into: &memberHasher, levels: levels - 1)
            sum &+= memberHasher.finalize()
        }
        hasher.combine(sum)
    }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(elements.map { Member(key: $0.0, value: $0.1) })
    }
}
