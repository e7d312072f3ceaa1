@_spi(Scanning) import VettedCore

/// A small direct-mapped cache of strings of up to 16 bytes, keyed by their
/// exact bytes (length and two little-endian words), so repeated keys and
/// short values are not decoded again. Bounded: a hostile document can only
/// make it miss.
///
/// The table is made only once a document has shown it has more short strings
/// than ``warmUp``: a small request body never pays for 256 slots it cannot fill.
struct ShortStringCache {
    static let maximumLength = 16
    private static let slots = 256
    static let warmUp = 32

    private struct Entry {
        var length = -1
        var low: UInt64 = 0
        var high: UInt64 = 0
        var string = ""
    }

    private var entries: [Entry] = []
    private var missesBeforeTable = 0

    @inline(__always)
    static func slot(length: Int, low: UInt64, high: UInt64) -> Int {
        var mixed = (low ^ (high &* 0x9E37_79B9_7F4A_7C15) ^ UInt64(length)) &* 0xBF58_476D_1CE4_E5B9
        mixed ^= mixed >> 32
        return Int(truncatingIfNeeded: mixed) & (slots - 1)
    }

    @inline(__always)
    func string(in slot: Int, length: Int, low: UInt64, high: UInt64) -> String? {
        guard !entries.isEmpty else { return nil }
        let entry = entries[slot]
        guard entry.length == length, entry.low == low, entry.high == high else { return nil }
        return entry.string
    }

    @inline(__always)
    mutating func store(_ string: String, in slot: Int, length: Int, low: UInt64, high: UInt64) {
        if entries.isEmpty {
            guard missesBeforeTable >= Self.warmUp else {
                missesBeforeTable += 1
                return
            }
            entries = [Entry](repeating: Entry(), count: Self.slots)
        }
        entries[slot] = Entry(length: length, low: low, high: high, string: string)
    }
}

/// The key arrays of the last few object shapes: consecutive objects with the
/// same keys in the same order (rows of a table, items of a list) share one
/// array instead of each holding a copy.
struct ShapeCache {
    private static let capacity = 8
    private var shapes: [[String]] = []
    private var next = 0
    private var lastHit = 0

    mutating func keys(matching candidate: ArraySlice<String>) -> [String] {
        if shapes.indices.contains(lastHit), shapes[lastHit].elementsEqual(candidate) {
            return shapes[lastHit]
        }
        for index in shapes.indices where shapes[index].elementsEqual(candidate) {
            lastHit = index
            return shapes[index]
        }
        let shape = Array(candidate)
        if shapes.count < Self.capacity {
            shapes.append(shape)
            lastHit = shapes.count - 1
        } else {
            shapes[next] = shape
            lastHit = next
            next = (next + 1) % Self.capacity
        }
        return shape
    }
}
