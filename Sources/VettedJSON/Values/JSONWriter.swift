#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif
@_spi(Scanning) import VettedCore
import VettedRules

/// Writes a ``JSONValue`` as JSON text that ``JSONParser`` reads back to an equal value.
///
/// Members keep their order; numbers are written as their literal; strings
/// escape `"`, `\`, control characters (C0, DEL, C1), U+2028/U+2029 (so the
/// output is also safe inside JavaScript), bidirectional controls, invisible
/// format characters and noncharacters (so printed output cannot act on a
/// terminal or hide text); everything else is written as UTF-8.
public struct JSONWriter: Sendable {
    public enum Style: Sendable, Hashable {
        /// No whitespace at all.
        case compact
        /// One member per line, indented by `indent` spaces, `"key": value`.
        case pretty(indent: Int)

        /// Two-space indentation.
        public static let pretty = Style.pretty(indent: 2)
    }

    public var style: Style

    public init(style: Style = .compact) { self.style = style }

    /// The UTF-8 bytes of `value`.
    public func bytes(_ value: JSONValue) -> [UInt8] {
        var output: [UInt8] = []
        write(value, into: &output, level: 0, chunkBytes: .max) { (_: inout [UInt8]) throws(Never) in }
        return output
    }

    /// Writes `value` as it goes, in bounded memory: `flush` is handed the
    /// pending bytes whenever `chunkBytes` or more have built up, and once at
    /// the end; it must empty the buffer. What `flush` throws stops the writing.
    ///
    /// - Throws: Only what `flush` throws.
    public func write<Failure: Error>(
        _ value: JSONValue, chunkBytes: Int = 64 << 10, to flush: (inout [UInt8]) throws(Failure) -> Void
    ) throws(Failure) {
        var output: [UInt8] = []
        output.reserveCapacity(Swift.min(Swift.max(0, chunkBytes), 1 << 20))
        try write(value, into: &output, level: 0, chunkBytes: chunkBytes, flush: flush)
        try flush(&output)
    }

    /// `value` as a String.
    public func string(_ value: JSONValue) -> String { String(decoding: bytes(value), as: UTF8.self) }

    /// `value` as Data.
    public func data(_ value: JSONValue) -> Data { Data(bytes(value)) }

    private var indentWidth: Int? {
        if case .pretty(let indent) = style { return Swift.max(0, indent) }
        return nil
    }

    private func newline(_ output: inout [UInt8], level: Int) {
        guard let indentWidth else { return }
        output.append(UInt8(ascii: "\n"))
        output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indentWidth * level))
    }

    /// Pending work for the iterative writer (no recursion, so no depth can overflow the stack).
    private enum Step {
        case value(JSONValue, level: Int)
        /// Before an element: a comma unless it is the first, then a line break.
        case element(first: Bool, level: Int)
        /// Before a member: as ``element``, then the key and a colon.
        case key(String, first: Bool, level: Int)
        case close(UInt8, level: Int)
    }

    package func write<Failure: Error>(
        _ root: JSONValue, into output: inout [UInt8], level rootLevel: Int, chunkBytes: Int,
        flush: (inout [UInt8]) throws(Failure) -> Void
    ) throws(Failure) {
        var steps: [Step] = [.value(root, level: rootLevel)]
        while let step = steps.popLast() {
            if output.count >= chunkBytes { try flush(&output) }
            switch step {
            case .element(let first, let level):
                if !first { output.append(UInt8(ascii: ",")) }
                newline(&output, level: level)
            case .key(let key, let first, let level):
                if !first { output.append(UInt8(ascii: ",")) }
                newline(&output, level: level)
                Self.writeString(key, into: &output)
                output.append(UInt8(ascii: ":"))
                if indentWidth != nil { output.append(UInt8(ascii: " ")) }
            case .close(let bracket, let level):
                newline(&output, level: level)
                output.append(bracket)
            case .value(let value, let level):
                switch value {
                case .null: output.append(contentsOf: "null".utf8)
                case .bool(let flag): output.append(contentsOf: (flag ? "true" : "false").utf8)
                case .number(let number): output.append(contentsOf: number.literal.utf8)
                case .string(let string): Self.writeString(string, into: &output)
                case .array(let elements):
                    output.append(UInt8(ascii: "["))
                    guard !elements.isEmpty else {
                        output.append(UInt8(ascii: "]"))
                        continue
                    }
                    steps.append(.close(UInt8(ascii: "]"), level: level))
                    for (index, element) in elements.enumerated().reversed() {
                        steps.append(.value(element, level: level + 1))
                        steps.append(.element(first: index == 0, level: level + 1))
                    }
                case .object(let object):
                    output.append(UInt8(ascii: "{"))
                    guard !object.isEmpty else {
                        output.append(UInt8(ascii: "}"))
                        continue
                    }
                    steps.append(.close(UInt8(ascii: "}"), level: level))
                    for index in object.indices.reversed() {
                        steps.append(.value(object.values[index], level: level + 1))
                        steps.append(.key(object.keys[index], first: index == 0, level: level + 1))
                    }
                }
            }
        }
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// `string` as a JSON string literal, quotes included, appended to `output`.
    package static func writeString(_ string: String, into output: inout [UInt8]) {
        let utf8 = string.utf8
        output.append(UInt8(ascii: "\""))
        // Most strings are printable ASCII with nothing to escape: copied as they are.
        if Excerpt.isPlain(utf8.span, quotes: true) {
            output.append(contentsOf: utf8)
            output.append(UInt8(ascii: "\""))
            return
        }
        // A backslash and `letter`, appended byte by byte (an array literal here would be made per escape).
        func escape(_ letter: UInt8) {
            output.append(UInt8(ascii: "\\"))
            output.append(letter)
        }
        // Runs of bytes that stay as they are are copied whole; only what is escaped is written
        // on its own. `kept` is where the run not yet copied starts.
        let bytes = utf8.span
        var kept = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if Excerpt.isPlain(byte, quotes: true) {
                index &+= 1
                continue
            }
            let scalar: Unicode.Scalar
            let width: Int
            if byte < 0x80 {
                scalar = Unicode.Scalar(byte)
                width = 1
            } else {
                // A string's UTF-8 is valid: the scalar that starts here, found in constant time.
                scalar = string.unicodeScalars[utf8.index(utf8.startIndex, offsetBy: index)]
                width = UTF8.width(scalar)
            }
            let value = scalar.value
            let letter: UInt8? =
                switch value {
                case 0x22: UInt8(ascii: "\"")
                case 0x5C: UInt8(ascii: "\\")
                case 0x0A: UInt8(ascii: "n")
                case 0x0D: UInt8(ascii: "r")
                case 0x09: UInt8(ascii: "t")
                case 0x08: UInt8(ascii: "b")
                case 0x0C: UInt8(ascii: "f")
                default: nil
                }
            // Controls (C0, DEL, C1), bidirectional controls, invisible format characters and
            // noncharacters are escaped: printed JSON cannot act on a terminal or hide text
            // (joiners stay, for emoji sequences); so are U+2028 and U+2029, for JavaScript.
            let escaped = letter != nil || value < 0x20 || value == 0x2028 || value == 0x2029
                || unsafeDisplayCode(scalar, [.tab, .newlines, .joiners]) != nil
            guard escaped else {
                index &+= width
                continue
            }
            if kept < index { output.append(addingCapacity: index - kept) { copy(utf8, kept..<index, to: &$0) } }
            if let letter { escape(letter) } else { writeEscape(value, into: &output) }
            index &+= width
            kept = index
        }
        if kept < bytes.count { output.append(addingCapacity: bytes.count - kept) { copy(utf8, kept..<bytes.count, to: &$0) } }
        output.append(UInt8(ascii: "\""))
    }

    /// The bytes of `utf8` in `range`, appended to `written` (which has room for them).
    private static func copy(_ utf8: String.UTF8View, _ range: Range<Int>, to written: inout OutputSpan<UInt8>) {
        let bytes = utf8.span
        for index in range { written.append(bytes[index]) }
    }

    /// `\uXXXX`, or a surrogate pair of them above U+FFFF.
    private static func writeEscape(_ value: UInt32, into output: inout [UInt8]) {
        func unit(_ unit: UInt32) {
            output.append(contentsOf: "\\u".utf8)
            for shift in [12, 8, 4, 0] { output.append(hexDigits[Int((unit >> UInt32(shift)) & 0x0F)]) }
        }
        if value > 0xFFFF {
            let offset = value - 0x10000
            unit(0xD800 + (offset >> 10))
            unit(0xDC00 + (offset & 0x3FF))
        } else {
            unit(value)
        }
    }
}

extension JSONValue {
    /// Compact (default) or pretty JSON text.
    public func jsonString(_ style: JSONWriter.Style = .compact) -> String { JSONWriter(style: style).string(self) }
    /// Compact (default) or pretty JSON as UTF-8 bytes.
    public func jsonBytes(_ style: JSONWriter.Style = .compact) -> [UInt8] { JSONWriter(style: style).bytes(self) }
}
