import Foundation
@_spi(Scanning) import VettedCore
import VettedRules
import VettedDecoding

/// One `decode` call: the input, its tape, the options, the rule violations
/// found so far, and caches shared by every decoder of the call.
final class DecodingDocument {
    /// The text being decoded. Set anew for each record of a stream, whose records share one
    /// document for the byte reader (``init(directReadingUnder:duplicateKeys:)``).
    var source: SourceText
    /// The input, while ``VettedJSONDecoder`` decodes inside `SourceText.withScanner`;
    /// `nil` (every read empty) before and after, so no decoder that outlived
    /// the call could read freed bytes.
    var scanner: ByteScanner?
    let tape: [JSONTape.Entry]
    let date: VettedJSONDecoder.DateDecodingStrategy
    let data: VettedJSONDecoder.DataDecodingStrategy
    let keys: VettedJSONDecoder.KeyDecodingStrategy
    let floats: VettedJSONDecoder.NonConformingFloatDecodingStrategy
    /// The call's user info, as the options hold it; widened to `Any` only when a model asks.
    private let sendableUserInfo: [CodingUserInfoKey: any Sendable]
    var userInfo: [CodingUserInfoKey: Any] { sendableUserInfo }
    let duplicateKeys: JSONParser.DuplicateKeyPolicy
    /// The stack this call may use: models recurse once per level, in code of theirs.
    let stack: StackGuard
    /// The rules: what this call's values must satisfy, and what they broke so far.
    let engine: RuleEngine
    /// Reused buffer for unescaping strings.
    private var scratch: [UInt8] = []
    /// Whether the tape's offsets are places in a text the caller has: false for a
    /// ``JSONValue`` decoded (``IndexedValue``), whose errors then carry a path only.
    let locatesInSource: Bool
    /// The first internal invariant that failed during this call (a bug in
    /// Vetted): the call then throws `internalInvariantViolated`, whatever it decoded.
    private(set) var invariantViolation: String?

    /// Throws when an invariant broke during the call: never a value built on a
    /// broken invariant, but `DecodingError.dataCorrupted` with a `VettedError` of
    /// its own code, `internalInvariantViolated`.
    func checkInvariants() throws {
        guard let violation = invariantViolation else { return }
        let error = VettedError(code: .internalInvariantViolated, message: "internal invariant violated: \(violation)")
        throw DecodingError.carrying(error, at: [])
    }

    /// Records a broken invariant; the decode call throws it at its end.
    func invariantFailed(_ what: @autoclosure () -> String) {
        if invariantViolation == nil { invariantViolation = what() }
    }

    init(
        source: SourceText, tape: JSONTape, options decoder: VettedJSONDecoder.Options, duplicateKeys: JSONParser.DuplicateKeyPolicy,
        locatesInSource: Bool = true, enginesLocate: Bool = true
    ) {
        stack = decoder.shared.makeStackGuard()
        self.locatesInSource = locatesInSource
        self.source = source
        self.tape = tape.entries
        self.date = decoder.dateDecodingStrategy
        self.data = decoder.dataDecodingStrategy
        self.keys = decoder.keyDecodingStrategy
        self.floats = decoder.nonConformingFloatDecodingStrategy
        self.sendableUserInfo = decoder.shared.userInfo
        self.engine = decoder.shared.makeEngine()
        self.duplicateKeys = duplicateKeys
        // Structural errors are located on the tape. The closure holds the document, which
        // owns the engine: the call that made the document breaks that cycle when it ends
        // (``close()``). A weak reference would cost a side table per call, per record of a stream.
        if locatesInSource, enginesLocate {
            engine.locate = { codingPath in self.location(of: codingPath) }
        }
    }

    /// A document for the byte reader alone, which reads no tape and locates what it finds
    /// itself: its engine locates nothing (so no cycle forms, and there is nothing to close),
    /// and a stream's records share it, each setting ``source``. Its stack guard goes unused:
    /// the byte reader bounds its own depth (``JSONDirectReader/depthCeiling``), and a miss
    /// goes to the tape with a document of its own.
    convenience init(directReadingUnder decoder: VettedJSONDecoder.Options, duplicateKeys: JSONParser.DuplicateKeyPolicy) {
        self.init(source: SourceText([]), tape: JSONTape(), options: decoder, duplicateKeys: duplicateKeys, enginesLocate: false)
    }

    /// Ends the call this document served: its engine no longer locates errors on it,
    /// which releases the document. Every decode call that makes a document calls this last.
    func close() {
        engine.locate = { _ in nil }
    }

    /// Where the value at `index` is in the input: a scalar's first byte; for
    /// a container (whose entry holds no offset), the key before it, if any.
    func location(ofValueAt index: Int) -> ValueLocation? {
        guard locatesInSource else { return nil }
        let value = entry(index)
        switch value.kind {
        case .array, .object:
            let key = entry(index - 1)
            guard index > 0, key.kind == .key else { return nil }
            return ValueLocation(offset: Swift.max(0, key.first - 1), source: source)
        case .string, .key:
            return ValueLocation(offset: Swift.max(0, value.first - 1), source: source)
        default:
            return ValueLocation(offset: value.first, source: source)
        }
    }

    /// What the decoder needs to know of each type met so far.
    private var types = _TypeMemo<TypeInfo>()

    /// Whether a key strategy other than `useDefaultKeys` is in force.
    private var convertsKeys: Bool {
        if case .useDefaultKeys = keys { return false }
        return true
    }

    /// What `type` is to the decoder, looked up once per call (casts to protocols are slow).
    func info<T>(for type: T.Type) -> TypeInfo {
        let id = ObjectIdentifier(type)
        if let recent = types.recentInfo(id) { return recent }
        return types.info(id) {
            let special = type == Date.self || type == Data.self || type == URL.self || type == Decimal.self || type == JSONValue.self
            let rules = TypeRules.of(type)
            return TypeInfo(rules: rules, container: Self.container(of: type, rules: rules, convertsKeys: convertsKeys), special: special)
        }
    }

    /// How the decoder reads `type` itself, if it does: one cast after another, the first that fits.
    private static func container<T>(of type: T.Type, rules: TypeRules?, convertsKeys: Bool) -> TypeInfo.Container? {
        if let array = type as? any TapeArrayDecodable.Type { return .array(array) }
        if convertsKeys, let dictionary = type as? any TapeStringDictionaryDecodable.Type { return .stringDictionary(dictionary) }
        // A key strategy rewrites the coding keys init(from:) looks up: generated code keeps to the document's.
        if !convertsKeys, let generated = type as? any _VettedDecodable.Type { return .generated(generated) }
        if let optional = type as? any AbsentOptional.Type { return .optional(optional) }
        // A @Vetted enum without rules of its own: read by its raw value (generated decoding,
        // and so only under the default key strategy, as for structs).
        if rules == nil, !convertsKeys, let strings = type as? any _VettedStringEnum.Type { return .stringEnum(strings) }
        if rules == nil, !convertsKeys, let integers = type as? any _VettedIntEnum.Type { return .intEnum(integers) }
        if type is any _VettedUnion.Type { return .union }
        return nil
    }

    // MARK: Reading the input

    /// The entry at `index`. ``TapeDecoder/nullIndex`` reads as null, for a missing
    /// value's decoder; any other index outside the tape is a broken invariant:
    /// recorded (the call throws `internalInvariantViolated`), and read as null meanwhile.
    @inline(__always)
    func entry(_ index: Int) -> JSONTape.Entry {
        if index >= 0 && index < tape.count { return tape[index] }
        if index != TapeDecoder.nullIndex { invariantFailed("tape index \(index) outside 0..<\(tape.count)") }
        return JSONTape.Entry(first: 0, second: 0)
    }

    /// The index after the value at `index` and everything it contains.
    @inline(__always)
    func next(after index: Int) -> Int {
        let entry = entry(index)
        switch entry.kind {
        case .array, .object: return Swift.max(entry.payload, index + 1)
        default: return index + 1
        }
    }

    // A decoder or container that escaped its `init(from:)` and is used after
    // the call reads the same input: `scanner` is gone then, and each read
    // makes a scanner of its own over ``source`` (slower, never a wrong value).

    /// The text of a string or key entry.
    func string(_ entry: JSONTape.Entry) -> String {
        let range = entry.first..<Swift.max(entry.first, entry.payload)
        guard let scanner else { return stringAfterCall(entry) }
        guard entry.has(JSONTape.needsDecoding) else { return scanner.string(range) }
        return JSONReader.unescapedString(scanner, range, scratch: &scratch)
    }

    /// ``string(_:)`` once the call has returned: over a scanner of its own.
    @inline(never)
    private func stringAfterCall(_ entry: JSONTape.Entry) -> String {
        let range = entry.first..<Swift.max(entry.first, entry.payload)
        return source.withScanner { scanner in
            guard entry.has(JSONTape.needsDecoding) else { return scanner.string(range) }
            var scratch: [UInt8] = []
            return JSONReader.unescapedString(scanner, range, scratch: &scratch)
        }
    }

    /// Whether the key entry is `key`: the same bytes, or — when either is not all
    /// ASCII — the same String (canonical equivalence, as Swift and Foundation compare
    /// keys: `cafe\u{301}` is `café`). `keyIsASCII` caches whether `key` is all ASCII,
    /// worked out on the first mismatch only (a hit costs nothing more than before).
    @inline(__always)
    func keyEquals(_ entry: JSONTape.Entry, _ key: String, keyIsASCII: inout Bool?) -> Bool {
        let start = entry.first
        if entry.has(JSONTape.needsDecoding) { return string(entry) == key }
        guard let scanner else { return stringAfterCall(entry) == key }
        if scanner.bytesEqual(start..<Swift.max(start, entry.payload), key.utf8.span) { return true }
        if !entry.has(JSONTape.nonASCII) {
            let ascii = keyIsASCII ?? key.utf8.allSatisfy { $0 < 0x80 }
            keyIsASCII = ascii
            if ascii { return false }
        }
        return string(entry) == key
    }

    /// The literal of a number entry.
    func literal(_ entry: JSONTape.Entry) -> String {
        let range = entry.first..<Swift.max(entry.first, entry.payload)
        guard let scanner else { return source.withScanner { $0.string(range) } }
        return scanner.string(range)
    }

    /// A number entry as `I` when it is a plain integer literal of up to 18
    /// digits (no fraction, no exponent); `nil` sends it to ``JSONNumber``.
    @inline(__always)
    func smallInteger(_ entry: JSONTape.Entry) -> Int64? {
        let start = entry.first
        let end = entry.payload
        guard end - start <= 18, end > start, let scanner else { return nil }
        var index = start
        let negative = scanner.byte(at: index) == UInt8(ascii: "-")
        if negative { index += 1 }
        guard index < end else { return nil }
        var value: Int64 = 0
        while index < end {
            let digit = scanner.byte(at: index) &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            value = value &* 10 &+ Int64(digit)
            index += 1
        }
        return negative ? 0 &- value : value
    }

    /// A number entry as `I`, or `nil` when it is not representable (the decoders' one conversion).
    func integer<I: FixedWidthInteger>(_ type: I.Type, _ entry: JSONTape.Entry) -> I? {
        if let small = smallInteger(entry), let integer = I(exactly: small) { return integer }
        let number = JSONNumber(validatedLiteral: literal(entry))
        if I.isSigned { return (try? number.int64Value).flatMap { I(exactly: $0) } }
        return (try? number.uint64Value).flatMap { I(exactly: $0) }
    }

    /// A number entry as `Double`, or `nil` when it is not representable.
    func double(_ entry: JSONTape.Entry) -> Double? {
        if let small = smallInteger(entry), abs(small) < 1 << 53 {
            // `-0` keeps its sign, as it does in Foundation and every IEEE 754 reader.
            guard small == 0, entry.payload > entry.first, scanner?.byte(at: entry.first) == UInt8(ascii: "-") else { return Double(small) }
            return -0.0
        }
        return try? JSONNumber(validatedLiteral: literal(entry)).doubleValue
    }

    /// An ISO 8601 date from a string entry without escapes.
    func iso8601Date(_ entry: JSONTape.Entry) -> Date? {
        guard !entry.has(JSONTape.needsDecoding) else { return ISO8601.date(from: string(entry)) }
        let start = entry.first
        let count = entry.payload - start
        guard let scanner else { return ISO8601.date(from: string(entry)) }
        guard count >= 20 else { return nil }
        let head = scanner.prefixWord(start..<(start + 8))
        let middle = scanner.prefixWord((start + 8)..<(start + 16))
        return ISO8601.date(count: count, head: head, middle: middle) { scanner.byte(at: start + $0) }
    }

    /// The value at `index` as a ``JSONValue`` (for `JSONValue` fields).
    /// Iterative, with its own stack of open containers: a value at the
    /// parser's depth ceiling never deepens the thread's stack.
    func jsonValue(at index: Int) -> JSONValue {
        /// A container being built: its members' value indexes, keys (objects) and values so far.
        struct Open {
            var keys: [String]?
            var pending: [Int]
            var values: [JSONValue]
        }
        var stack: [Open] = []
        var position = index
        while true {
            let entry = entry(position)
            var value: JSONValue
            switch entry.kind {
            case .null: value = .null
            case .false: value = .bool(false)
            case .true: value = .bool(true)
            case .number: value = .number(JSONNumber(validatedLiteral: literal(entry)))
            case .string, .key: value = .string(string(entry))
            case .array, .object:
                var open: Open
                if entry.kind == .object {
                    let members = KeyedReader.members(of: position, in: self)
                    open = Open(keys: members.map(\.key), pending: members.map(\.value), values: [])
                } else {
                    var elements: [Int] = []
                    elements.reserveCapacity(entry.first)
                    var element = position + 1
                    while element < entry.payload {
                        elements.append(element)
                        element = next(after: element)
                    }
                    open = Open(keys: nil, pending: elements, values: [])
                }
                if let first = open.pending.first {
                    open.values.reserveCapacity(open.pending.count)
                    stack.append(open)
                    position = first
                    continue
                }
                value = open.keys.map { .object(JSONObject(keys: $0, values: [])) } ?? .array([])
            }
            // Hand the value to the containers it completes.
            while var top = stack.popLast() {
                top.values.append(value)
                if top.values.count < top.pending.count {
                    position = top.pending[top.values.count]
                    stack.append(top)
                    break
                }
                value = top.keys.map { .object(JSONObject(keys: $0, values: top.values)) } ?? .array(top.values)
            }
            if stack.isEmpty { return value }
        }
    }
}
