/// Each key's first position in a list of keys, built on the first lookup: what
/// makes looking up every key of a large ordered dictionary (`JSONObject`,
/// `PlistDictionary`) cost O(n) in all, not O(n²).
///
/// Built under a lock, so values that share it (copies of one dictionary) may be
/// read from several threads. The owner replaces it whenever its keys change.
package final class FirstPositions: Sendable {
    private let table = Locked<[String: Int]?>(nil)

    package init() {}

    /// The first position of `key` in `keys` (the same keys on every call).
    package func position<Keys: Collection<String>>(of key: String, in keys: Keys) -> Int? {
        var found: Int?
        table.update { table in
            if table == nil {
                var built: [String: Int] = [:]
                built.reserveCapacity(keys.count)
                for (position, name) in keys.enumerated() where built[name] == nil { built[name] = position }
                table = built
            }
            found = table?[key]
        }
        return found
    }

    /// Records `key` at `position` (the new last one), when the table is built and
    /// has no such key yet. Only for an index its owner holds alone (`isKnownUniquelyReferenced`).
    package func appended(_ key: String, at position: Int) {
        table.update { table in
            if table != nil, table?[key] == nil { table?[key] = position }
        }
    }
}

/// Where looking keys up by scanning stops paying: a table of up to this many
/// keys is searched linearly (comparing lengths and bytes, no hashing); a
/// larger one gets a hash index, so that n lookups in n keys cost O(n), never
/// O(n²). One number for every key table in Vetted: the parser's duplicate
/// check, `JSONObject`, `PlistDictionary`, and both generated decoders' key matches.
package enum SmallKeyTable {
    package static let linearSearchLimit = 16
}
