import Foundation
import VettedCore

/// Foundation's `convertFromSnakeCase`: `first_name` → `firstName`; leading
/// and trailing underscores kept; a key without inner underscores unchanged.
package enum SnakeCase {
    package static func toCamelCase(_ key: String) -> String {
        guard let first = key.firstIndex(where: { $0 != "_" }) else { return key }
        var last = key.index(before: key.endIndex)
        while last > first, key[last] == "_" { key.formIndex(before: &last) }
        let core = key[first...last]
        let components = core.split(separator: "_")
        guard components.count > 1 else { return key }
        let leading = key[..<first]
        let trailing = key[key.index(after: last)...]
        let camel = components[0].lowercased() + components.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst().lowercased() }.joined()
        return leading + camel + trailing
    }
}

/// ISO 8601 date-times: `YYYY-MM-DDTHH:MM:SS`, optional fraction of a second,
/// then `Z` or an offset `±HH:MM` / `±HHMM`.
enum ISO8601 {
    static func date(from text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20 else { return nil }
        var head: UInt64 = 0
        var middle: UInt64 = 0
        for index in (0..<8).reversed() {
            head = head << 8 | UInt64(bytes[index])
            middle = middle << 8 | UInt64(bytes[8 + index])
        }
        return date(count: bytes.count, head: head, middle: middle) { bytes[$0] }
    }

    // The first sixteen bytes, `YYYY-MM-` and `DDTHH:MM`, are read as two little-endian
    // words and checked eight bytes at a time: byte i of a word is bits 8i..<8i+8.

    /// The digits' places in the first word (`YYYY-MM-`), and in the second (`DDTHH:MM`).
    private static let headDigits: UInt64 = 0x00FF_FF00_FFFF_FFFF
    private static let middleDigits: UInt64 = 0xFFFF_00FF_FF00_FFFF
    /// The separators each word must hold, in their places (the `T` lowercased: `t` is taken too).
    private static let headSeparators: UInt64 = 0x2D00_002D_0000_0000
    private static let middleSeparators: UInt64 = 0x0000_3A00_0074_0000

    /// Whether every byte of `word` that `digits` selects is an ASCII digit.
    @inline(__always)
    private static func allDigits(_ word: UInt64, _ digits: UInt64) -> Bool {
        let high = 0xF0F0_F0F0_F0F0_F0F0 & digits
        let zeros = 0x3030_3030_3030_3030 & digits
        // Each selected byte is 0x30...0x3F, so adding 6 carries into no other byte;
        // then it is still 0x3_ only if it was 0x30...0x39.
        return word & high == zeros && ((word & digits) &+ (0x0606_0606_0606_0606 & digits)) & high == zeros
    }

    /// The value of the digit at byte `index` of `word` (checked by ``allDigits(_:_:)``).
    @inline(__always)
    private static func digit(_ word: UInt64, _ index: Int) -> Int { Int(truncatingIfNeeded: (word >> UInt64(index * 8)) & 0x0F) }

    /// Parses `count` bytes: the first sixteen as `head` and `middle` (little-endian words),
    /// the rest read through `byte` (called only with `16..<count`).
    @inline(__always)
    static func date(count: Int, head: UInt64, middle: UInt64, byte read: (Int) -> UInt8) -> Date? {
        guard count >= 20, count <= 40 else { return nil }
        guard allDigits(head, headDigits), allDigits(middle, middleDigits), head & ~headDigits == headSeparators,
            (middle | 0x20_0000) & ~middleDigits == middleSeparators
        else { return nil }
        let year = digit(head, 0) * 1_000 + digit(head, 1) * 100 + digit(head, 2) * 10 + digit(head, 3)
        let month = digit(head, 5) * 10 + digit(head, 6)
        let day = digit(middle, 0) * 10 + digit(middle, 1)
        let hour = digit(middle, 3) * 10 + digit(middle, 4)
        let minute = digit(middle, 6) * 10 + digit(middle, 7)
        func byte(_ index: Int) -> UInt8 { index < count ? read(index) : 0 }
        func number(_ start: Int, _ length: Int) -> Int? {
            guard start + length <= count else { return nil }
            var value = 0
            for index in start..<(start + length) {
                let digit = byte(index) &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                value = value * 10 + Int(digit)
            }
            return value
        }
        guard byte(16) == UInt8(ascii: ":"), let second = number(17, 2),
            (1...12).contains(month), day >= 1, day <= CivilDate.daysIn(month: month, year: year), hour < 24, minute < 60, second < 60
        else { return nil }
        var index = 19
        var fraction = 0.0
        if byte(index) == UInt8(ascii: ".") {
            index += 1
            var scale = 0.1
            let start = index
            while index < count, byte(index) &- UInt8(ascii: "0") < 10 {
                fraction += Double(byte(index) - UInt8(ascii: "0")) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        guard index < count else { return nil }
        var offset = 0
        switch byte(index) {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            index += 1
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            let sign = byte(index) == UInt8(ascii: "-") ? -1 : 1
            guard let hours = number(index + 1, 2), hours < 24 else { return nil }
            var minutesStart = index + 3
            if minutesStart < count, byte(minutesStart) == UInt8(ascii: ":") { minutesStart += 1 }
            guard let minutes = number(minutesStart, 2), minutes < 60 else { return nil }
            offset = sign * (hours * 3_600 + minutes * 60)
            index = minutesStart + 2
        default:
            return nil
        }
        guard index == count else { return nil }
        let days = CivilDate.daysSince1970(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3_600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }
}
