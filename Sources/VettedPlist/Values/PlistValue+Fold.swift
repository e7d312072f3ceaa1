#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif

extension PlistValue {
    /// The value folded bottom-up, without recursion (no depth the limits allow
    /// deepens the stack): each leaf becomes `leaf(value)`, each array
    /// `array(its folded elements)`, each dictionary `dictionary(keys, folded
    /// values)`, its entries first passed through `entries` (a duplicate-key
    /// policy, say). The one walk that turns a property list into another tree:
    /// a PlistValue, an archived value, JSON. Linear in the value.
    ///
    /// - Returns: The folded value; `nil` only if the walk's own bookkeeping broke (never).
    /// - Throws: What the closures throw.
    package func folded<Result, Failure: Error>(
        entries: (PlistDictionary) throws(Failure) -> PlistDictionary,
        leaf: (PlistScalar) throws(Failure) -> Result,
        array: ([Result]) throws(Failure) -> Result,
        dictionary: ([String], [Result]) throws(Failure) -> Result
    ) throws(Failure) -> Result? {
        var steps: [FoldStep] = [.visit(self)]
        var built: [Result] = []
        while let step = steps.popLast() {
            switch step {
            case .visit(.array(let elements)):
                steps.append(.array(elements.count))
                steps.append(contentsOf: elements.reversed().map(FoldStep.visit))
            case .visit(.dictionary(let dictionary)):
                let kept = try entries(dictionary)
                steps.append(.dictionary(kept.keys))
                steps.append(contentsOf: kept.values.reversed().map(FoldStep.visit))
            case .visit(.string(let string)): built.append(try leaf(.string(string)))
            case .visit(.data(let data)): built.append(try leaf(.data(data)))
            case .visit(.date(let date)): built.append(try leaf(.date(date)))
            case .visit(.integer(let integer)): built.append(try leaf(.integer(integer)))
            case .visit(.real(let real)): built.append(try leaf(.real(real)))
            case .visit(.bool(let flag)): built.append(try leaf(.bool(flag)))
            case .visit(.uid(let uid)): built.append(try leaf(.uid(uid)))
            case .array(let count):
                guard count <= built.count else { return nil }
                let elements = Array(built.suffix(count))
                built.removeLast(count)
                built.append(try array(elements))
            case .dictionary(let keys):
                guard keys.count <= built.count else { return nil }
                let values = Array(built.suffix(keys.count))
                built.removeLast(keys.count)
                built.append(try dictionary(keys, values))
            }
        }
        return built.count == 1 ? built.last : nil
    }
}

/// A property-list value that holds no other: what a fold's `leaf` is given.
package enum PlistScalar {
    case string(String)
    case data(Data)
    case date(Date)
    case integer(PlistInteger)
    case real(Double)
    case bool(Bool)
    case uid(UInt64)

    /// The scalar as a value.
    package var value: PlistValue {
        switch self {
        case .string(let string): .string(string)
        case .data(let data): .data(data)
        case .date(let date): .date(date)
        case .integer(let integer): .integer(integer)
        case .real(let real): .real(real)
        case .bool(let flag): .bool(flag)
        case .uid(let uid): .uid(uid)
        }
    }
}

/// What ``PlistValue/folded(entries:leaf:array:dictionary:)`` does next.
private enum FoldStep {
    /// Fold this value (a leaf at once; a container's members first).
    case visit(PlistValue)
    /// Make an array of the last `count` results.
    case array(Int)
    /// Make a dictionary of these keys and as many last results.
    case dictionary([String])
}
