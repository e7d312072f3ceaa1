#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif
package import VettedCore

/// An inert property-list value: data only, nothing it can make run.
///
/// Binary plists (`bplist00`) and XML plists read into the same values.
/// Binary sets are read as arrays (XML has no sets). A UID (a keyed
/// archive's object reference) is its own case; in XML it is the dictionary
/// `{"CF$UID": n}`, as Apple and Python write it.
public enum PlistValue: Sendable, Equatable {
    case dictionary(PlistDictionary)
    case array([PlistValue])
    case string(String)
    case data(Data)
    case date(Date)
    case integer(PlistInteger)
    case real(Double)
    case bool(Bool)
    case uid(UInt64)
}

/// A property-list integer: the full signed and unsigned 64-bit range.
/// Values that fit `Int64` are always `.signed`; `.unsigned` holds only
/// values above `Int64.max`.
public enum PlistInteger: Sendable, Hashable, CustomStringConvertible {
    case signed(Int64)
    case unsigned(UInt64)

    public init(_ value: Int64) { self = .signed(value) }

    public init(_ value: UInt64) {
        self = value <= UInt64(Int64.max) ? .signed(Int64(value)) : .unsigned(value)
    }

    public init(_ value: Int) { self = .signed(Int64(value)) }

    /// The value as `Int64`, if it fits.
    public var int64Value: Int64? {
        switch self {
        case .signed(let value): value
        case .unsigned: nil
        }
    }

    public var description: String {
        switch self {
        case .signed(let value): String(value)
        case .unsigned(let value): String(value)
        }
    }
}

/// A dictionary with string keys that keeps the order of its entries.
/// Equality ignores order. Lookup by key scans a small dictionary (up to 16
/// entries) and indexes a larger one on its first lookup: looking up every key
/// of a dictionary of n entries costs O(n), never O(n²).
public struct PlistDictionary: Sendable, RandomAccessCollection, ExpressibleByDictionaryLiteral {
    public struct Entry: Sendable, Equatable {
        public var key: String
        public var value: PlistValue
        public init(key: String, value: PlistValue) {
            self.key = key
            self.value = value
        }
    }

    public private(set) var entries: [Entry]
    /// Each key's first position, for dictionaries over ``smallDictionary`` entries:
    /// built on the first lookup, replaced on every change (copies share it until then).
    private var lookup: FirstPositions?

    public init(_ entries: [Entry] = []) {
        self.entries = entries
        lookup = Self.index(for: entries.count)
    }
    public init(dictionaryLiteral elements: (String, PlistValue)...) {
        entries = elements.map { Entry(key: $0.0, value: $0.1) }
        lookup = Self.index(for: entries.count)
    }

    private static func index(for count: Int) -> FirstPositions? { count > smallDictionary ? FirstPositions() : nil }

    /// The position of the first entry named `key`.
    func position(of key: String) -> Int? {
        if let lookup { return lookup.position(of: key, in: entries.lazy.map(\.key)) }
        return entries.firstIndex { $0.key == key }
    }

    public var startIndex: Int { entries.startIndex }
    public var endIndex: Int { entries.endIndex }
    public subscript(position: Int) -> Entry { entries[position] }

    public var keys: [String] { entries.map(\.key) }

    /// The value of the first entry named `key`; setting replaces it in place,
    /// appends, or (with `nil`) removes every entry named `key`.
    public subscript(key: String) -> PlistValue? {
        get { position(of: key).flatMap { entries.indices.contains($0) ? entries[$0].value : nil } }
        set {
            guard let newValue else {
                entries.removeAll { $0.key == key }
                lookup = Self.index(for: entries.count)  // keys changed: a new index (the old one may be shared)
                return
            }
            if let index = position(of: key), entries.indices.contains(index) {
                entries[index].value = newValue
            } else {
                entries.append(Entry(key: key, value: newValue))
                // Extended in place when this dictionary alone holds it, so that building a large
                // dictionary key by key stays linear; else (shared with a copy, or none yet) a new one.
                if lookup != nil, isKnownUniquelyReferenced(&lookup) {
                    lookup?.appended(key, at: entries.count - 1)
                } else {
                    lookup = Self.index(for: entries.count)
                }
            }
        }
    }
}

extension PlistDictionary {
    /// Up to this many entries, repeated keys are looked for by comparing keys pairwise (at most 120 comparisons).
    static let smallDictionary = SmallKeyTable.linearSearchLimit

    /// A key that appears twice: its text and the positions of both entries.
    package struct Repeat: Error {
        package let key: String
        package let first: Int
        package let position: Int
    }

    /// `entries` under `policy`: unchanged when no key repeats (the common
    /// case: one hash per key); else the first or last of each repeated key
    /// at the first one's place, or the first repeat under `.reject`.
    package static func applying(_ policy: DuplicateKeyPolicy, to entries: [Entry]) throws(Repeat) -> [Entry] {
        guard entries.count > 1 else { return entries }
        // Small dictionaries (a model's fields): compare keys pairwise, which costs less
        // than hashing each; only a repeat found that way takes the general path.
        if entries.count <= smallDictionary {
            var repeats = false
            outer: for later in 1..<entries.count {
                for earlier in 0..<later where entries[earlier].key == entries[later].key {
                    repeats = true
                    break outer
                }
            }
            if !repeats { return entries }
        }
        var firstIndex: [String: Int] = [:]
        firstIndex.reserveCapacity(entries.count)
        var kept: [Entry]?
        for position in entries.indices {
            let entry = entries[position]
            guard let first = firstIndex[entry.key] else {
                firstIndex[entry.key] = kept?.count ?? position
                kept?.append(entry)
                continue
            }
            switch policy {
            case .reject: throw Repeat(key: entry.key, first: first, position: position)
            case .keepFirst:
                if kept == nil { kept = Array(entries[..<position]) }
            case .keepLast:
                if kept == nil { kept = Array(entries[..<position]) }
                kept?[first].value = entry.value
            }
        }
        return kept ?? entries
    }
}

extension PlistDictionary: Equatable {
    public static func == (lhs: PlistDictionary, rhs: PlistDictionary) -> Bool {
        PlistValue.dictionary(lhs) == PlistValue.dictionary(rhs)
    }

    /// Pairs of values to compare, or `nil` when the keys differ (order ignored).
    func entryPairs(with other: PlistDictionary) -> [(PlistValue, PlistValue)]? {
        guard entries.count == other.entries.count else { return nil }
        if entries.elementsEqual(other.entries, by: { $0.key == $1.key }) {
            return zip(entries, other.entries).map { ($0.value, $1.value) }
        }
        let mine = Dictionary(grouping: entries.indices, by: { entries[$0].key })
        let theirs = Dictionary(grouping: other.entries.indices, by: { other.entries[$0].key })
        guard mine.count == theirs.count else { return nil }
        var pairs: [(PlistValue, PlistValue)] = []
        for (key, indices) in mine {
            guard let otherIndices = theirs[key], otherIndices.count == indices.count else { return nil }
            for (index, otherIndex) in zip(indices, otherIndices) {
                pairs.append((entries[index].value, other.entries[otherIndex].value))
            }
        }
        return pairs
    }
}

extension PlistValue {
    /// Deep equality without recursion. Reals compare by value (so NaN is
    /// never equal), dictionaries ignore entry order.
    public static func == (lhs: PlistValue, rhs: PlistValue) -> Bool {
        var pending: [(PlistValue, PlistValue)] = [(lhs, rhs)]
        while let (left, right) = pending.popLast() {
            switch (left, right) {
            case (.string(let a), .string(let b)): guard a == b else { return false }
            case (.data(let a), .data(let b)): guard a == b else { return false }
            case (.date(let a), .date(let b)): guard a == b else { return false }
            case (.integer(let a), .integer(let b)): guard a == b else { return false }
            case (.real(let a), .real(let b)): guard a == b else { return false }
            case (.bool(let a), .bool(let b)): guard a == b else { return false }
            case (.uid(let a), .uid(let b)): guard a == b else { return false }
            case (.array(let a), .array(let b)):
                guard a.count == b.count else { return false }
                pending.append(contentsOf: zip(a, b))
            case (.dictionary(let a), .dictionary(let b)):
                guard let pairs = a.entryPairs(with: b) else { return false }
                pending.append(contentsOf: pairs)
            default:
                return false
            }
        }
        return true
    }

    /// The entry named `key`, if this is a dictionary that has one.
    public subscript(key: String) -> PlistValue? {
        if case .dictionary(let dictionary) = self { return dictionary[key] }
        return nil
    }

    /// The element at `index`, if this is an array and `index` is in range.
    public subscript(index: Int) -> PlistValue? {
        guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
        return elements[index]
    }

    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    public var integerValue: PlistInteger? {
        if case .integer(let value) = self { return value }
        return nil
    }

    public var uidValue: UInt64? {
        if case .uid(let value) = self { return value }
        return nil
    }
}

extension Array {
    /// Removes the elements from `base` on and returns them in an array of exactly their count.
    ///
    /// Not `Array(self[base...])`: when `base` is 0 that array shares this one's whole buffer, and
    /// the removal that follows then reallocates this one at full capacity, so each closed
    /// container of a deep document would keep a buffer as large as the value stack (an 8 GB
    /// address space was exhausted by a 7 MB XML plist). Memory reserved stays proportional to the input.
    mutating func takeSuffix(from base: Int) -> [Element] {
        var taken: [Element] = []
        taken.reserveCapacity(count - base)
        taken.append(contentsOf: self[base...])
        removeSubrange(base...)
        return taken
    }
}
