/// A parsed document as a flat list of entries that point into the input:
/// what `VettedJSONDecoder` reads, so that decoding never builds a tree of
/// `JSONValue`s and never makes a `String` it is not asked for.
///
/// The parser writes one entry per value, in document order; an object's
/// members are a key entry followed by the member's value entries. A
/// container's entry holds its member count and the index just past its last
/// entry, so a reader skips a whole subtree in one step.
struct JSONTape {
    enum Kind: UInt8 {
        case null, `false`, `true`, number, string, key, array, object
    }

    /// Two words per entry.
    /// - `first`: the content's first byte offset (strings, keys, numbers, literals) or
    ///   the member count (arrays, objects).
    /// - `second`: kind (3 bits) · flags (5 bits) · payload: the offset just
    ///   past the content (strings, keys, numbers) or the index just past the
    ///   container's last entry (arrays, objects).
    struct Entry {
        var first: Int
        var second: Int

        @inline(__always) var kind: Kind { Kind(rawValue: UInt8(truncatingIfNeeded: second & 7)) ?? .null }
        @inline(__always) var payload: Int { second >> 8 }
        @inline(__always) func has(_ flag: Int) -> Bool { second & flag != 0 }
    }

    /// A string or key with escapes, or with invalid UTF-8 to repair: decode, do not copy.
    static let needsDecoding = 1 << 3
    /// An object with a repeated key (kept under `keepFirst` / `keepLast`).
    static let hasDuplicateKeys = 1 << 4
    /// A string or key with a raw byte above 0x7F: its spelling may not be the only one
    /// (canonically equivalent keys compare as Strings, not bytes).
    static let nonASCII = 1 << 5

    var entries: [Entry] = []
    /// Set when a container was closed at an index that is not on the tape (a bug
    /// in the parser): the parse then throws `internalInvariantViolated`.
    var closedOutsideTape = false

    init(expectedBytes: Int) {
        // About one value per 16 bytes of typical JSON; growth covers the rest.
        entries.reserveCapacity(Swift.min(expectedBytes / 16 + 16, 1 << 20))
    }

    /// An empty tape that allocates nothing: the byte reader's, which writes none.
    init() {}

    @inline(__always)
    static func second(_ kind: Kind, flags: Int = 0, payload: Int) -> Int {
        payload << 8 | flags | Int(kind.rawValue)
    }

    @inline(__always)
    mutating func append(_ kind: Kind, first: Int = 0, flags: Int = 0, payload: Int = 0) {
        entries.append(Entry(first: first, second: Self.second(kind, flags: flags, payload: payload)))
    }

    /// Closes the container that starts at `index`.
    mutating func close(_ index: Int, kind: Kind, count: Int, flags: Int) {
        guard entries.indices.contains(index) else {
            closedOutsideTape = true
            return
        }
        entries[index] = Entry(first: count, second: Self.second(kind, flags: flags, payload: entries.count))
    }
}
