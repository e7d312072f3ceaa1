#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif
public import VettedCore

/// Writes ``PlistValue``s as binary (`bplist00`) or XML property lists that
/// Apple's Foundation, Python's `plistlib` and ``PlistParser`` read back to
/// equal values. Iterative: no value is too deep to write.
public enum PlistWriter {
    // MARK: Binary

    private enum Object {
        case pending
        case scalar(PlistValue)
        case array([Int])
        case dictionary(keys: [Int], values: [Int])
    }

    /// `bplist00` bytes. Equal strings (such as repeated keys) are written once.
    public static func binary(_ value: PlistValue) -> [UInt8] {
        // Flatten into an object table.
        var objects: [Object] = [.pending]
        var stringIndex: [String: Int] = [:]
        var work: [(PlistValue, Int)] = [(value, 0)]
        func slot(for value: PlistValue) -> Int {
            if case .string(let string) = value, let index = stringIndex[string] { return index }
            let index = objects.count
            objects.append(.pending)
            if case .string(let string) = value { stringIndex[string] = index }
            work.append((value, index))
            return index
        }
        while let (value, index) = work.popLast() {
            switch value {
            case .array(let elements):
                objects[index] = .array(elements.map { slot(for: $0) })
            case .dictionary(let dictionary):
                let keys = dictionary.map { slot(for: .string($0.key)) }
                let values = dictionary.map { slot(for: $0.value) }
                objects[index] = .dictionary(keys: keys, values: values)
            default:
                objects[index] = .scalar(value)
            }
        }
        // Wide enough for the object count itself, not only the largest reference:
        // CoreFoundation refuses a plist whose count does not fit (256 objects, 1-byte references).
        let referenceSize = byteCount(UInt64(objects.count))
        var output: [UInt8] = Array("bplist00".utf8)
        var offsets: [Int] = []
        offsets.reserveCapacity(objects.count)
        for object in objects {
            offsets.append(output.count)
            switch object {
            case .pending:
                output.append(0x00)
            case .array(let references):
                appendMarker(0xA, count: references.count, to: &output)
                for reference in references { appendBigEndian(UInt64(reference), size: referenceSize, to: &output) }
            case .dictionary(let keys, let values):
                appendMarker(0xD, count: keys.count, to: &output)
                for reference in keys + values { appendBigEndian(UInt64(reference), size: referenceSize, to: &output) }
            case .scalar(let scalar):
                appendScalar(scalar, to: &output)
            }
        }
        let tableOffset = output.count
        let offsetSize = byteCount(UInt64(tableOffset))
        for offset in offsets { appendBigEndian(UInt64(offset), size: offsetSize, to: &output) }
        output.append(contentsOf: [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(referenceSize)])
        appendBigEndian(UInt64(objects.count), size: 8, to: &output)
        appendBigEndian(0, size: 8, to: &output)
        appendBigEndian(UInt64(tableOffset), size: 8, to: &output)
        return output
    }

    /// 1, 2, 4 or 8: the fewest bytes that hold `value`.
    private static func byteCount(_ value: UInt64) -> Int {
        switch value {
        case 0...0xFF: 1
        case 0x100...0xFFFF: 2
        case 0x1_0000...0xFFFF_FFFF: 4
        default: 8
        }
    }

    private static func appendBigEndian(_ value: UInt64, size: Int, to output: inout [UInt8]) {
        for shift in stride(from: (size - 1) * 8, through: 0, by: -8) { output.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    private static func appendMarker(_ type: UInt8, count: Int, to output: inout [UInt8]) {
        if count < 15 {
            output.append(type << 4 | UInt8(count))
        } else {
            output.append(type << 4 | 0x0F)
            appendInteger(.signed(Int64(count)), to: &output)
        }
    }

    private static func appendInteger(_ integer: PlistInteger, to output: inout [UInt8]) {
        switch integer {
        case .signed(let value) where value < 0:
            output.append(0x13)
            appendBigEndian(UInt64(bitPattern: value), size: 8, to: &output)
        case .signed(let value):
            let size = byteCount(UInt64(value))
            output.append(0x10 | UInt8(size.trailingZeroBitCount))
            appendBigEndian(UInt64(value), size: size, to: &output)
        case .unsigned(let value):
            // Above Int64.max: 16 bytes, two's complement, high half zero.
            output.append(0x14)
            appendBigEndian(0, size: 8, to: &output)
            appendBigEndian(value, size: 8, to: &output)
        }
    }

    private static func appendScalar(_ value: PlistValue, to output: inout [UInt8]) {
        switch value {
        case .bool(let flag):
            output.append(flag ? 0x09 : 0x08)
        case .integer(let integer):
            appendInteger(integer, to: &output)
        case .real(let real):
            output.append(0x23)
            appendBigEndian(real.bitPattern, size: 8, to: &output)
        case .date(let date):
            output.append(0x33)
            appendBigEndian(date.timeIntervalSinceReferenceDate.bitPattern, size: 8, to: &output)
        case .data(let data):
            appendMarker(0x4, count: data.count, to: &output)
            output.append(contentsOf: data)
        case .string(let string):
            if string.utf8.allSatisfy({ $0 < 0x80 }) {
                appendMarker(0x5, count: string.utf8.count, to: &output)
                output.append(contentsOf: string.utf8)
            } else {
                let units = Array(string.utf16)
                appendMarker(0x6, count: units.count, to: &output)
                for unit in units { appendBigEndian(UInt64(unit), size: 2, to: &output) }
            }
        case .uid(let uid):
            let size = byteCount(uid)
            output.append(0x80 | UInt8(size - 1))
            appendBigEndian(uid, size: size, to: &output)
        case .array, .dictionary:
            break  // containers are written by `binary(_:)`
        }
    }

    // MARK: XML

    private enum Step {
        case value(PlistValue, level: Int)
        case key(String, level: Int)
        case close(String, level: Int)
    }

    /// XML property-list bytes, indented with tabs as Apple writes them.
    /// Throws `unrepresentableValue` for text XML 1.0 cannot hold (control
    /// characters other than tab, line feed and carriage return, U+FFFE, U+FFFF).
    ///
    /// - Throws: `VettedError` `unrepresentableValue` for what XML cannot hold (control characters other than tab and line feed, dates outside years 1 to 9999).
    public static func xml(_ value: PlistValue) throws(VettedError) -> [UInt8] {
        var output: [UInt8] = []
        do {
            try writeXML(value, chunkBytes: .max) { chunk in output += chunk; chunk.removeAll() }
        } catch let error as VettedError {
            throw error
        } catch {
            throw VettedError(code: .internalInvariantViolated, message: "writing XML failed: \(error)")
        }
        return output
    }

    /// ``xml(_:)`` written as it goes, in bounded memory: `flush` is handed the
    /// pending bytes whenever `chunkBytes` or more have built up, and once at the
    /// end; it must empty the buffer. Throws what ``xml(_:)`` throws (a
    /// ``VettedError``), or what `flush` throws, which stops the writing.
    ///
    /// - Throws: `VettedError` (`unrepresentableValue`) for a value XML cannot hold, and what `flush` throws.
    public static func writeXML(_ value: PlistValue, chunkBytes: Int = 64 << 10, to flush: (inout [UInt8]) throws -> Void) throws {
        var output: [UInt8] = Array(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">

            """.utf8)
        var steps: [Step] = [.value(value, level: 0)]
        func line(_ text: String, level: Int) {
            output.append(contentsOf: repeatElement(0x09, count: level))
            output.append(contentsOf: text.utf8)
            output.append(0x0A)
        }
        while let step = steps.popLast() {
            if output.count >= chunkBytes { try flush(&output) }
            switch step {
            case .key(let key, let level):
                line("<key>\(try escaped(key))</key>", level: level)
            case .close(let name, let level):
                line("</\(name)>", level: level)
            case .value(let value, let level):
                switch value {
                case .bool(let flag): line(flag ? "<true/>" : "<false/>", level: level)
                case .integer(let integer): line("<integer>\(integer)</integer>", level: level)
                case .real(let real): line("<real>\(realText(real))</real>", level: level)
                case .string(let string): line("<string>\(try escaped(string))</string>", level: level)
                case .data(let data): line("<data>\(data.base64EncodedString())</data>", level: level)
                case .date(let date): line("<date>\(try xmlDateText(date))</date>", level: level)
                case .uid(let uid):
                    line("<dict>", level: level)
                    line("<key>CF$UID</key>", level: level + 1)
                    line("<integer>\(uid)</integer>", level: level + 1)
                    line("</dict>", level: level)
                case .array(let elements):
                    guard !elements.isEmpty else {
                        line("<array/>", level: level)
                        continue
                    }
                    line("<array>", level: level)
                    steps.append(.close("array", level: level))
                    for element in elements.reversed() { steps.append(.value(element, level: level + 1)) }
                case .dictionary(let dictionary):
                    guard !dictionary.isEmpty else {
                        line("<dict/>", level: level)
                        continue
                    }
                    line("<dict>", level: level)
                    steps.append(.close("dict", level: level))
                    for entry in dictionary.reversed() {
                        steps.append(.value(entry.value, level: level + 1))
                        steps.append(.key(entry.key, level: level + 1))
                    }
                }
            }
        }
        output.append(contentsOf: "</plist>\n".utf8)
        try flush(&output)
    }

    private static func escaped(_ text: String) throws(VettedError) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\r": result += "&#13;"
            case "\t", "\n": result.unicodeScalars.append(scalar)
            case "\u{0}"..."\u{1F}", "\u{FFFE}", "\u{FFFF}":
                throw VettedError(
                    code: .unrepresentableValue,
                    message: "U+\(Excerpt.hex(scalar.value, digits: 4)) cannot appear in an XML property list")
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    static func realText(_ value: Double) -> String {
        if value.isNaN { return "nan" }
        if value.isInfinite { return value < 0 ? "-inf" : "inf" }
        return value.description
    }

    /// Seconds since 1970 of 0001-01-01T00:00:00Z and of 9999-12-31T23:59:59Z:
    /// the dates a four-digit year can write.
    static let xmlDateRange: ClosedRange<Double> = -62_135_596_800...253_402_300_799

    /// `YYYY-MM-DDTHH:MM:SSZ` (whole seconds, as the XML format has them).
    /// Throws `unrepresentableValue` for a date outside years 1 to 9999, which
    /// a binary plist can hold but XML cannot write.
    ///
    /// - Throws: `VettedError` (`unrepresentableValue`) for a date outside years 1 to 9999.
    public static func xmlDateText(_ date: Date) throws(VettedError) -> String {
        let rounded = date.timeIntervalSince1970.rounded(.down)
        guard xmlDateRange.contains(rounded), let total = Int(exactly: rounded) else {
            throw VettedError(code: .unrepresentableValue, message: "date is outside years 1 to 9999; XML property lists cannot hold it")
        }
        var days = total / 86_400
        var seconds = total % 86_400
        if seconds < 0 {
            seconds += 86_400
            days -= 1
        }
        let (year, month, day) = CivilDate.date(daysSince1970: days)
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: Swift.max(0, width - text.count)) + text
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(seconds / 3_600, 2)):\(pad(seconds / 60 % 60, 2)):\(pad(seconds % 60, 2))Z"
    }
}
