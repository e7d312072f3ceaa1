@_spi(Scanning) public import VettedCore

/// A JSON document read one value at a time by a caller that walks it itself (the
/// schema validator reads an instance while it validates it).
///
/// It is the parser's own machine, in validate mode: the same frames, limits,
/// duplicate-key rule and error texts, so any document gives exactly the error
/// ``JSONParser/parse(_:)-(SourceText)`` gives — code, offset, path and message. A
/// value the caller wants whole is built by the parser's own loop (``readValue()``);
/// one it does not want is checked and passed the same way (``skipValue()``). Nothing
/// here recurses: the caller's own recursion is bounded by the depth limit, which
/// ``open()`` enforces.
///
/// Its methods are all `mutating`, even those that only read: the reader is large, and a
/// method that takes it by value would copy it on every call.
@_spi(Streaming) public struct JSONPullReader {
    var reader: JSONReader

    init(reader: JSONReader) { self.reader = reader }

    /// Reads `source` with `limits` and the strict options: `body` walks the one top-level
    /// value (every value of it, through this reader's methods), and the end is checked
    /// after it. The first defect ends the read: the parser's error.
    public static func read<Result>(
        _ source: SourceText, limits: Limits, _ body: (inout JSONPullReader) throws(VettedError) -> Result
    ) -> Swift.Result<Result, VettedError> {
        source.withScanner { scanner in
            var pull = JSONPullReader(reader: JSONReader(scanner: scanner, source: source, limits: limits, options: .strict, mode: .validate))
            return Swift.Result { () throws(VettedError) -> Result in
                guard pull.reader.scanner.count <= limits.maxInputBytes else {
                    throw pull.reader.error(
                        .inputSizeLimitExceeded, at: Swift.max(0, limits.maxInputBytes),
                        "input is \(pull.reader.scanner.count) bytes; the limit is \(limits.maxInputBytes)")
                }
                try pull.reader.checkEncoding()
                let result = try body(&pull)
                guard pull.reader.depth == 0 else {
                    throw VettedError(code: .internalInvariantViolated, message: "internal invariant violated: a container left open by the reader's caller")
                }
                try pull.reader.checkEnd()
                return result
            }
        }
    }

    /// What the next value is.
    public enum Kind: Sendable, Equatable {
        case object, array, string, number, literal
    }

    /// The next value's kind, from its first byte (after whitespace); nothing is read.
    ///
    /// - Throws: the parser's error for input that ends where a value was expected.
    public mutating func peek() throws(VettedError) -> Kind {
        reader.scanner.skipWhitespace()
        if reader.scanner.isAtEnd { throw reader.endOfInput(expecting: "a value") }
        switch reader.scanner.current {
        case UInt8(ascii: "{"): return .object
        case UInt8(ascii: "["): return .array
        case UInt8(ascii: "\""): return .string
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number
        // Anything else is read (and refused, if it is not one) as a literal.
        default: return .literal
        }
    }

    /// The offset of the next value's first byte (after ``peek()``), or of the byte just past the last one read.
    public var offset: Int { mutating get { reader.scanner.offset } }

    /// Containers open.
    public var depth: Int { mutating get { reader.depth } }

    /// The path of the value being read (or of the container just closed), as the parser names it in its errors.
    public mutating func path() -> DocumentPath { reader.currentPath() }

    /// Reads a string, number, `true`, `false` or `null` (after ``peek()``). A string's
    /// content is decoded only with `content`; without, it is `.string("")`.
    ///
    /// - Throws: the parser's error.
    public mutating func readScalar(content: Bool = true) throws(VettedError) -> JSONValue {
        let start = reader.scanner.offset
        try reader.countValue(at: start)
        switch reader.scanner.current {
        case UInt8(ascii: "\""):
            let token = try reader.scanString()
            return .string(content ? reader.makeString(token) : "")
        case UInt8(ascii: "t"):
            try reader.readLiteral(JSONReader.trueBytes, at: start)
            return .bool(true)
        case UInt8(ascii: "f"):
            try reader.readLiteral(JSONReader.falseBytes, at: start)
            return .bool(false)
        case UInt8(ascii: "n"):
            try reader.readLiteral(JSONReader.nullBytes, at: start)
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let end = try reader.scanNumber()
            return .number(JSONNumber(validatedLiteral: reader.makeString(start..<end)))
        default:
            throw reader.unexpected(at: start, expecting: "a value")
        }
    }

    /// A string value read but not yet decoded.
    public struct StringSpan: Sendable {
        let token: JSONReader.StringToken
        /// Its content in bytes, as written (escapes count as written).
        public var byteCount: Int { token.end - token.start }
        /// No escapes, nothing repaired, every byte ASCII: its characters are its bytes.
        public var isPlainASCII: Bool { !token.hasEscapes && !token.needsRepair && !token.nonASCII }
    }

    /// Reads a string (after ``peek()`` said so) without decoding it: ``string(_:)`` decodes it.
    ///
    /// - Throws: the parser's error.
    public mutating func readStringSpan() throws(VettedError) -> StringSpan {
        try reader.countValue(at: reader.scanner.offset)
        guard reader.scanner.current == UInt8(ascii: "\"") else { throw reader.unexpected(at: reader.scanner.offset, expecting: "a value") }
        return StringSpan(token: try reader.scanString())
    }

    /// The string `span` holds, as ``readScalar(content:)`` makes it.
    public mutating func string(_ span: StringSpan) -> String { reader.makeString(span.token) }

    /// A number read but not yet made into a value.
    public struct NumberSpan: Sendable {
        let range: Range<Int>
        /// Its value, when it is written as an integer of at most 18 digits (no fraction, no exponent).
        public let smallInteger: Int?
    }

    /// Reads a number (after ``peek()`` said so) without making its literal: ``number(_:)`` makes it.
    ///
    /// - Throws: the parser's error.
    public mutating func readNumberSpan() throws(VettedError) -> NumberSpan {
        let start = reader.scanner.offset
        try reader.countValue(at: start)
        let end = try reader.scanNumber()
        var value = 0
        var digits = 0
        var small = true
        let negative = reader.scanner.byte(at: start) == UInt8(ascii: "-")
        for offset in (negative ? start + 1 : start)..<end {
            let digit = reader.scanner.byte(at: offset) &- UInt8(ascii: "0")
            guard digit < 10, digits < 18 else {
                small = false
                break
            }
            value = value &* 10 &+ Int(digit)
            digits += 1
        }
        return NumberSpan(range: start..<end, smallInteger: small && digits > 0 ? (negative ? 0 &- value : value) : nil)
    }

    /// The number `span` holds, as ``readScalar(content:)`` makes it.
    public mutating func number(_ span: NumberSpan) -> JSONValue {
        .number(JSONNumber(validatedLiteral: reader.makeString(span.range)))
    }

    /// Opens the object or array next (after ``peek()``): `true` when a first member
    /// (its key read, up to the colon) or element follows; `false` when it was empty, and is closed.
    ///
    /// - Throws: the parser's error (nesting, values, members, syntax, a duplicate key).
    public mutating func open() throws(VettedError) -> Bool {
        let start = reader.scanner.offset
        try reader.countValue(at: start)
        return try reader.openContainer(isObject: reader.scanner.current == UInt8(ascii: "{"), at: start)
    }

    /// After a member's or element's value: `true` when another follows (its key read),
    /// `false` when the container closed.
    ///
    /// - Throws: the parser's error.
    public mutating func next() throws(VettedError) -> Bool {
        reader.scanner.skipWhitespace()
        return try reader.continueContainer()
    }

    /// The key of the member being read, decoded, as the parser makes an object's keys.
    public mutating func key() -> String {
        guard let key = reader.keyRefs.last else { return "" }
        if key.canonical == nil, !key.needsDecoding { return reader.makeString(key.start..<key.end) }
        return JSONReader.keyString(reader.scanner, key)
    }

    /// The current key's bytes as two words and a length, when it is at most 16 bytes with
    /// no escapes: keys with equal fingerprints are equal, so a caller that met this key
    /// before can know it again without making a String.
    public struct KeyFingerprint: Equatable, Sendable {
        public var length: Int
        public var low: UInt64
        public var high: UInt64
    }

    /// The fingerprint of the member's key, or `nil` for a longer or escaped key.
    public mutating func keyFingerprint() -> KeyFingerprint? {
        guard let key = reader.keyRefs.last, !key.needsDecoding, key.length <= 16 else { return nil }
        let high = key.length > 8 ? reader.scanner.prefixWord((key.start + 8)..<key.end) : 0
        return KeyFingerprint(length: key.length, low: key.prefix, high: high)
    }

    /// Reads the next value whole (after ``peek()``), with the parser's loop and every check.
    ///
    /// - Throws: the parser's error.
    public mutating func readValue() throws(VettedError) -> JSONValue {
        try embedded(building: true)
        guard let value = reader.values.popLast() else {
            throw VettedError(code: .internalInvariantViolated, message: "internal invariant violated: a value read whole left nothing")
        }
        return value
    }

    /// Checks and passes the next value (after ``peek()``), with the parser's loop and every check.
    ///
    /// - Throws: the parser's error.
    public mutating func skipValue() throws(VettedError) { try embedded(building: false) }

    private mutating func embedded(building: Bool) throws(VettedError) {
        let saved = (reader.baseDepth, reader.embedded, reader.buildValues)
        reader.baseDepth = reader.depth
        reader.embedded = true
        reader.buildValues = building
        defer { (reader.baseDepth, reader.embedded, reader.buildValues) = saved }
        try reader.readValues()
    }
}
