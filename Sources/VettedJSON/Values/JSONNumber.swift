#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif
import VettedCore

/// A JSON number, kept as its exact literal so nothing is lost.
///
/// Conversions check instead of trapping or rounding silently:
/// - ``intValue``, ``int64Value``, ``uint64Value`` throw `numberNotInteger`
///   for a fractional value and `numberOutOfRange` when it does not fit; an
///   integral value written with a fraction or exponent (`1.0`, `1e2`) converts.
/// - ``doubleValue`` is correctly rounded; a literal beyond `Double`'s range
///   throws `numberOutOfRange` (never `inf`); one below it rounds to zero.
/// - ``decimalValue`` throws `numberOutOfRange` beyond `Decimal`'s exponent range.
///
/// Equality compares literals: `1`, `1.0` and `1e0` are different numbers;
/// compare ``doubleValue``s to compare magnitudes.
public struct JSONNumber: Sendable, Hashable, CustomStringConvertible {
    /// The literal exactly as written in the document.
    public let literal: String

    /// A number from a literal in JSON's grammar; `nil` for anything else.
    public init?(literal: String) {
        // The parser would skip surrounding whitespace; a literal has none.
        guard let first = literal.utf8.first, let last = literal.utf8.last,
            first == UInt8(ascii: "-") || first &- UInt8(ascii: "0") < 10, last &- UInt8(ascii: "0") < 10
        else { return nil }
        guard case .number(let number) = try? JSONParser(limits: .unlimited).parse(literal) else { return nil }
        self = number
    }

    /// From a literal the parser already checked.
    init(validatedLiteral: String) { literal = validatedLiteral }

    public init<Integer: BinaryInteger>(_ value: Integer) { literal = String(value) }

    /// The shortest literal that reads back as `value`; `nil` for NaN and infinities.
    public init?(_ value: Double) {
        guard value.isFinite else { return nil }
        literal = value.description
    }

    public var description: String { literal }

    // MARK: Conversions

    public var intValue: Int {
        get throws(VettedError) {
            guard let value = Int(exactly: try int64Value) else { throw outOfRange("Int") }
            return value
        }
    }

    public var int64Value: Int64 {
        get throws(VettedError) {
            let (negative, magnitude) = try integerParts()
            if negative {
                if magnitude == UInt64(Int64.max) + 1 { return .min }
                guard magnitude <= UInt64(Int64.max) else { throw outOfRange("Int64") }
                return -Int64(magnitude)
            }
            guard magnitude <= UInt64(Int64.max) else { throw outOfRange("Int64") }
            return Int64(magnitude)
        }
    }

    public var uint64Value: UInt64 {
        get throws(VettedError) {
            let (negative, magnitude) = try integerParts()
            guard !negative || magnitude == 0 else { throw outOfRange("UInt64") }
            return magnitude
        }
    }

    public var doubleValue: Double {
        get throws(VettedError) {
            guard let value = Double(literal), value.isFinite else { throw outOfRange("Double") }
            return value
        }
    }

    public var decimalValue: Decimal {
        get throws(VettedError) {
            guard let value = Decimal(string: literal), !value.isNaN else { throw outOfRange("Decimal") }
            return value
        }
    }

    private func outOfRange(_ type: String) -> VettedError {
        VettedError(
            code: .numberOutOfRange,
            message: "number \(Excerpt.escape(literal, maximumBytes: 24)) does not fit in \(type)")
    }

    /// Sign and magnitude of an integral literal, exactly.
    private func integerParts() throws(VettedError) -> (negative: Bool, magnitude: UInt64) {
        let bytes = Array(literal.utf8)
        var index = 0
        let negative = bytes.first == UInt8(ascii: "-")
        if negative { index += 1 }
        var digits: [UInt8] = []
        var fractionDigits = 0
        var inFraction = false
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: ".") {
                inFraction = true
            } else if byte &- UInt8(ascii: "0") < 10 {
                digits.append(byte &- UInt8(ascii: "0"))
                if inFraction { fractionDigits += 1 }
            } else {
                break
            }
            index += 1
        }
        // Exponent, clamped: anything beyond ±10^9 is out of every range anyway.
        var exponent = 0
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            var exponentNegative = false
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
                exponentNegative = bytes[index] == UInt8(ascii: "-")
                index += 1
            }
            while index < bytes.count, bytes[index] &- UInt8(ascii: "0") < 10 {
                if exponent < 1_000_000_000 { exponent = exponent * 10 + Int(bytes[index] &- UInt8(ascii: "0")) }
                index += 1
            }
            if exponentNegative { exponent = -exponent }
        }
        // value = digits × 10^scale
        var scale = exponent - fractionDigits
        let firstNonZero = digits.firstIndex(where: { $0 != 0 }) ?? digits.endIndex
        var significant = digits[firstNonZero...]
        if significant.isEmpty { return (negative, 0) }
        while let last = significant.last, last == 0 {
            significant.removeLast()
            scale += 1
        }
        guard scale >= 0 else {
            throw VettedError(
                code: .numberNotInteger,
                message: "number \(Excerpt.escape(literal, maximumBytes: 24)) has a fractional part")
        }
        guard significant.count + scale <= 20 else { throw outOfRange("a 64-bit integer") }
        var magnitude: UInt64 = 0
        for digit in significant + Array(repeating: 0, count: scale) {
            let (times10, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(UInt64(digit))
            guard !overflow1, !overflow2 else { throw outOfRange("a 64-bit integer") }
            magnitude = sum
        }
        return (negative, magnitude)
    }
}
