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
@usableFromInline package enum SmallKeyTable {
    /// A constant the compiler sees in every module (a `static let` would be a
    /// lazily made global, read through an accessor on every lookup).
    @inlinable package static var linearSearchLimit: Int { 16 }

    /// What a scan of an object's keys found (``find(first:end:start:next:matches:)``).
    @frozen @usableFromInline package enum Scan: Equatable {
        /// The key, at this position.
        case found(Int)
        /// No such key.
        case absent
        /// Not among the first ``SmallKeyTable/linearSearchLimit`` keys compared, and
        /// more are left: the caller looks it up in an index of every key, which it
        /// makes once per object and keeps.
        case tooLarge
    }

    /// The one way Vetted's decoders find a key an `init(from:)` or a generated body
    /// asks for, in an object's keys in written order (the positions from `first`,
    /// each key's next given by `next`, up to `end`): the key at `start` (where the
    /// last lookup ended, as keys are usually asked for in the order they were
    /// written; a key's position, or any position outside `first..<end` for the
    /// first key), then on, wrapping around to `first`, comparing at most
    /// ``linearSearchLimit`` keys. Past that it answers ``Scan/tooLarge``, and the
    /// caller's index answers.
    ///
    /// So a lookup costs at most ``linearSearchLimit`` comparisons and one hash
    /// lookup, and n lookups in n keys cost O(n) in all, whatever their order. The
    /// keys must be distinct (a decoder applies its duplicate-key policy first).
    @inlinable @inline(__always)
    package static func find(first: Int, end: Int, start: Int, next: (Int) -> Int, matches: (Int) -> Bool) -> Scan {
        let start = start > first && start < end ? start : first
        var position = start
        var wrapped = false
        var compared = 0
        while true {
            if position >= end {
                if wrapped || start == first { return .absent }
                wrapped = true
                position = first
            }
            if wrapped, position >= start { return .absent }
            // Another key to compare after so many: an object too large to scan.
            if compared == linearSearchLimit { return .tooLarge }
            if matches(position) { return .found(position) }
            compared += 1
            position = next(position)
        }
    }
}
