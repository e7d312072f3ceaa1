/// A JSON object: members in document order.
///
/// Lookup by key is a linear scan (objects from documents are small; use
/// ``dictionary`` to index a large one). Two objects are equal when they have
/// the same members in any order: `{"a":1,"b":2} == {"b":2,"a":1}`.
public struct JSONObject: Sendable, RandomAccessCollection, CustomStringConvertible {
    /// One `"key": value` pair.
    public struct Member: Sendable, Hashable {
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
        guard lhs.members.count == rhs.members.count else { return false }
        // Fast path: same keys in the same order.
        if lhs.members.elementsEqual(rhs.members, by: { $0.key == $1.key }) {
            return lhs.members.elementsEqual(rhs.members, by: { $0.value == $1.value })
        }
        return lhs.grouped == rhs.grouped
    }

    /// Values per key, in order: equality that ignores member order but not
    /// the order among members sharing a key.
    private var grouped: [String: [JSONValue]] {
        Dictionary(grouping: members, by: \.key).mapValues { $0.map(\.value) }
    }

    public func hash(into hasher: inout Hasher) {
        // Order-independent: a sum of per-member hashes.
        var sum = 0
        for member in members {
            var memberHasher = Hasher()
            memberHasher.combine(member)
            sum &+= memberHasher.finalize()
        }
        hasher.combine(members.count)
        hasher.combine(sum)
    }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(elements.map { Member(key: $0.0, value: $0.1) })
    }
}
