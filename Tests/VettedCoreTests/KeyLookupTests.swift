import Testing
import VettedCore

/// `SmallKeyTable.find`, the one key lookup of every decoder: the key itself from
/// any start, and `tooLarge` (the caller's index) only once a lookup would compare
/// more than `linearSearchLimit` keys.
@Suite struct KeyLookupTests {
    /// Keys at 10, 12, 14, … (a stride, as a tape's keys sit between their values).
    @Test func everyKeyIsFoundFromEveryStartAndTheIndexAskedOnlyPastTheLimit() {
        let limit = SmallKeyTable.linearSearchLimit
        for count in 0...(limit * 2 + 3) {
            let positions = (0..<count).map { 10 + 2 * $0 }
            let end = 10 + 2 * count
            // A start is a key's position, or outside the keys (then the scan starts at the first).
            for start in [-1, 0, 9, end, end + 5] + positions {
                for target in [-1] + Array(0..<count) {
                    let context = Comment(rawValue: "count \(count), start \(start), target \(target)")
                    var compared = 0
                    let scan = SmallKeyTable.find(
                        first: 10, end: end, start: start, next: { $0 + 2 },
                        matches: { position in
                            compared += 1
                            return target >= 0 && position == positions[target]
                        })
                    #expect(compared <= limit, context)
                    switch scan {
                    case .found(let position): #expect(target >= 0 && position == positions[target], context)
                    case .absent: #expect(target == -1, context)
                    case .tooLarge:
                        // Only when a key is left after `limit` comparisons: never for a small object.
                        #expect(count > limit && compared == limit, context)
                    }
                    // Within `limit` keys of the start (wrapping around), the key is found by the scan.
                    if target >= 0, let from = positions.firstIndex(of: start) ?? (start < 10 || start >= end ? 0 : nil) {
                        let distance = (target - from + count) % count
                        if distance < limit { #expect(scan == .found(positions[target]), context) }
                    }
                }
            }
        }
    }

    /// Keys asked for in written order are each found by the first comparison.
    @Test func keysAskedInOrderCostOneComparisonEach() {
        let keys = (0..<100).map { "k\($0)" }
        var start = 0
        var compared = 0
        for key in keys {
            let scan = SmallKeyTable.find(
                first: 0, end: keys.count, start: start, next: { $0 + 1 },
                matches: { compared += 1; return keys[$0] == key })
            guard case .found(let position) = scan else {
                Issue.record("\(key): \(scan)")
                return
            }
            #expect(keys[position] == key)
            start = position + 1
        }
        #expect(compared == keys.count)
    }
}
