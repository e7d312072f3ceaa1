import Foundation
import VettedCore

/// `format` as an assertion (``JSONSchema/Options/assertFormats``): each check
/// reads the string once, by hand, in linear time. `nil` for a format Vetted
/// does not know, which passes, as the specification says.
enum SchemaFormat {
    static func check(_ format: String, _ text: String) -> Bool? {
        let bytes = Array(text.utf8)
        switch format {
        case "date": return isDate(bytes[...])
        case "time": return isTime(bytes[...])
        case "date-time":
            guard let t = bytes.firstIndex(where: { $0 == UInt8(ascii: "T") || $0 == UInt8(ascii: "t") }) else { return false }
            return isDate(bytes[..<t]) && isTime(bytes[(t + 1)...])
        case "duration": return isDuration(bytes)
        case "email": return isEmail(text)
        case "hostname": return isHostname(text)
        case "ipv4": return isIPv4(Substring(text))
        case "ipv6": return isIPv6(text)
        case "uuid": return isUUID(bytes)
        case "uri": return isURI(text, absolute: true)
        case "uri-reference": return isURI(text, absolute: false)
        case "iri": return isURI(text, absolute: true, international: true)
        case "iri-reference": return isURI(text, absolute: false, international: true)
        case "json-pointer": return isJSONPointer(Substring(text))
        case "relative-json-pointer": return isRelativeJSONPointer(text)
        case "regex": return (try? SchemaPattern.compile(text, at: "format")) != nil
        default: return nil
        }
    }

    private static func digits(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard !bytes.isEmpty, bytes.count <= 9 else { return nil }
        var value = 0
        for byte in bytes {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    /// RFC 3339 full-date.
    static func isDate(_ bytes: ArraySlice<UInt8>) -> Bool {
        let b = Array(bytes)
        guard b.count == 10, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"),
            let year = digits(b[0..<4]), let month = digits(b[5..<7]), let day = digits(b[8..<10]),
            (1...12).contains(month), day >= 1
        else { return false }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        return day <= days[month - 1]
    }

    /// RFC 3339 full-time: hh:mm:ss, a fraction, then Z or an offset; a leap second only at 23:59:60 UTC.
    static func isTime(_ bytes: ArraySlice<UInt8>) -> Bool {
        let b = Array(bytes)
        guard b.count >= 9, b[2] == UInt8(ascii: ":"), b[5] == UInt8(ascii: ":"),
            let hour = digits(b[0..<2]), let minute = digits(b[3..<5]), let second = digits(b[6..<8]),
            hour <= 23, minute <= 59, second <= 60
        else { return false }
        var index = 8
        if b[index] == UInt8(ascii: ".") {
            index += 1
            let start = index
            while index < b.count, b[index] >= UInt8(ascii: "0"), b[index] <= UInt8(ascii: "9") { index += 1 }
            guard index > start else { return false }
        }
        guard index < b.count else { return false }
        var offsetMinutes = 0
        switch b[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            guard index + 1 == b.count else { return false }
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            guard b.count - index == 6, b[index + 3] == UInt8(ascii: ":"),
                let offsetHour = digits(b[(index + 1)..<(index + 3)]), let offsetMinute = digits(b[(index + 4)..<(index + 6)]),
                offsetHour <= 23, offsetMinute <= 59
            else { return false }
            offsetMinutes = (offsetHour * 60 + offsetMinute) * (b[index] == UInt8(ascii: "+") ? 1 : -1)
        default:
            return false
        }
        if second == 60 {
            // The leap second is 23:59:60 in UTC.
            let utc = ((hour * 60 + minute - offsetMinutes) % 1440 + 1440) % 1440
            return utc == 23 * 60 + 59
        }
        return true
    }

    /// ISO 8601 duration as RFC 3339 appendix A writes it: P, date parts in order, T and time parts in order, or weeks alone.
    static func isDuration(_ bytes: [UInt8]) -> Bool {
        guard bytes.first == UInt8(ascii: "P"), bytes.count > 1 else { return false }
        var index = 1
        var inTime = false
        var order = "YMD"
        var any = false
        var weeks = false
        var timeParts = false
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "T") {
                guard !inTime else { return false }
                inTime = true
                order = "HMS"
                index += 1
                continue
            }
            let start = index
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") { index += 1 }
            guard index > start, index < bytes.count else { return false }
            let unit = Character(Unicode.Scalar(bytes[index]))
            index += 1
            if !inTime, unit == "W" {
                weeks = true
            } else {
                guard let position = order.firstIndex(of: unit) else { return false }
                order = String(order[order.index(after: position)...])
            }
            any = true
            if inTime { timeParts = true }
        }
        if inTime, !timeParts { return false }
        if weeks, any, bytes.count != bytes.firstIndex(of: UInt8(ascii: "W")).map({ $0 + 1 }) { return false }
        return any
    }

    static func isEmail(_ text: String) -> Bool {
        guard let at = text.lastIndex(of: "@") else { return false }
        let local = text[..<at]
        let domain = text[text.index(after: at)...]
        guard !local.isEmpty, !domain.isEmpty, !local.hasPrefix("."), !local.hasSuffix("."), !local.contains("..") else { return false }
        if domain.hasPrefix("["), domain.hasSuffix("]") {
            let inner = domain.dropFirst().dropLast()
            if inner.hasPrefix("IPv6:") { return isIPv6(String(inner.dropFirst(5))) }
            return isIPv4(inner)
        }
        return isHostname(String(domain))
    }

    static func isHostname(_ text: String) -> Bool {
        guard !text.isEmpty, text.utf8.count <= 253 else { return false }
        for label in text.split(separator: ".", omittingEmptySubsequences: false) {
            guard !label.isEmpty, label.utf8.count <= 63, !label.hasPrefix("-"), !label.hasSuffix("-") else { return false }
            guard label.utf8.allSatisfy({ $0 < 128 && (Character(Unicode.Scalar($0)).isLetter || Character(Unicode.Scalar($0)).isNumber || $0 == UInt8(ascii: "-")) })
            else { return false }
            // A label with "--" in the third and fourth places is an A-label (punycode) or reserved.
            let utf8 = Array(label.utf8)
            if utf8.count >= 4, utf8[2] == UInt8(ascii: "-"), utf8[3] == UInt8(ascii: "-"), !label.lowercased().hasPrefix("xn--") { return false }
        }
        return true
    }

    static func isIPv4(_ text: Substring) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return false }
        for part in parts {
            guard !part.isEmpty, part.count <= 3, part.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
                let value = Int(part), value <= 255, !(part.count > 1 && part.hasPrefix("0"))
            else { return false }
        }
        return true
    }

    static func isIPv6(_ text: String) -> Bool {
        guard !text.isEmpty, text.utf8.count <= 45 else { return false }
        var groups = text.components(separatedBy: "::")
        guard groups.count <= 2 else { return false }
        let compressed = groups.count == 2
        var count = 0
        for (position, part) in groups.enumerated() where !part.isEmpty {
            var pieces = part.split(separator: ":", omittingEmptySubsequences: false)
            if let last = pieces.last, last.contains(".") {
                guard position == groups.count - 1, isIPv4(last) else { return false }
                pieces.removeLast()
                count += 2
            }
            for piece in pieces {
                guard (1...4).contains(piece.count), piece.allSatisfy(\.isHexDigit), piece.allSatisfy(\.isASCII) else { return false }
                count += 1
            }
        }
        groups.removeAll()
        return compressed ? count < 8 : count == 8
    }

    static func isUUID(_ bytes: [UInt8]) -> Bool {
        guard bytes.count == 36 else { return false }
        for (index, byte) in bytes.enumerated() {
            if [8, 13, 18, 23].contains(index) {
                guard byte == UInt8(ascii: "-") else { return false }
            } else {
                guard Character(Unicode.Scalar(byte)).isHexDigit else { return false }
            }
        }
        return true
    }

    static func isURI(_ text: String, absolute: Bool, international: Bool = false) -> Bool {
        let reference = URIReference(text)
        if absolute, reference.scheme == nil { return false }
        for scalar in text.unicodeScalars {
            if scalar.value > 0x7F {
                guard international else { return false }
                continue
            }
            if scalar.value <= 0x20 || "\"<>\\^`{|}".unicodeScalars.contains(scalar) { return false }
        }
        // Percent signs start two hex digits.
        let utf8 = Array(text.utf8)
        var index = 0
        while index < utf8.count {
            if utf8[index] == UInt8(ascii: "%") {
                guard index + 2 < utf8.count, Character(Unicode.Scalar(utf8[index + 1])).isHexDigit,
                    Character(Unicode.Scalar(utf8[index + 2])).isHexDigit
                else { return false }
            }
            index += 1
        }
        if let authority = reference.authority, authority.contains("[") {
            guard let open = authority.firstIndex(of: "["), let close = authority.firstIndex(of: "]"), open < close else { return false }
        }
        return true
    }

    static func isJSONPointer(_ text: Substring) -> Bool {
        if text.isEmpty { return true }
        guard text.hasPrefix("/") else { return false }
        var bytes = Array(text.utf8)[...]
        while let tilde = bytes.firstIndex(of: UInt8(ascii: "~")) {
            let next = bytes.index(after: tilde)
            guard next < bytes.endIndex, bytes[next] == UInt8(ascii: "0") || bytes[next] == UInt8(ascii: "1") else { return false }
            bytes = bytes[(next + 1)...]
        }
        return true
    }

    static func isRelativeJSONPointer(_ text: String) -> Bool {
        let utf8 = Array(text.utf8)
        var index = 0
        while index < utf8.count, utf8[index] >= UInt8(ascii: "0"), utf8[index] <= UInt8(ascii: "9") { index += 1 }
        guard index > 0, !(index > 1 && utf8[0] == UInt8(ascii: "0")) else { return false }
        let rest = text.utf8.dropFirst(index)
        if rest.elementsEqual("#".utf8) { return true }
        return isJSONPointer(Substring(String(decoding: rest, as: UTF8.self)))
    }
}
