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

    /// The entries: Vetted's one ordered map (``OrderedMembers``).
    package private(set) var members: OrderedMembers<PlistValue>

    public init(_ entries: [Entry] = []) {
        members = OrderedMembers(keys: entries.map(\.key), values: entries.map(\.value))
    }
    public init(dictionaryLiteral elements: (String, PlistValue)...) {
        members = OrderedMembers(keys: elements.map(\.0), values: elements.map(\.1))
    }
    /// The members as they are (a reader's, its duplicate-key policy applied).
    package init(_ members: OrderedMembers<PlistValue>) {
        self.members = members
    }

    /// The entries, in written order, as a new array each time it is read: iterate the
    /// dictionary itself (a collection of ``Entry``), or read ``keys`` and ``values``, in a loop.
    public var entries: [Entry] { zip(members.keys, members.values).map { Entry(key: $0, value: $1) } }

    /// The position of the first entry named `key`.
    func position(of key: String) -> Int? { members.position(of: key) }

    public var startIndex: Int { 0 }
    public var endIndex: Int { members.count }
    public subscript(position: Int) -> Entry { Entry(key: members.keys[position], value: members.values[position]) }

    /// The keys, in written order.
    public var keys: [String] { members.keys }
    /// The values, in written order (`values[i]` belongs to `keys[i]`).
    public var values: [PlistValue] { members.values }

    /// The value of the first entry named `key`; setting replaces it in place,
    /// appends, or (with `nil`) removes every entry named `key`.
    public subscript(key: String) -> PlistValue? {
        get { members[key] }
        set { members[key] = newValue }
    }
}

extension PlistDictionary {
    /// A key that appears twice: its text and the positions of both entries.
    package typealias Repeat = RepeatedKey

    /// This dictionary under `policy`: unchanged when no key repeats; else the
    /// first or last of each repeated key at the first one's place, or the
    /// first repeat under `.reject`.
    package func applying(_ policy: DuplicateKeyPolicy) throws(Repeat) -> PlistDictionary {
        PlistDictionary(try members.applying(policy))
    }
}

extension PlistDictionary: Equatable {
    public static func == (lhs: PlistDictionary, rhs: PlistDictionary) -> Bool {
        PlistValue.dictionary(lhs) == PlistValue.dictionary(rhs)
    }

    /// Pairs of values to compare, or `nil` when the keys differ (order ignored).
    func entryPairs(with other: PlistDictionary) -> [(PlistValue, PlistValue)]? {
        members.pairs(with: other.members)
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
