import VettedJSON

/// A JSON number as written, held exactly: sign × digits × 10^exponent, the
/// digits without leading or trailing zeros. `1`, `1.0` and `10e-1` are one
/// value; `1e400` is a value like any other (nothing overflows); comparisons
/// and `multipleOf` never round.
struct ExactNumber: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// Significant digits, most significant first, each 0…9; empty for zero.
    private(set) var digits: [UInt8]
    /// Power of ten of the last digit. Saturates far beyond any literal the parser accepts.
    private(set) var exponent: Int
    private(set) var negative: Bool
    /// The value as an `Int` when it is an integer of at most 18 digits: what the
    /// fast paths of the comparisons read, without looking at `digits`.
    private(set) var small: Int?

    static let zero = ExactNumber(digits: [], exponent: 0, negative: false)
    /// Exponents are kept within ±2^48: literals are bounded by `Limits.maxNumberLength`,
    /// so only a literal such as `1e999999999999999999` meets the bound, and keeps its order.
    private static let exponentBound = 1 << 48

    private init(digits: [UInt8], exponent: Int, negative: Bool) {
        self.digits = digits
        self.exponent = exponent
        self.negative = negative
        small = nil
        small = intValue
    }

    init(_ number: JSONNumber) {
        self.init(literal: number.literal)
    }

    init(_ value: Int) {
        self.init(literal: String(value))
    }

    /// Reads a literal in JSON's grammar (the parser has checked it).
    init(literal: String) {
        var negative = false
        var digits: [UInt8] = []
        var fractionDigits = 0
        var exponent = 0
        var exponentNegative = false
        enum Part { case integer, fraction, exponent }
        var part = Part.integer
        for byte in literal.utf8 {
            switch byte {
            case UInt8(ascii: "-"):
                if part == .exponent { exponentNegative = true } else { negative = true }
            case UInt8(ascii: "+"):
                continue
            case UInt8(ascii: "."):
                part = .fraction
            case UInt8(ascii: "e"), UInt8(ascii: "E"):
                part = .exponent
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                let digit = byte &- UInt8(ascii: "0")
                switch part {
                case .integer:
                    if !(digits.isEmpty && digit == 0) { digits.append(digit) }
                case .fraction:
                    if !(digits.isEmpty && digit == 0) { digits.append(digit) }
                    fractionDigits = Swift.min(fractionDigits + 1, Self.exponentBound)
                case .exponent:
                    exponent = Swift.min(exponent * 10 + Int(digit), Self.exponentBound)
                }
            default:
                continue
            }
        }
        var power = (exponentNegative ? -exponent : exponent) - fractionDigits
        while let last = digits.last, last == 0 {
            digits.removeLast()
            power += 1
        }
        if digits.isEmpty {
            self = .zero
        } else {
            self.init(digits: digits, exponent: power, negative: negative)
        }
    }

    /// The value of `literal` when it is an integer written with at most 18 digits and no
    /// fraction or exponent (`-42`, `1234`): the common case, read without building digits.
    static func smallInteger(_ literal: String) -> Int? {
        var value = 0
        var count = 0
        var negative = false
        for byte in literal.utf8 {
            if byte == UInt8(ascii: "-"), count == 0, !negative {
                negative = true
                continue
            }
            let digit = byte &- UInt8(ascii: "0")
            guard digit < 10, count < 18 else { return nil }
            value = value &* 10 &+ Int(digit)
            count += 1
        }
        guard count > 0 else { return nil }
        return negative ? 0 &- value : value
    }

    /// Whether `literal` (checked by the parser) is an integer: `1.0` and `1e2` are; `1.5` is not.
    static func isInteger(literal: String) -> Bool {
        if !literal.utf8.contains(where: { $0 == UInt8(ascii: ".") || $0 | 0x20 == UInt8(ascii: "e") }) { return true }
        return ExactNumber(literal: literal).isInteger
    }

    /// How `literal` (checked by the parser) compares with `limit`: negative, zero or positive.
    static func compare(literal: String, to limit: ExactNumber) -> Int {
        if let small = limit.small, let value = smallInteger(literal) {
            return value < small ? -1 : value == small ? 0 : 1
        }
        let value = ExactNumber(literal: literal)
        return value < limit ? -1 : limit < value ? 1 : 0
    }

    var isZero: Bool { digits.isEmpty }
    var isInteger: Bool { digits.isEmpty || exponent >= 0 }

    /// The value as an `Int`, if it is an integer that fits.
    var intValue: Int? {
        guard isInteger, digits.count + exponent <= 18 else { return nil }
        var value = 0
        for digit in digits { value = value * 10 + Int(digit) }
        for _ in 0..<Swift.max(0, exponent) { value *= 10 }
        return negative ? -value : value
    }

    /// Position of the most significant digit: numbers of larger magnitude have a larger one.
    private var magnitudeOrder: Int { digits.count + exponent }

    private static func compareMagnitude(_ a: ExactNumber, _ b: ExactNumber) -> Int {
        if a.isZero || b.isZero { return a.isZero ? (b.isZero ? 0 : -1) : 1 }
        if a.magnitudeOrder != b.magnitudeOrder { return a.magnitudeOrder < b.magnitudeOrder ? -1 : 1 }
        for (x, y) in zip(a.digits, b.digits) where x != y { return x < y ? -1 : 1 }
        return a.digits.count == b.digits.count ? 0 : (a.digits.count < b.digits.count ? -1 : 1)
    }

    static func < (a: ExactNumber, b: ExactNumber) -> Bool {
        if a.negative != b.negative { return a.negative }
        let order = compareMagnitude(a, b)
        return a.negative ? order > 0 : order < 0
    }

    /// Whether `self` is an integer multiple of `divisor` (which is positive), exactly.
    /// `nil` when the divisor has more than 19 significant digits (the schema compiler refuses those).
    func isMultiple(of divisor: ExactNumber) -> Bool? {
        if let small, let modulus = divisor.small, modulus > 0 { return small % modulus == 0 }
        if isZero { return true }
        guard divisor.digits.count <= 19 else { return nil }
        // self / divisor = (digits / divisor.digits) × 10^(exponent − divisor.exponent); with no
        // trailing zeros in `digits`, a negative power of ten leaves a fraction.
        guard exponent >= divisor.exponent else { return false }
        var modulus: UInt64 = 0
        for digit in divisor.digits { modulus = modulus * 10 + UInt64(digit) }
        if modulus == 1 { return true }
        var remainder: UInt64 = 0
        for digit in digits { remainder = Self.addmod(Self.mulmod(remainder, 10, modulus), UInt64(digit), modulus) }
        let scale = Self.powmod(10, UInt64(exponent - divisor.exponent), modulus)
        return Self.mulmod(remainder, scale, modulus) == 0
    }

    private static func addmod(_ a: UInt64, _ b: UInt64, _ m: UInt64) -> UInt64 {
        let (sum, overflow) = a.addingReportingOverflow(b % m)
        if overflow || sum >= m { return sum &- m }
        return sum
    }

    private static func mulmod(_ a: UInt64, _ b: UInt64, _ m: UInt64) -> UInt64 {
        let product = (a % m).multipliedFullWidth(by: b % m)
        return m.dividingFullWidth((high: product.high, low: product.low)).remainder
    }

    private static func powmod(_ base: UInt64, _ power: UInt64, _ m: UInt64) -> UInt64 {
        var result: UInt64 = 1 % m
        var base = base % m
        var power = power
        while power > 0 {
            if power & 1 == 1 { result = mulmod(result, base, m) }
            base = mulmod(base, base, m)
            power >>= 1
        }
        return result
    }

    /// A canonical spelling: equal values, equal text (`-12e3`, `0`).
    var description: String {
        if isZero { return "0" }
        return (negative ? "-" : "") + String(decoding: digits.map { $0 &+ UInt8(ascii: "0") }, as: UTF8.self) + "e" + String(exponent)
    }
}
