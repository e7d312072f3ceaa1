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
        return date(count: bytes.count) { bytes[$0] }
    }

    /// Parses `count` bytes read through `byte` (called only with `0..<count`).
    @inline(__always)
    static func date(count: Int, byte read: (Int) -> UInt8) -> Date? {
        guard count >= 20, count <= 40 else { return nil }
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
        guard let year = number(0, 4), byte(4) == UInt8(ascii: "-"), let month = number(5, 2), byte(7) == UInt8(ascii: "-"),
            let day = number(8, 2), byte(10) | 0x20 == UInt8(ascii: "t"), let hour = number(11, 2), byte(13) == UInt8(ascii: ":"),
            let minute = number(14, 2), byte(16) == UInt8(ascii: ":"), let second = number(17, 2),
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
