/// A JSON object: members in document order.
///
/// Lookup by key is a linear scan (objects from documents are small; use
/// ``dictionary`` to index a large one). Two objects are equal when they have
/// the same members in any order: `{"a":1,"b":2} == {"b":2,"a":1}`.
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

    /// The members, in document order.
    public private(set) var members: [Member]

    public init(_ members: [Member] = []) { self.members = members }

    public var startIndex: Int { members.startIndex }
    public var endIndex: Int { members.endIndex }
    public subscript(position: Int) -> Member { members[position] }

    /// The keys, in document order.
    public var keys: [String] { members.map(\.key) }

    /// The value of the first member named `key`. Setting replaces that
    /// member's value in place, appends a new member, or (with `nil`) removes
    /// every member named `key`.
    public subscript(key: String) -> JSONValue? {
        get { members.first(where: { $0.key == key })?.value }
        set {
            guard let newValue else {
                members.removeAll { $0.key == key }
                return
            }
            if let index = members.firstIndex(where: { $0.key == key }) {
                members[index].value = newValue
            } else {
                members.append(Member(key: key, value: newValue))
            }
        }
    }

    /// The members as a dictionary (a later duplicate key wins).
    public var dictionary: [String: JSONValue] {
        Dictionary(members.map { ($0.key, $0.value) }, uniquingKeysWith: { _, last in last })
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
        guard members.count == other.members.count else { return nil }
        // Fast path: same keys in the same order.
        if members.elementsEqual(other.members, by: { $0.key == $1.key }) {
            return Array(zip(members.lazy.map(\.value), other.members.lazy.map(\.value)))
        }
        let mine = Dictionary(grouping: members.indices, by: { members[$0].key })
        let theirs = Dictionary(grouping: other.members.indices, by: { other.members[$0].key })
        guard mine.count == theirs.count else { return nil }
        var pairs: [(JSONValue, JSONValue)] = []
        pairs.reserveCapacity(members.count)
        for (key, indices) in mine {
            guard let otherIndices = theirs[key], otherIndices.count == indices.count else { return nil }
            for (index, otherIndex) in zip(indices, otherIndices) {
                pairs.append((members[index].value, other.members[otherIndex].value))
            }
        }
        return pairs
    }

    public func hash(into hasher: inout Hasher) {
        hash(into: &hasher, levels: 3)
    }

    /// Order-independent (a sum of per-member hashes) and depth-bounded.
    func hash(into hasher: inout Hasher, levels: Int) {
        hasher.combine(members.count)
        guard levels > 0 else { return }
        var sum = 0
        for member in members {
            var memberHasher = Hasher()
            memberHasher.combine(member.key)
            member.value.hash(into: &memberHasher, levels: levels - 1)
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
