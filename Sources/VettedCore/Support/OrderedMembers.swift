/// Members in written order, looked up by key: the one ordered map under
/// VettedJSON's `JSONObject` and VettedPlist's `PlistDictionary`.
///
/// Keys and values are parallel arrays of one length. A lookup scans a small
/// map (up to ``SmallKeyTable/linearSearchLimit`` members) and indexes a larger
/// one on its first lookup (``FirstPositions``), so looking up every key of n
/// members costs O(n), never O(n²). Keys may repeat (a parser under a keeping
/// duplicate-key policy folds them first with ``applying(_:)``); a lookup
/// answers the first member of a key.
package struct OrderedMembers<Value> {
    /// The keys, in written order.
    package private(set) var keys: [String]
    /// The values, in written order (`values[i]` belongs to `keys[i]`).
    package private(set) var values: [Value]
    /// Each key's first position, for maps over the linear-search limit: built on
    /// the first lookup, replaced on every change of keys (copies share it until then).
    private var lookup: FirstPositions?

    /// Parallel arrays; the longer one is cut to the shorter's length.
    package init(keys: [String] = [], values: [Value] = []) {
        var keys = keys
        var values = values
        if keys.count > values.count { keys.removeLast(keys.count - values.count) }
        if values.count > keys.count { values.removeLast(values.count - keys.count) }
        self.keys = keys
        self.values = values
        lookup = Self.index(for: keys.count)
    }

    private static func index(for count: Int) -> FirstPositions? {
        count > SmallKeyTable.linearSearchLimit ? FirstPositions() : nil
    }

    /// The number of members.
    package var count: Int { keys.count }

    /// The position of the first member named `key`.
    package func position(of key: String) -> Int? {
        if let lookup { return lookup.position(of: key, in: keys) }
        return keys.firstIndex(of: key)
    }

    /// The value of the first member named `key`. Setting replaces that member's
    /// value in place, appends a new member, or (with `nil`) removes every member
    /// named `key`.
    package subscript(key: String) -> Value? {
        get {
            guard let index = position(of: key), values.indices.contains(index) else { return nil }
            return values[index]
        }
        set {
            guard let newValue else {
                var kept = 0
                for index in keys.indices where keys[index] != key {
                    keys[kept] = keys[index]
                    values[kept] = values[index]
                    kept += 1
                }
                keys.removeLast(keys.count - kept)
                values.removeLast(values.count - kept)
                lookup = Self.index(for: keys.count)  // keys changed: a new index (the old one may be shared)
                return
            }
            if let index = position(of: key), values.indices.contains(index) {
                values[index] = newValue
                return
            }
            keys.append(key)
            values.append(newValue)
            // Extended in place when this map alone holds it, so that building a large
            // map key by key stays linear; else (shared with a copy, or none yet) a new one.
            if lookup != nil, isKnownUniquelyReferenced(&lookup) {
                lookup?.appended(key, at: keys.count - 1)
            } else {
                lookup = Self.index(for: keys.count)
            }
        }
    }

    /// The values to compare pairwise when two maps are compared for equality,
    /// or `nil` when their keys already differ. Member order is ignored; the
    /// order among members that share a key is not.
    package func pairs(with other: Self) -> [(Value, Value)]? {
        guard keys.count == other.keys.count else { return nil }
        // Fast path: the same keys in the same order.
        if keys == other.keys { return Array(zip(values, other.values)) }
        let mine = Dictionary(grouping: keys.indices, by: { keys[$0] })
        let theirs = Dictionary(grouping: other.keys.indices, by: { other.keys[$0] })
        guard mine.count == theirs.count else { return nil }
        var pairs: [(Value, Value)] = []
        pairs.reserveCapacity(values.count)
        for (key, indices) in mine {
            guard let otherIndices = theirs[key], otherIndices.count == indices.count else { return nil }
            for (index, otherIndex) in zip(indices, otherIndices) {
                pairs.append((values[index], other.values[otherIndex]))
            }
        }
        return pairs
    }

    /// An order-free hash of the members: the sum of each member's hash, the
    /// value hashed by `hashValue`.
    package func memberHashSum(_ hashValue: (Value, inout Hasher) -> Void) -> Int {
        var sum = 0
        for (key, value) in zip(keys, values) {
            var hasher = Hasher()
            hasher.combine(key)
            hashValue(value, &hasher)
            sum &+= hasher.finalize()
        }
        return sum
    }

    /// The map under `policy`: unchanged when no key repeats (the common case);
    /// else the first or the last value of each repeated key at its first
    /// member's place, or the first repeat thrown under `.reject`.
    package func applying(_ policy: DuplicateKeyPolicy) throws(RepeatedKey) -> Self {
        guard keys.count > 1 else { return self }
        // Small maps (a model's fields): comparing keys pairwise costs less than
        // hashing each; only a repeat found that way takes the general path.
        if keys.count <= SmallKeyTable.linearSearchLimit {
            var repeats = false
            outer: for later in 1..<keys.count {
                for earlier in 0..<later where keys[earlier] == keys[later] {
                    repeats = true
                    break outer
                }
            }
            if !repeats { return self }
        }
        var firstIndex: [String: Int] = [:]
        firstIndex.reserveCapacity(keys.count)
        var kept: (keys: [String], values: [Value])?
        for position in keys.indices {
            let key = keys[position]
            guard let first = firstIndex[key] else {
                firstIndex[key] = kept?.keys.count ?? position
                kept?.keys.append(key)
                kept?.values.append(values[position])
                continue
            }
            switch policy {
            case .reject: throw RepeatedKey(key: key, first: first, position: position)
            case .keepFirst:
                if kept == nil { kept = (Array(keys[..<position]), Array(values[..<position])) }
            case .keepLast:
                if kept == nil { kept = (Array(keys[..<position]), Array(values[..<position])) }
                kept?.values[first] = values[position]
            }
        }
        guard let kept else { return self }
        return Self(keys: kept.keys, values: kept.values)
    }
}

extension OrderedMembers: Sendable where Value: Sendable {}

/// A key that appears twice in one map: its text and the positions of both members.
package struct RepeatedKey: Error {
    package let key: String
    /// The first member's position.
    package let first: Int
    /// The repeat's position.
    package let position: Int
}
