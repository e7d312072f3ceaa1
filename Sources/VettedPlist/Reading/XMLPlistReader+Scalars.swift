#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
@_spi(Scanning) import VettedCore

/// The scalar elements' text read as values: data, dates, integers, reals.
extension XMLPlistReader {
    // MARK: Scalars

    func base64(_ text: String, at offset: Int) throws(VettedError) -> Data {
        var sextets: [UInt8] = []
        sextets.reserveCapacity(text.utf8.count)
        var padding = 0
        for byte in text.utf8 {
            let sextet: UInt8
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): sextet = byte - UInt8(ascii: "A")
            case UInt8(ascii: "a")...UInt8(ascii: "z"): sextet = byte - UInt8(ascii: "a") + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): sextet = byte - UInt8(ascii: "0") + 52
            case UInt8(ascii: "+"): sextet = 62
            case UInt8(ascii: "/"): sextet = 63
            case UInt8(ascii: "="):
                padding += 1
                continue
            case 0x20, 0x09, 0x0A, 0x0D:
                continue
            default:
                throw error(.invalidBase64, at: offset, "base64 data holds a character outside the alphabet", path: path())
            }
            guard padding == 0 else { throw error(.invalidBase64, at: offset, "base64 data continues after its padding", path: path()) }
            sextets.append(sextet)
        }
        guard padding <= 2, (sextets.count + padding) % 4 == 0 || padding == 0 && sextets.count % 4 != 1 else {
            throw error(.invalidBase64, at: offset, "base64 data has a wrong length or padding", path: path())
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(sextets.count * 3 / 4)
        var index = 0
        while index + 1 < sextets.count {
            let a = sextets[index], b = sextets[index + 1]
            bytes.append(a << 2 | b >> 4)
            if index + 2 < sextets.count {
                let c = sextets[index + 2]
                bytes.append((b & 0x0F) << 4 | c >> 2)
                if index + 3 < sextets.count { bytes.append((c & 0x03) << 6 | sextets[index + 3]) }
            }
            index += 4
        }
        return Data(bytes)
    }

    /// `YYYY-MM-DDTHH:MM:SSZ`, UTC.
    func date(_ text: String, at offset: Int) throws(VettedError) -> Date {
        let bytes = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= bytes.count else { return nil }
            var value = 0
            for index in range {
                let digit = bytes[index] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                value = value * 10 + Int(digit)
            }
            return value
        }
        guard bytes.count == 20, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T"),
            bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"), bytes[19] == UInt8(ascii: "Z"),
            let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
            (1...12).contains(month), day >= 1, day <= CivilDate.daysIn(month: month, year: year),
            hour < 24, minute < 60, second < 60
        else {
            throw error(.invalidDate, at: offset, "date must be YYYY-MM-DDTHH:MM:SSZ", path: path())
        }
        let days = CivilDate.daysSince1970(year: year, month: month, day: day)
        return Date(timeIntervalSince1970: Double(days * 86_400 + hour * 3_600 + minute * 60 + second))
    }

    func integer(_ text: String, at offset: Int) throws(VettedError) -> PlistInteger {
        let trimmed = text.trimmingXMLWhitespace()
        guard trimmed.utf8.count <= limits.maxNumberLength else {
            throw error(.numberLengthLimitExceeded, at: offset, "integer text is longer than \(limits.maxNumberLength) bytes", path: path())
        }
        var digits = Substring(trimmed)
        var negative = false
        if digits.hasPrefix("-") || digits.hasPrefix("+") {
            negative = digits.hasPrefix("-")
            digits = digits.dropFirst()
        }
        var radix = 10
        if digits.hasPrefix("0x") || digits.hasPrefix("0X") {
            radix = 16
            digits = digits.dropFirst(2)
        }
        guard !digits.isEmpty, digits.allSatisfy({ $0.isHexDigit && (radix == 16 || $0.isNumber) }) else {
            throw error(.invalidNumberText, at: offset, "not an integer", path: path())
        }
        guard let magnitude = UInt64(digits, radix: radix) else {
            throw error(.integerOutOfRange, at: offset, "integer outside the 64-bit range", path: path())
        }
        if !negative { return PlistInteger(magnitude) }
        if magnitude == UInt64(Int64.max) + 1 { return .signed(.min) }
        guard magnitude <= UInt64(Int64.max) else {
            throw error(.integerOutOfRange, at: offset, "integer outside the 64-bit range", path: path())
        }
        return .signed(-Int64(magnitude))
    }

    func real(_ text: String, at offset: Int) throws(VettedError) -> Double {
        let trimmed = text.trimmingXMLWhitespace()
        guard trimmed.utf8.count <= limits.maxNumberLength else {
            throw error(.numberLengthLimitExceeded, at: offset, "real text is longer than \(limits.maxNumberLength) bytes", path: path())
        }
        switch trimmed.lowercased() {
        case "nan", "+nan", "-nan": return .nan
        case "inf", "+inf", "infinity", "+infinity": return .infinity
        case "-inf", "-infinity": return -.infinity
        default: break
        }
        // Decimal notation only (no hex floats).
        let allowed = trimmed.utf8.allSatisfy { byte in
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e")
                || byte == UInt8(ascii: "E") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
        }
        guard allowed, let value = Double(trimmed) else {
            throw error(.invalidNumberText, at: offset, "not a real number", path: path())
        }
        return value
    }
}
