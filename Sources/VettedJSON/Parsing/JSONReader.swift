@_spi(Scanning) import VettedCore

/// The parsing machine behind ``JSONParser``: one forward pass over the bytes
/// with an explicit stack (never recursion), shared by parse and validate-only.
///
/// Arithmetic on offsets and counts cannot overflow: offsets are bounded by
/// the input's size and counts by the limits, both far below `Int.max`.
struct JSONReader {
    var scanner: ByteScanner
    /// Changes only when a parked reader is re-armed for a stream's next record
    /// (``rearm(scanner:source:)``, `JSONReader+Rearm.swift`).
    var source: SourceText
    let limits: Limits
    let options: JSONParser.Options
    /// Build values (parse mode); switched on for one embedded value by ``JSONPullReader/readValue()``.
    var buildValues: Bool
    /// Write a ``JSONTape`` (for the decoder) instead of values.
    let buildTape: Bool
    /// The nesting allowed; lowered while ``skipEmbeddedValue(below:)`` reads a value inside open containers.
    var maxDepth: Int
    /// Set while ``skipEmbeddedValue(below:)`` reads one value: it ends after that value, with no trailing-data check.
    var embedded = false
    /// The containers open around the value ``readValues()`` reads: it returns once they are
    /// all that is open again (0 for a document; ``JSONPullReader`` reads values inside its own).
    var baseDepth = 0
    /// The document as a tape (tape mode).
    var tape = JSONTape()

    /// The innermost open container (meaningful while ``depth`` > 0): kept
    /// apart from ``frames`` so that the per-member bookkeeping touches a
    /// plain stored property, not an array element.
    var top = Frame(isObject: false, start: 0, valueBase: 0, keyBase: 0, keyRefBase: 0, tapeIndex: 0)
    /// The open containers outside ``top``, outermost first.
    var frames: [Frame] = []
    /// How many containers are open: `frames.count + 1`, or 0 at the top level.
    var depth = 0
    /// Finished values not yet placed in their container (parse mode).
    var values: [JSONValue] = []
    /// Keys of members not yet placed in their object (parse mode).
    var keys: [String] = []
    /// The key arrays of recent objects, shared by later objects of the same shape.
    var shapes = ShapeCache()
    /// Recently made short strings, to reuse instead of decoding again (parse mode).
    var stringCache = ShortStringCache()
    /// Keys of the open objects, for duplicate detection (both modes).
    var keyRefs: [KeyRef] = []
    var valueCount = 0
    /// Reused buffer for unescaping strings.
    var scratch: [UInt8] = []

    struct Frame {
        let isObject: Bool
        /// Offset of the opening bracket or brace.
        let start: Int
        /// Members begun so far; the current one has index `count - 1`.
        var count = 0
        let valueBase: Int
        let keyBase: Int
        let keyRefBase: Int
        /// The container's entry in ``JSONReader/tape`` (tape mode).
        let tapeIndex: Int
        /// Whether the current member's key has been read.
        var hasKey = false
        /// Whether ``JSONReader/keyIndexes`` holds an index for this frame.
        var isIndexed = false
        /// Whether ``JSONReader/duplicates`` holds entries for this frame.
        var hasDuplicates = false
        /// One bit per key fingerprint seen: a key whose bit is clear is new,
        /// so most keys skip the scan for an earlier equal key.
        var keyBloom: UInt64 = 0
        /// Whether a key is not all ASCII: fingerprints are of bytes, so every key is then
        /// compared as a String with the earlier ones (at most ``linearKeySearchLimit``).
        var hasNonASCIIKeys = false
    }

    /// Per large object (by frame depth): key → index of its first member.
    /// Kept outside ``Frame`` so that frames stay trivial to copy.
    /// Keyed by the decoded key as a String: equal for canonically equivalent
    /// spellings, and Swift's seeded hashing resists engineered collisions, so a
    /// hostile object cannot make lookups quadratic.
    var keyIndexes: [Int: [String: Int]] = [:]
    /// (frame depth, later member, first member with the same key), for keepFirst/keepLast.
    var duplicates: [(depth: Int, later: Int, first: Int)] = []

    /// A key as a range of the input (its content, without quotes).
    struct KeyRef {
        let start: Int
        let end: Int
        /// Escaped or repaired: compare decoded, not raw, bytes.
        let needsDecoding: Bool
        /// The decoded key as a String when it is not all ASCII: keys are one key when
        /// their Strings are equal (canonical equivalence, as Swift and Foundation compare
        /// them), which for non-ASCII keys is not byte equality (`café` and `cafe\u{301}`).
        let canonical: String?
        /// Length and first eight bytes of the decoded key: equal keys have
        /// equal fingerprints, and for keys up to eight bytes the converse holds.
        let length: Int
        let prefix: UInt64

        func mayEqual(_ other: KeyRef) -> Bool { length == other.length && prefix == other.prefix }
        /// Equal keys have equal bits (a function of the fingerprint only).
        var bloomBit: Int {
            let mixed = (prefix ^ UInt64(truncatingIfNeeded: length)) &* 0x9E37_79B9_7F4A_7C15
            return Int(truncatingIfNeeded: mixed >> 58)
        }
        var isFullyFingerprinted: Bool { length <= 8 }
    }

    struct StringToken {
        let quote: Int
        let end: Int
        let hasEscapes: Bool
        let needsRepair: Bool
        /// Whether a raw byte is above 0x7F (escapes aside).
        var nonASCII = false
        var start: Int { quote + 1 }
    }

    /// Objects with more members than this get a hash index for duplicate checks.
    static let linearKeySearchLimit = SmallKeyTable.linearSearchLimit

    enum Mode {
        /// Check only.
        case validate
        /// Build a ``JSONValue``.
        case values
        /// Build a ``JSONTape``.
        case tape
    }

    init(scanner: ByteScanner, source: SourceText, limits: Limits, options: JSONParser.Options, mode: Mode) {
        self.scanner = scanner
        self.source = source
        self.limits = limits
        self.options = options
        self.buildValues = mode == .values
        self.buildTape = mode == .tape
        self.maxDepth = limits.effectiveMaxDepth
        if buildTape { tape = JSONTape(expectedBytes: scanner.count) }
    }

    // MARK: Document

    mutating func readDocument() throws(VettedError) -> JSONValue? {
        guard scanner.count <= limits.maxInputBytes else {
            throw error(
                .inputSizeLimitExceeded, at: Swift.max(0, limits.maxInputBytes),
                "input is \(scanner.count) bytes; the limit is \(limits.maxInputBytes)")
        }
        try checkEncoding()
        try readValues()
        return buildValues ? values.last : nil
    }

    mutating func checkEncoding() throws(VettedError) {
        let b0 = scanner.byte(at: 0)
        let b1 = scanner.byte(at: 1)
        if b0 == 0xEF, b1 == 0xBB, scanner.byte(at: 2) == 0xBF {
            guard options.allowByteOrderMark else {
                throw error(.byteOrderMark, at: 0, "a UTF-8 byte order mark precedes the document (option allowByteOrderMark skips it)")
            }
            scanner.offset = 3
        } else if (b0 == 0xFE && b1 == 0xFF) || (b0 == 0xFF && b1 == 0xFE) {
            throw error(.unsupportedEncoding, at: 0, "input starts with a UTF-16 byte order mark; JSON must be UTF-8")
        } else if scanner.count >= 2, b0 == 0 || (b1 == 0 && b0 < 0x80) {
            throw error(.unsupportedEncoding, at: 0, "input looks like UTF-16 or UTF-32; JSON must be UTF-8")
        }
    }

    mutating func readValues() throws(VettedError) {
        value: while true {
            scanner.skipWhitespace()
            let start = scanner.offset
            if scanner.isAtEnd { throw endOfInput(expecting: "a value") }
            try countValue(at: start)
            switch scanner.current {
            case UInt8(ascii: "["):
                if try openContainer(isObject: false, at: start) { continue value }
            case UInt8(ascii: "{"):
                if try openContainer(isObject: true, at: start) { continue value }
            case UInt8(ascii: "\""):
                let token = try scanString()
                if buildValues { emit(.string(makeString(token))) }
                if buildTape { appendToTape(.string, token) }
            case UInt8(ascii: "t"):
                try readLiteral(Self.trueBytes, at: start)
                if buildValues { emit(.bool(true)) }
                if buildTape { tape.append(.true, first: start) }
            case UInt8(ascii: "f"):
                try readLiteral(Self.falseBytes, at: start)
                if buildValues { emit(.bool(false)) }
                if buildTape { tape.append(.false, first: start) }
            case UInt8(ascii: "n"):
                try readLiteral(Self.nullBytes, at: start)
                if buildValues { emit(.null) }
                if buildTape { tape.append(.null, first: start) }
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                let end = try scanNumber()
                if buildValues {
                    emit(.number(JSONNumber(validatedLiteral: makeString(start..<end))))
                }
                if buildTape { tape.append(.number, first: start, payload: end) }
            default:
                throw unexpected(at: start, expecting: "a value")
            }

            // A value is complete: close containers until one expects more.
            guard try valueFollows() else { return }
        }
    }

    /// After a complete value (whitespace not yet skipped): closes containers until one
    /// expects another member or element (`true`, its key read), or the document or
    /// embedded value is done (`false`).
    @inline(__always)
    mutating func valueFollows() throws(VettedError) -> Bool {
        while true {
            scanner.skipWhitespace()
            guard depth > baseDepth else {
                if !embedded { try checkEnd() }
                return false
            }
            if try continueContainer() { return true }
        }
    }

    /// After the top-level value: nothing but whitespace may follow.
    mutating func checkEnd() throws(VettedError) {
        scanner.skipWhitespace()
        if !scanner.isAtEnd {
            throw error(.trailingData, at: scanner.offset, "unexpected data after the top-level value")
        }
    }

    /// Opens the array or object at `start`: begins its first element or member (`true`),
    /// or reads its closer at once and closes it (`false`).
    @inline(__always)
    mutating func openContainer(isObject: Bool, at start: Int) throws(VettedError) -> Bool {
        try open(isObject: isObject, at: start)
        scanner.skipWhitespace()
        if scanner.isAtEnd || scanner.current != (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
            if isObject { try beginMember() } else { try beginElement() }
            return true
        }
        scanner.offset += 1
        if isObject { closeObject() } else { closeArray() }
        return false
    }

    /// After a value inside the innermost container (whitespace skipped): reads `,` and begins
    /// the next member or element (`true`), or reads the closer and closes it (`false`).
    @inline(__always)
    mutating func continueContainer() throws(VettedError) -> Bool {
        if scanner.isAtEnd { throw endOfInput(expecting: top.isObject ? "',' or '}'" : "',' or ']'") }
        let separator = scanner.offset
        let closer = top.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
        switch scanner.current {
        case UInt8(ascii: ","):
            scanner.offset += 1
            scanner.skipWhitespace()
            if !scanner.isAtEnd, scanner.current == closer {
                throw error(.trailingComma, at: separator, "trailing comma before '\(Character(Unicode.Scalar(closer)))'")
            }
            if top.isObject { try beginMember() } else { try beginElement() }
            return true
        case closer:
            scanner.offset += 1
            if top.isObject { closeObject() } else { closeArray() }
            return false
        default:
            throw separatorError(at: separator, closer: closer)
        }
    }

    // MARK: Containers

    mutating func countValue(at offset: Int) throws(VettedError) {
        valueCount += 1
        if valueCount > limits.maxValues {
            throw error(.valueLimitExceeded, at: offset, "more than \(limits.maxValues) values in the document")
        }
    }

    mutating func open(isObject: Bool, at offset: Int) throws(VettedError) {
        guard depth < maxDepth else {
            throw error(.depthLimitExceeded, at: offset, "nesting is deeper than the limit of \(maxDepth)")
        }
        if depth > 0 { frames.append(top) }
        depth += 1
        top = Frame(
            isObject: isObject, start: offset, valueBase: values.count, keyBase: keys.count,
            keyRefBase: keyRefs.count, tapeIndex: tape.entries.count)
        if buildTape { tape.append(isObject ? .object : .array) }
        scanner.offset += 1
    }

    mutating func beginElement() throws(VettedError) {
        top.count += 1
        if top.count > limits.maxMembers {
            throw error(.memberLimitExceeded, at: scanner.offset, "array has more than \(limits.maxMembers) elements")
        }
    }

    /// Reads `"key":` of the next member.
    mutating func beginMember() throws(VettedError) {
        top.count += 1
        top.hasKey = false
        if top.count > limits.maxMembers {
            throw error(.memberLimitExceeded, at: scanner.offset, "object has more than \(limits.maxMembers) members")
        }
        if scanner.isAtEnd { throw endOfInput(expecting: "a key") }
        guard scanner.current == UInt8(ascii: "\"") else { throw keyError(at: scanner.offset) }
        let token = try scanString()
        let key = Self.keyRef(scanner, for: token)
        if buildTape { appendToTape(.key, token) }
        top.hasKey = true
        try register(key, quote: token.quote)
        if buildValues { keys.append(makeString(token)) }
        scanner.skipWhitespace()
        guard !scanner.isAtEnd, scanner.current == UInt8(ascii: ":") else {
            if scanner.isAtEnd { throw endOfInput(expecting: "':'") }
            throw error(.missingColon, at: scanner.offset, "expected ':' after the key")
        }
        scanner.offset += 1
    }

    /// Places a finished value in the open container (or as the document).
    @inline(__always)
    mutating func emit(_ value: JSONValue) {
        values.append(value)
    }

    mutating func closeArray() {
        let frame = pop()
        if buildTape { tape.close(frame.tapeIndex, kind: .array, count: frame.count, flags: 0) }
        guard buildValues else { return }
        if frame.valueBase == 0, depth == 0 {
            // The outermost array owns the whole stack: hand it over, no copy.
            let elements = values
            values = []
            emit(.array(elements))
            return
        }
        emit(.array(values.movingTail(from: frame.valueBase, leaving: .null)))
    }

    mutating func closeObject() {
        let frame = pop()
        // The level `register` filed this object's key index and duplicates under.
        let level = depth
        keyRefs.removeSubrange(frame.keyRefBase...)
        if frame.isIndexed { keyIndexes[level] = nil }
        var repeated: [(later: Int, first: Int)] = []
        if frame.hasDuplicates {
            repeated = duplicates.filter { $0.depth == level }.map { (later: $0.later, first: $0.first) }
            duplicates.removeAll { $0.depth == level }
        }
        if buildTape {
            tape.close(
                frame.tapeIndex, kind: .object, count: frame.count, flags: frame.hasDuplicates ? JSONTape.hasDuplicateKeys : 0)
        }
        guard buildValues else { return }
        var objectKeys = shapes.keys(matching: keys[frame.keyBase...])
        keys.removeSubrange(frame.keyBase...)
        var objectValues = values.movingTail(from: frame.valueBase, leaving: .null)
        if !repeated.isEmpty {
            if options.duplicateKeys == .keepLast {
                for pair in repeated where objectValues.indices.contains(pair.first) && objectValues.indices.contains(pair.later) {
                    objectValues[pair.first] = objectValues[pair.later]
                }
            }
            let dropped = Set(repeated.map(\.later))
            objectKeys = objectKeys.enumerated().filter { !dropped.contains($0.offset) }.map(\.element)
            objectValues = objectValues.enumerated().filter { !dropped.contains($0.offset) }.map(\.element)
        }
        emit(.object(JSONObject(keys: objectKeys, values: objectValues)))
    }

    /// Closes the innermost container: returns its frame, makes its parent ``top``.
    mutating func pop() -> Frame {
        let frame = top
        depth -= 1
        if let parent = frames.popLast() { top = parent }
        return frame
    }

    mutating func appendToTape(_ kind: JSONTape.Kind, _ token: StringToken) {
        tape.append(
            kind, first: token.start,
            flags: (token.hasEscapes || token.needsRepair ? JSONTape.needsDecoding : 0) | (token.nonASCII ? JSONTape.nonASCII : 0),
            payload: token.end)
    }

    // MARK: Keys

    static func keyRef(_ scanner: ByteScanner, for token: StringToken) -> KeyRef {
        let needsDecoding = token.hasEscapes || token.needsRepair
        guard needsDecoding else {
            return KeyRef(
                start: token.start, end: token.end, needsDecoding: false,
                canonical: token.nonASCII ? scanner.string(token.start..<token.end) : nil, length: token.end - token.start,
                prefix: scanner.prefixWord(token.start..<token.end))
        }
        let bytes = Self.decodedKeyBytes(scanner, start: token.start, end: token.end, needsDecoding: true)
        var prefix: UInt64 = 0
        for byte in bytes.prefix(8).reversed() { prefix = prefix << 8 | UInt64(byte) }
        let canonical = bytes.contains { $0 >= 0x80 } ? String(decoding: bytes, as: UTF8.self) : nil
        return KeyRef(start: token.start, end: token.end, needsDecoding: true, canonical: canonical, length: bytes.count, prefix: prefix)
    }

    /// The decoded key as a String (for the index, and for comparing non-ASCII keys).
    static func keyString(_ scanner: ByteScanner, _ key: KeyRef) -> String {
        key.canonical ?? String(decoding: decodedKeyBytes(scanner, start: key.start, end: key.end, needsDecoding: key.needsDecoding), as: UTF8.self)
    }

    /// Whether two keys are one key: equal bytes when both are ASCII, else equal Strings.
    static func keysEquivalent(_ scanner: ByteScanner, _ lhs: KeyRef, _ rhs: KeyRef) -> Bool {
        guard lhs.canonical != nil || rhs.canonical != nil else { return keysEqual(scanner, lhs, rhs) }
        return keyString(scanner, lhs) == keyString(scanner, rhs)
    }

    static func decodedKeyBytes(_ scanner: ByteScanner, start: Int, end: Int, needsDecoding: Bool) -> [UInt8] {
        guard needsDecoding else {
            var bytes: [UInt8] = []
            scanner.appendBytes(start..<end, to: &bytes)
            return bytes
        }
        var bytes: [UInt8] = []
        Self.decodeContent(scanner, start: start, end: end, into: &bytes)
        // Repaired UTF-8 compares as its String does.
        return Array(String(decoding: bytes, as: UTF8.self).utf8)
    }

    static func keysEqual(_ scanner: ByteScanner, _ lhs: KeyRef, _ rhs: KeyRef) -> Bool {
        guard lhs.mayEqual(rhs) else { return false }
        if lhs.isFullyFingerprinted { return true }
        if !lhs.needsDecoding, !rhs.needsDecoding {
            return scanner.bytesEqual(lhs.start..<lhs.end, rhs.start..<rhs.end)
        }
        return Self.decodedKeyBytes(scanner, start: lhs.start, end: lhs.end, needsDecoding: lhs.needsDecoding)
            == Self.decodedKeyBytes(scanner, start: rhs.start, end: rhs.end, needsDecoding: rhs.needsDecoding)
    }

    /// Records the key of member `top.count - 1`; applies the duplicate-key policy.
    mutating func register(_ key: KeyRef, quote: Int) throws(VettedError) {
        // The innermost object's key index, if it has one, is filed under its
        // depth less one (the number of containers around it).
        let level = depth - 1
        let base = top.keyRefBase
        let index = keyRefs.count - base
        var first: Int?
        if top.isIndexed {
            let name = Self.keyString(scanner, key)
            first = keyIndexes[level]?[name]
            if first == nil { keyIndexes[level]?[name] = index }
        } else {
            let bit: UInt64 = 1 << (key.bloomBit & 63)
            if key.canonical != nil || top.hasNonASCIIKeys {
                // Fingerprints are of bytes: compare as Strings with every earlier key (at most 16).
                top.hasNonASCIIKeys = true
                for candidate in 0..<index where Self.keysEquivalent(scanner, keyRefs[base + candidate], key) {
                    first = candidate
                    break
                }
            } else if top.keyBloom & bit != 0 {
                for candidate in 0..<index where Self.keysEqual(scanner, keyRefs[base + candidate], key) {
                    first = candidate
                    break
                }
            }
            top.keyBloom |= bit
            if index + 1 > Self.linearKeySearchLimit {
                var keyIndex: [String: Int] = [:]
                keyIndex.reserveCapacity(index + 1)
                for position in 0..<index {
                    let name = Self.keyString(scanner, keyRefs[base + position])
                    if keyIndex[name] == nil { keyIndex[name] = position }
                }
                let name = Self.keyString(scanner, key)
                if keyIndex[name] == nil { keyIndex[name] = index }
                keyIndexes[level] = keyIndex
                top.isIndexed = true
            }
        }
        keyRefs.append(key)
        guard let first else { return }
        let firstQuote = keyRefs[base + first].start - 1
        switch options.duplicateKeys {
        case .reject:
            let later = String(decoding: Self.decodedKeyBytes(scanner, start: key.start, end: key.end, needsDecoding: key.needsDecoding), as: UTF8.self)
            let earlier = keyRefs[base + first]
            let firstSpelling = String(
                decoding: Self.decodedKeyBytes(scanner, start: earlier.start, end: earlier.end, needsDecoding: earlier.needsDecoding), as: UTF8.self)
            // Two spellings of one key (canonically equivalent): both named, so neither hides.
            let spelling = Array(firstSpelling.utf8) == Array(later.utf8) ? "" : " spelled \"\(Excerpt.escape(firstSpelling))\""
            throw error(
                .duplicateKey, at: quote,
                "duplicate key \"\(Excerpt.escape(later))\" (first at offset \(firstQuote)\(spelling), again at offset \(quote))",
                related: firstQuote)
        case .keepFirst, .keepLast:
            duplicates.append((depth: level, later: index, first: first))
            top.hasDuplicates = true
        }
    }

    // MARK: Errors

    func error(_ code: VettedError.Code, at offset: Int, _ message: String, related: Int? = nil) -> VettedError {
        VettedError(code, at: offset, in: source, path: currentPath(), message: message, relatedOffset: related)
    }

    /// The path of the value being read, built only when an error needs it.
    func currentPath() -> DocumentPath {
        var components: [DocumentPath.Component] = []
        let open = depth > 0 ? frames + [top] : []
        for frame in open where frame.count > 0 {
            if !frame.isObject {
                components.append(.index(frame.count - 1))
            } else if frame.hasKey, keyRefs.indices.contains(frame.keyRefBase + frame.count - 1) {
                let key = keyRefs[frame.keyRefBase + frame.count - 1]
                let bytes = Self.decodedKeyBytes(scanner, start: key.start, end: key.end, needsDecoding: key.needsDecoding)
                components.append(.key(String(decoding: bytes, as: UTF8.self)))
            }
        }
        return DocumentPath(components)
    }

    func endOfInput(expecting what: String) -> VettedError {
        guard depth > 0 else {
            return error(.unexpectedEndOfInput, at: scanner.count, "input ends where \(what) was expected")
        }
        if top.isObject {
            return error(.unterminatedObject, at: top.start, "object is never closed; input ends where \(what) was expected")
        }
        return error(.unterminatedArray, at: top.start, "array is never closed; input ends where \(what) was expected")
    }

    func unexpected(at offset: Int, expecting what: String) -> VettedError {
        if offset >= scanner.count { return endOfInput(expecting: what) }
        let byte = scanner.byte(at: offset)
        let next = scanner.byte(at: offset + 1)
        if byte == UInt8(ascii: "/"), next == UInt8(ascii: "/") || next == UInt8(ascii: "*") {
            return error(.commentNotAllowed, at: offset, "comments are not allowed in JSON")
        }
        if byte == UInt8(ascii: "N") || byte == UInt8(ascii: "I") {
            return error(.invalidLiteral, at: offset, "NaN and Infinity are not JSON numbers")
        }
        if byte == UInt8(ascii: "'") {
            return error(.unexpectedCharacter, at: offset, "strings use double quotes, not single quotes")
        }
        return error(.unexpectedCharacter, at: offset, "unexpected \(describe(at: offset)); expected \(what)")
    }

    func separatorError(at offset: Int, closer: UInt8) -> VettedError {
        let byte = scanner.byte(at: offset)
        let closerText = String(Character(Unicode.Scalar(closer)))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "["), UInt8(ascii: "{"), UInt8(ascii: "-"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            return error(.missingComma, at: offset, "expected ',' or '\(closerText)' before the next value")
        default:
            return unexpected(at: offset, expecting: "',' or '\(closerText)'")
        }
    }

    func keyError(at offset: Int) -> VettedError {
        let byte = scanner.byte(at: offset)
        if byte == UInt8(ascii: "/"), [UInt8(ascii: "/"), UInt8(ascii: "*")].contains(scanner.byte(at: offset + 1)) {
            return error(.commentNotAllowed, at: offset, "comments are not allowed in JSON")
        }
        if byte == UInt8(ascii: "'") {
            return error(.expectedKey, at: offset, "keys use double quotes, not single quotes")
        }
        return error(.expectedKey, at: offset, "expected a string key; found \(describe(at: offset))")
    }

    /// `'x'` for printable ASCII, else an escaped form; never more than one character of input.
    func describe(at offset: Int) -> String {
        let byte = scanner.byte(at: offset)
        if (0x21...0x7E).contains(byte) { return "'\(Character(Unicode.Scalar(byte)))'" }
        let length = Swift.max(1, scanner.utf8SequenceLength(at: offset))
        var bytes: [UInt8] = []
        scanner.appendBytes(offset..<Swift.min(offset + length, scanner.count), to: &bytes)
        return "'" + Excerpt.escape(String(decoding: bytes, as: UTF8.self), maximumBytes: 12) + "'"
            + (scanner.utf8SequenceLength(at: offset) == 0 ? " (byte 0x\(Excerpt.hex(UInt32(byte), digits: 2)))" : "")
    }
}
