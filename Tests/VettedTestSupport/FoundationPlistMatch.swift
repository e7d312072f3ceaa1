// Whether a value read by Foundation's PropertyListSerialization equals a
// PlistValue: one definition shared by the plist differential tests and the
// plist benchmark's pre-timing check (which links to this file).

import Foundation
public import VettedPlist

/// `foundation` (as PropertyListSerialization returns it) equals `value`.
/// UIDs are not compared: Foundation on Linux has no public UID type.
public func foundationValue(_ foundation: Any, matches value: PlistValue) -> Bool {
    switch value {
    case .bool(let flag): return (foundation as? Bool) == flag
    case .integer(.signed(let signed)): return (foundation as? NSNumber)?.int64Value == signed
    case .integer(.unsigned(let unsigned)): return (foundation as? NSNumber)?.uint64Value == unsigned
    case .real(let real): return (foundation as? NSNumber)?.doubleValue == real
    case .string(let string): return (foundation as? String) == string
    case .data(let data): return (foundation as? Data) == data
    case .date(let date): return (foundation as? Date) == date
    case .uid: return true
    case .array(let elements):
        guard let array = foundation as? [Any], array.count == elements.count else { return false }
        return zip(array, elements).allSatisfy { foundationValue($0, matches: $1) }
    case .dictionary(let dictionary):
        guard let object = foundation as? [String: Any], object.count == dictionary.count else { return false }
        return dictionary.allSatisfy { entry in object[entry.key].map { foundationValue($0, matches: entry.value) } ?? false }
    }
}
