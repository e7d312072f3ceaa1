@_spi(Scanning) import VettedCore

/// Strings, numbers and literals: the scanners of single values.
extension JSONReader {
    // MARK: Strings

    /// Scans a string starting at its opening quote; validates escapes, UTF-8
    /// and the length limit. Leaves the scanner after the closing quote.
    mutating func scanString() throws(VettedError) -> StringToken {
        let quote = scanner.offset
        scanner.offset += 1
        var hasEscapes = false
        var needsRepair = false
        var nonASCII = false
        /// Raw bytes minus decoded bytes so far (negative when repairs grow it).
        var shrinkage = 0
        while true {
            scanner.skipPlainStringBytes()
            if scanner.isAtEnd {
                throw error(.unterminatedString, at: quote, "string is never closed")
            }
            let byte = scanner.current
            switch byte {
            case UInt8(ascii: "\""):
                let end = scanner.offset
                scanner.offset += 1
                let rawLength = end - quote - 1
                if rawLength > limits.maxStringBytes, rawLength - shrinkage > limits.maxStringBytes {
                    throw error(
                        .stringLengthLimitExceeded, at: quote,
                        "string is \(rawLength - shrinkage) bytes; the limit is \(limits.maxStringBytes)")
                }
                return StringToken(quote: quote, end: end, hasEscapes: hasEscapes, needsRepair: needsRepair, nonASCII: nonASCII)
            case UInt8(ascii: "\\"):
                hasEscapes = true
                shrinkage += try scanEscape()
            case 0x00..<0x20:
                throw error(
                    .controlCharacterInString, at: scanner.offset,
                    "raw control character U+00\(Excerpt.hex(UInt32(byte), digits: 2)) in string; escape it")
            default:
                nonASCII = true
                let length = scanner.utf8SequenceLength(at: scanner.offset)
                if length > 0 {
                    scanner.offset += length
                } else if options.allowInvalidUTF8 {
                    // Each replaced subpart becomes U+FFFD (3 bytes): count the worst case.
                    needsRepair = true
                    shrinkage -= 2
                    scanner.offset += 1
                } else {
                    throw error(.invalidUTF8, at: scanner.offset, "invalid UTF-8 in string (option allowInvalidUTF8 replaces it)")
                }
            }
        }
    }

    /// Checks the escape at the scanner (a backslash) and moves past it.
    /// Returns how many bytes shorter its decoded form is.
    mutating func scanEscape() throws(VettedError) -> Int {
        let start = scanner.offset
        let escaped = scanner.byte(at: start + 1)
        switch escaped {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
            UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            scanner.offset += 2
            return 1
        case UInt8(ascii: "u"):
            guard let unit = Self.hex4(scanner, at: start + 2) else {
                throw error(.invalidUnicodeEscape, at: start, "\\u must be followed by four hexadecimal digits")
            }
            scanner.offset += 6
            switch unit {
            case 0xD800...0xDBFF:
                if scanner.byte(at: scanner.offset) == UInt8(ascii: "\\"),
                    scanner.byte(at: scanner.offset + 1) == UInt8(ascii: "u"),
                    let low = Self.hex4(scanner, at: scanner.offset + 2), (0xDC00...0xDFFF).contains(low)
                {
                    scanner.offset += 6
                    return 12 - 4
                }
                return try loneSurrogate(unit, at: start)
            case 0xDC00...0xDFFF:
                return try loneSurrogate(unit, at: start)
            default:
                return 6 - Self.utf8Length(of: unit)
            }
        default:
            if scanner.offset + 1 >= scanner.count {
                throw error(.unterminatedString, at: start, "string ends inside an escape")
            }
            throw error(.invalidEscape, at: start, "invalid escape sequence; valid ones are \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX")
        }
    }

    func loneSurrogate(_ unit: UInt32, at offset: Int) throws(VettedError) -> Int {
        guard options.allowLoneSurrogates else {
            throw error(
                .loneSurrogate, at: offset,
                "\\u\(Excerpt.hex(unit, digits: 4)) is half of a UTF-16 surrogate pair with no other half (option allowLoneSurrogates replaces it)")
        }
        return 6 - 3
    }

    static func hex4(_ scanner: ByteScanner, at offset: Int) -> UInt32? {
        var value: UInt32 = 0
        for index in offset..<(offset + 4) {
            let byte = scanner.byte(at: index)
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    static func utf8Length(of scalar: UInt32) -> Int {
        switch scalar {
        case 0..<0x80: 1
        case 0x80..<0x800: 2
        case 0x800..<0x10000: 3
        default: 4
        }
    }

    /// The string's value: straight from the input when it has no escapes.
    mutating func makeString(_ token: StringToken) -> String {
        guard token.hasEscapes else { return makeString(token.start..<token.end) }
        return Self.unescapedString(scanner, token.start..<token.end, scratch: &scratch)
    }

    /// The unescaped text of already-validated string content, unescaped in
    /// `scratch` (reused across calls, so unescaping allocates only the String).
    static func unescapedString(_ scanner: ByteScanner, _ content: Range<Int>, scratch: inout [UInt8]) -> String {
        scratch.removeAll(keepingCapacity: true)
        decodeContent(scanner, start: content.lowerBound, end: content.upperBound, into: &scratch)
        return String(decoding: scratch, as: UTF8.self)
    }

    /// Unescaped bytes as a String; short ones come from the cache when they repeat.
    @inline(__always)
    mutating func makeString(_ range: Range<Int>) -> String {
        guard range.count <= ShortStringCache.maximumLength else { return scanner.string(range) }
        let low = scanner.prefixWord(range)
        let high = range.count > 8 ? scanner.prefixWord((range.lowerBound + 8)..<range.upperBound) : 0
        let slot = ShortStringCache.slot(length: range.count, low: low, high: high)
        if let cached = stringCache.string(in: slot, length: range.count, low: low, high: high) { return cached }
        let string = scanner.string(range)
        stringCache.store(string, in: slot, length: range.count, low: low, high: high)
        return string
    }

    /// Unescapes already-validated string content into `output`.
    static func decodeContent(_ scanner: ByteScanner, start: Int, end: Int, into output: inout [UInt8]) {
        var index = start
        while index < end {
            guard scanner.byte(at: index) == UInt8(ascii: "\\") else {
                let runEnd = scanner.firstBackslash(in: index..<end)
                scanner.appendBytes(index..<runEnd, to: &output)
                index = runEnd
                continue
            }
            let escaped = scanner.byte(at: index + 1)
            index += 2
            switch escaped {
            case UInt8(ascii: "b"): output.append(0x08)
            case UInt8(ascii: "f"): output.append(0x0C)
            case UInt8(ascii: "n"): output.append(0x0A)
            case UInt8(ascii: "r"): output.append(0x0D)
            case UInt8(ascii: "t"): output.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = Self.hex4(scanner, at: index) ?? 0xFFFD
                index += 4
                if (0xD800...0xDBFF).contains(scalar) {
                    if scanner.byte(at: index) == UInt8(ascii: "\\"), scanner.byte(at: index + 1) == UInt8(ascii: "u"),
                        let low = Self.hex4(scanner, at: index + 2), (0xDC00...0xDFFF).contains(low)
                    {
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        index += 6
                    } else {
                        scalar = 0xFFFD
                    }
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    scalar = 0xFFFD
                }
                UTF8Sequence.append(scalar, to: &output)
            default: output.append(escaped)  // " \ /
            }
        }
    }

    // MARK: Numbers and literals

    /// Scans a number at the scanner; returns the offset after it.
    mutating func scanNumber() throws(VettedError) -> Int {
        let start = scanner.offset
        if scanner.current == UInt8(ascii: "-") {
            scanner.offset += 1
            if scanner.current == UInt8(ascii: "I") { throw unexpected(at: scanner.offset, expecting: "a digit") }
        }
        let integerStart = scanner.offset
        if scanner.current == UInt8(ascii: "0") {
            scanner.offset += 1
            if scanner.current &- UInt8(ascii: "0") < 10, !scanner.isAtEnd {
                throw error(.leadingZero, at: integerStart, "numbers cannot have leading zeros")
            }
        } else if scanner.skipDigits() == 0 {
            throw digitExpected(at: scanner.offset, after: "'-'")
        }
        if !scanner.isAtEnd, scanner.current == UInt8(ascii: ".") {
            scanner.offset += 1
            if scanner.skipDigits() == 0 { throw digitExpected(at: scanner.offset, after: "'.'") }
        }
        if !scanner.isAtEnd, scanner.current | 0x20 == UInt8(ascii: "e") {
            scanner.offset += 1
            if scanner.current == UInt8(ascii: "+") || scanner.current == UInt8(ascii: "-") { scanner.offset += 1 }
            if scanner.skipDigits() == 0 { throw digitExpected(at: scanner.offset, after: "the exponent") }
        }
        let length = scanner.offset - start
        if length > limits.maxNumberLength {
            throw error(
                .numberLengthLimitExceeded, at: start,
                "number literal is \(length) bytes; the limit is \(limits.maxNumberLength)")
        }
        return scanner.offset
    }

    func digitExpected(at offset: Int, after what: String) -> VettedError {
        if offset >= scanner.count { return error(.invalidNumber, at: offset, "number ends before a digit after \(what)") }
        return error(.invalidNumber, at: offset, "expected a digit after \(what)")
    }

    static let trueBytes: [UInt8] = Array("true".utf8)
    static let falseBytes: [UInt8] = Array("false".utf8)
    static let nullBytes: [UInt8] = Array("null".utf8)

    mutating func readLiteral(_ literal: [UInt8], at start: Int) throws(VettedError) {
        for (index, expected) in literal.enumerated() where scanner.byte(at: start + index) != expected {
            throw error(.invalidLiteral, at: start, "invalid literal; expected true, false or null")
        }
        scanner.offset = start + literal.count
    }
}

// MARK: - Tokens for generated decoding

extension JSONReader {
    /// The reader's scanner (generated decoding reads tokens with the same checks as the document loop).
    var scannerState: ByteScanner {
        get { scanner }
        _modify { yield &scanner }
    }

    /// Validates one value at the scanner, inside `depth` containers opened by
    /// generated decoding, with every check the document loop makes there
    /// (nesting counted from `depth`, duplicate keys, limits, values counted),
    /// and moves past it.
    mutating func skipEmbeddedValue(below depth: Int) throws(VettedError) {
        let saved = maxDepth
        maxDepth = Swift.max(0, saved - depth)
        embedded = true
        defer {
            maxDepth = saved
            embedded = false
        }
        try readValues()
    }
}
