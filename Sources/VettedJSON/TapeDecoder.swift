import Foundation
@_spi(Scanning) import VettedCore
import VettedRules

/// One `decode` call: the input, its tape, the options, the rule violations
/// found so far, and caches shared by every decoder of the call.
final class DecodingDocument {
    let source: SourceText
    /// The input, while ``VettedJSONDecoder`` decodes inside `SourceText.withScanner`;
    /// `nil` (every read empty) before and after, so no decoder that outlived
    /// the call could read freed bytes.
    var scanner: ByteScanner?
    let tape: [JSONTape.Entry]
    let date: VettedJSONDecoder.DateDecodingStrategy
    let data: VettedJSONDecoder.DataDecodingStrategy
    let keys: VettedJSONDecoder.KeyDecodingStrategy
    let floats: VettedJSONDecoder.NonConformingFloatDecodingStrategy
    let userInfo: [CodingUserInfoKey: Any]
    let duplicateKeys: JSONParser.DuplicateKeyPolicy
    /// The stack this call may use: models recurse once per level, in code of theirs.
    let stack: StackGuard
    /// The rules: what this call's values must satisfy, and what they broke so far.
    let engine: RuleEngine
    /// What the decoder needs to know of each type met so far.
    private var types: [ObjectIdentifier: TypeInfo] = [:]
    /// Reused buffer for unescaping strings.
    private var scratch: [UInt8] = []
    /// The first internal invariant that failed during this call (a bug in
    /// Vetted): the call then throws `internalInvariantViolated`, whatever it decoded.
    private(set) var invariantViolation: String?

    /// Throws when an invariant broke during the call: never a value built on a
    /// broken invariant, but `DecodingError.dataCorrupted` with a `VettedError` of
    /// its own code, `internalInvariantViolated`.
    func checkInvariants() throws {
        guard let violation = invariantViolation else { return }
        let error = VettedError(code: .internalInvariantViolated, message: "internal invariant violated: \(violation)")
        throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: error.message, underlyingError: error))
    }

    /// Records a broken invariant; the decode call throws it at its end.
    func invariantFailed(_ what: @autoclosure () -> String) {
        if invariantViolation == nil { invariantViolation = what() }
    }

    init(source: SourceText, tape: JSONTape, options decoder: VettedJSONDecoder.Options, duplicateKeys: JSONParser.DuplicateKeyPolicy) {
        stack = StackGuard(budget: decoder.limits.maxStackBytes)
        self.source = source
        self.tape = tape.entries
        self.date = decoder.dateDecodingStrategy
        self.data = decoder.dataDecodingStrategy
        self.keys = decoder.keyDecodingStrategy
        self.floats = decoder.nonConformingFloatDecodingStrategy
        self.userInfo = decoder.userInfo
        self.engine = RuleEngine(mode: decoder.validationMode)
        self.duplicateKeys = duplicateKeys
        // Structural errors are located on the tape (weakly: the document owns the engine).
        engine.locate = { [weak self] codingPath in self?.location(of: codingPath) }
    }

    /// Where the value at `index` is in the input: a scalar's first byte; for
    /// a container (whose entry holds no offset), the key before it, if any.
    func location(ofValueAt index: Int) -> ValueLocation? {
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

    /// The last few types looked up, most recent first: a model's own few
    /// types are found here without hashing.
    private var recentTypes: [(type: ObjectIdentifier, info: TypeInfo)] = []

    /// Whether a key strategy other than `useDefaultKeys` is in force.
    private var convertsKeys: Bool {
        if case .useDefaultKeys = keys { return false }
        return true
    }

    /// What `type` is to the decoder, looked up once per call (casts to protocols are slow).
    func info<T>(for type: T.Type) -> TypeInfo {
        let id = ObjectIdentifier(type)
        // One read of the list (each read of a class property is an exclusivity check).
        let recent = recentTypes
        for index in recent.indices where recent[index].type == id { return recent[index].info }
        let found: TypeInfo
        if let known = types[id] {
            found = known
        } else {
            let special = type == Date.self || type == Data.self || type == URL.self || type == Decimal.self || type == JSONValue.self
            let rules = TypeRules.of(type)
            found = TypeInfo(
                rules: rules,
                container: (type as? any TapeArrayDecodable.Type).map(TypeInfo.Container.array)
                    ?? (convertsKeys ? (type as? any TapeStringDictionaryDecodable.Type).map(TypeInfo.Container.stringDictionary) : nil)
                    // A key strategy rewrites the coding keys init(from:) looks up: generated code keeps to the document's.
                    ?? (convertsKeys ? nil : (type as? any VettedJSONDecodable.Type).map(TypeInfo.Container.generated))
                    ?? (type as? any AbsentOptional.Type).map(TypeInfo.Container.optional)
                    // A @Vetted enum without rules of its own: read by its raw value (generated
                    // decoding, and so only under the default key strategy, as for structs).
                    ?? (rules == nil && !convertsKeys ? (type as? any VettedStringEnum.Type).map(TypeInfo.Container.stringEnum) : nil)
                    ?? (rules == nil && !convertsKeys ? (type as? any VettedIntEnum.Type).map(TypeInfo.Container.intEnum) : nil),
                special: special)
            types[id] = found
        }
        if recentTypes.count >= 4 { recentTypes.removeLast() }
        recentTypes.insert((id, found), at: 0)
        return found
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
        if let small = smallInteger(entry), abs(small) < 1 << 53 { return Double(small) }
        return try? JSONNumber(validatedLiteral: literal(entry)).doubleValue
    }

    /// An ISO 8601 date from a string entry without escapes.
    func iso8601Date(_ entry: JSONTape.Entry) -> Date? {
        guard !entry.has(JSONTape.needsDecoding) else { return ISO8601.date(from: string(entry)) }
        let start = entry.first
        let count = entry.payload - start
        guard let scanner else { return ISO8601.date(from: string(entry)) }
        return ISO8601.date(count: count) { scanner.byte(at: start + $0) }
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

/// What the decoder knows of a type.
struct TypeInfo {
    /// Its rules, if it is `Validatable`.
    let rules: TypeRules?
    /// Containers the decoder reads off the tape itself.
    enum Container {
        /// Arrays: no container box, capacity from the element count.
        case array(any TapeArrayDecodable.Type)
        /// `[String: V]` under a key strategy: its keys are data, not coding keys, and are not converted.
        case stringDictionary(any TapeStringDictionaryDecodable.Type)
        /// A `@Vetted` type's generated decoding, when this call can use it.
        case generated(any VettedJSONDecodable.Type)
        /// An optional: a generated field of it decodes as `decodeIfPresent`.
        case optional(any AbsentOptional.Type)
        /// A `@Vetted` enum (no rules): a raw value naming a case is that case;
        /// anything else goes through its (standard) `init(from:)`.
        case stringEnum(any VettedStringEnum.Type)
        case intEnum(any VettedIntEnum.Type)
    }

    /// One field for every kind, so that the struct stays small (copied per value, and on
    /// the stack of every level of a recursive model).
    let container: Container?
    /// Date, Data, URL, Decimal or JSONValue: decoded by the decoder's own rules.
    let special: Bool

    /// The optional's type, when the type is one.
    var optional: (any AbsentOptional.Type)? {
        if case .optional(let type)? = container { return type }
        return nil
    }
}

/// Arrays read straight off the tape: no container box, and the capacity
/// reserved from the element count (which the parser bounded).
protocol TapeArrayDecodable {
    static func decodeFromTape(_ decoder: TapeDecoder) throws -> Self
}

extension Array: TapeArrayDecodable where Element: Decodable {
    /// As `Array.init(from:)` does through an unkeyed container: the same errors and paths.
    static func decodeFromTape(_ decoder: TapeDecoder) throws -> [Element] {
        try decoder.arrayElements(Element.self)
    }
}

extension TapeDecoder {
    /// The current value's elements, as `Array.init(from:)` reads them through an
    /// unkeyed container: the same errors and paths. A function of the element
    /// type, not of the array's: the arrays of `@Vetted` enums are built with no
    /// lookup of the array type.
    func arrayElements<Element: Decodable>(_ type: Element.Type) throws -> [Element] {
        let array = current
        try expect(.array, at: array, codingPath)
        let entry = document.entry(array)
        let base = PathBase.depth(path.count)
        var position = array + 1
        // Looked up once for all the elements.
        let info = entry.payload > position ? document.info(for: Element.self) : nil
        switch info?.container {
        case .stringEnum(let type)?:
            return try stringEnums(type, as: Element.self, start: position, end: entry.payload, count: entry.first, base: base, info: info)
        case .intEnum(let type)?:
            return try intEnums(type, as: Element.self, start: position, end: entry.payload, count: entry.first, base: base, info: info)
        default:
            break
        }
        var elements: [Element] = []
        elements.reserveCapacity(entry.first)
        var index = 0
        while position < entry.payload {
            elements.append(try child(Element.self, at: position, base: base, .index(index), info: info))
            position = document.next(after: position)
            index += 1
        }
        return elements
    }
}

extension TapeDecoder {
    /// The elements of an array of a `@Vetted` enum: each one that `fast`
    /// reads (a raw value naming a case) is that case; any other goes through
    /// `child`, to its standard `init(from:)`, which gives its own value or
    /// error. The array is built in the enum's module (`__vettedArray`).
    fileprivate func stringEnums<E: VettedStringEnum, Element>(
        _ type: E.Type, as: Element.Type, start: Int, end: Int, count: Int, base: PathBase, info: TypeInfo?
    ) throws -> [Element] {
        let document = document
        return try enumElements(type, as: Element.self, start: start, end: end, count: count, base: base, info: info) {
            let element = document.entry($0)
            guard element.kind == .string else { throw VettedRawValueMiss() }
            return try E(__vettedRawValue: document.string(element))
        }
    }

    fileprivate func intEnums<E: VettedIntEnum, Element>(
        _ type: E.Type, as: Element.Type, start: Int, end: Int, count: Int, base: PathBase, info: TypeInfo?
    ) throws -> [Element] {
        try enumElements(type, as: Element.self, start: start, end: end, count: count, base: base, info: info) {
            try E(__vettedRawValue: try self.integer(Int.self, at: $0, []))
        }
    }

    private func enumElements<E: VettedRawValueEnum, Element>(
        _ type: E.Type, as: Element.Type, start: Int, end: Int, count: Int, base: PathBase, info: TypeInfo?,
        fast: (Int) throws -> E
    ) throws -> [Element] {
        let document = document
        // The depth of every element: without room there, each one goes to `child`, which throws tooDeep.
        let room = document.stack.hasRoom(atDepth: path.count + 1)
        var position = start
        let cases = try E.__vettedArray(count: count) { index in
            let at = position
            if at >= end { document.invariantFailed("array element \(index) past the array's end") }
            position = document.next(after: at)
            if room {
                do { return try fast(at) } catch {}
            }
            return try self.child(E.self, at: at, base: base, .index(index), info: info)
        }
        if position != end { document.invariantFailed("array of \(count) elements ends at \(position), not \(end)") }
        return try SameType.cast(cases, toArrayOf: Element.self)
    }
}

/// `[String: V]` read with its keys as they are written: as Foundation's
/// `JSONDecoder` does, a key strategy converts coding keys, not a
/// dictionary's keys (which are data).
protocol TapeStringDictionaryDecodable {
    static func decodeFromTape(_ decoder: TapeDecoder) throws -> Self
}

extension Dictionary: TapeStringDictionaryDecodable where Key == String, Value: Decodable {
    static func decodeFromTape(_ decoder: TapeDecoder) throws -> [String: Value] {
        let object = decoder.current
        let document = decoder.document
        try decoder.expect(.object, at: object, decoder.codingPath)
        let base = PathBase.depth(decoder.path.count)
        let members = KeyedReader.members(of: object, in: document)
        var result: [String: Value] = [:]
        result.reserveCapacity(members.count)
        for member in members {
            result[member.key] = try decoder.child(Value.self, at: member.value, base: base, .key(PathKey(stringValue: member.key)))
        }
        return result
    }
}

/// A coding-path component.
enum PathComponent {
    case key(any CodingKey)
    case index(Int)

    var codingKey: any CodingKey {
        switch self {
        case .key(let key): key
        case .index(let index): PathKey(intValue: index)
        }
    }
}

/// Where a container's coding path comes from: the decoder's path stack up
/// to a depth (containers made in `init(from:)`, the usual case), or a copy
/// (nested containers, which may be used after their parent moved on).
enum PathBase {
    case depth(Int)
    case snapshot([PathComponent])
}

/// Decodes by walking the tape: one object per `decode` call (plus one per
/// super decoder), whose current value and coding path move as `init(from:)`
/// implementations ask for nested values.
final class TapeDecoder: Decoder, SingleValueDecodingContainer, RuleEngineDecoder {
    let document: DecodingDocument
    /// Where decoding is, saved and restored in one step as it moves to a child.
    struct Frame {
        /// The tape index of the value being decoded.
        var current: Int
        /// The rules of the type whose `init(from:)` runs now, for its keyed container.
        var active: RuleScope?
    }

    var frame: Frame
    var current: Int { frame.current }
    var active: RuleScope? { frame.active }
    var path: [PathComponent]
    /// Where the last key lookup ended: the next lookup in the same object starts there,
    /// so keys asked for in document order are found at once. One property, read and written once per lookup.
    var hint = (object: -1, next: 0)

    /// The call's rules (the document's), held here so that a field's check reads one property.
    let engine: RuleEngine

    init(document: DecodingDocument, current: Int, path: [PathComponent]) {
        self.document = document
        self.engine = document.engine
        self.frame = Frame(current: current, active: nil)
        self.path = path
    }

    var codingPath: [any CodingKey] { path.map(\.codingKey) }
    var userInfo: [CodingUserInfoKey: Any] { document.userInfo }
    var ruleEngine: RuleEngine { engine }

    func codingPath(_ base: PathBase) -> [any CodingKey] { components(base).map(\.codingKey) }

    func components(_ base: PathBase) -> [PathComponent] {
        switch base {
        case .depth(let depth): Array(path.prefix(depth))
        case .snapshot(let components): components
        }
    }

    // MARK: Decoder

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        try expect(.object, at: current, codingPath)
        let active = frame.active
        if let active, active.isTracking { engine.sawKeys(Key.self, in: active) }
        return KeyedDecodingContainer(TapeKeyedContainer<Key>(decoder: self, object: current, base: .depth(path.count), active: active))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try expect(.array, at: current, codingPath)
        return TapeUnkeyedContainer(decoder: self, array: current, base: .depth(path.count))
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    // MARK: Moving

    /// Decodes a `T` from the value at `index`, one `component` below `base`.
    /// `info`, when given, is `document.info(for: T.self)`, looked up by the caller.
    func child<T: Decodable>(_ type: T.Type, at index: Int, base: PathBase, _ component: PathComponent, info: TypeInfo? = nil) throws -> T {
        // Only a Validatable type's own keyed container sees its rules, so the child starts without any.
        let saved = frame
        frame = Frame(current: index, active: nil)
        defer { frame = saved }
        if case .depth(let depth) = base, depth == path.count {
            path.append(component)
            defer { path.removeLast() }
            return try decodeCurrent(T.self, depth: depth + 1, info: info)
        }
        let savedPath = path
        let components = components(base) + [component]
        path = components
        defer { path = savedPath }
        return try decodeCurrent(T.self, depth: components.count, info: info)
    }

    // MARK: Values

    /// Decodes `T` from the current value, with special types and validation.
    func unwrap<T: Decodable>(_ type: T.Type) throws -> T {
        let saved = frame
        frame.active = nil
        defer { frame = saved }
        return try decodeCurrent(T.self, depth: path.count, info: nil)
    }

    /// ``unwrap(_:)`` once the frame is set up: no rules active, `depth` components in the path.
    private func decodeCurrent<T: Decodable>(_ type: T.Type, depth: Int, info known: TypeInfo?) throws -> T {
        guard document.stack.hasRoom(atDepth: depth) else { throw tooDeep() }
        let info = known ?? document.info(for: T.self)
        // The casts live apart, so that the common path needs no `T?` metadata.
        if info.special || info.container != nil { return try unwrapSpecial(T.self, info) }
        guard let rules = info.rules else { return try T(from: self) }
        return try engine.run(rules, path: { codingPath }) { scope in
            frame.active = scope
            return try T(from: self)
        }
    }

    /// Values of the types the decoder reads its own way: Date, Data, URL,
    /// Decimal and JSONValue by the decoder's strategies, arrays off the tape.
    @inline(never)
    private func unwrapSpecial<T: Decodable>(_ type: T.Type, _ info: TypeInfo) throws -> T {
        // `SameType.cast`, not `as? T`: no `T?` metadata on every call.
        switch info.container {
        case .array(let array)?: return try elements(of: array, as: T.self)
        case .stringDictionary(let dictionary)?: return try SameType.cast(try dictionary.decodeFromTape(self), to: T.self)
        case .generated(let generated)?: return try decodeGenerated(generated, as: T.self, rules: info.rules)
        case .stringEnum(let type)?:
            do { return try enumCase(type, as: T.self) } catch {}
            return try T(from: self)
        case .intEnum(let type)?:
            do { return try enumCase(type, as: T.self) } catch {}
            return try T(from: self)
        case .optional?, nil: break
        }
        if T.self == Date.self { return try SameType.cast(try unwrapDate(), to: T.self) }
        if T.self == Data.self { return try SameType.cast(try unwrapData(), to: T.self) }
        if T.self == URL.self {
            let text = try string(at: current, codingPath)
            guard let url = URL(string: text) else {
                throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "Invalid URL string."))
            }
            return try SameType.cast(url, to: T.self)
        }
        if T.self == Decimal.self { return try SameType.cast(try decimal(at: current, codingPath), to: T.self) }
        if T.self == JSONValue.self { return try SameType.cast(document.jsonValue(at: current), to: T.self) }
        return try T(from: self)
    }

    /// The case a string names; throws (for the caller to fall back to `init(from:)`) for anything else.
    private func enumCase<E: VettedStringEnum, T>(_ type: E.Type, as: T.Type) throws -> T {
        let entry = document.entry(current)
        guard entry.kind == .string else { throw VettedRawValueMiss() }
        return try SameType.cast(try E(__vettedRawValue: document.string(entry)), to: T.self)
    }

    /// The case an integer names; throws (for the caller to fall back to `init(from:)`) for anything else.
    private func enumCase<E: VettedIntEnum, T>(_ type: E.Type, as: T.Type) throws -> T {
        try SameType.cast(try E(__vettedRawValue: try integer(Int.self, at: current, [])), to: T.self)
    }

    /// An array type's elements, read off the tape.
    private func elements<Elements: TapeArrayDecodable, T>(of type: Elements.Type, as: T.Type) throws -> T {
        try SameType.cast(try Elements.decodeFromTape(self), to: T.self)
    }

    /// The value at the current path nests deeper than this call's stack budget allows.
    func tooDeep() -> DecodingError {
        let codingPath = codingPath
        let error = VettedError(
            code: .depthLimitExceeded, path: DocumentPath(codingPath: codingPath),
            message: "the model nests " + document.stack.exceededMessage)
        return DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: error.message, underlyingError: error))
    }

    /// Checks the field rules for `key` (whose string value is `name`, value at
    /// tape index `index`) of the value `scope` belongs to.
    /// ``RuleEngine/decoded(_:name:in:path:location:)``'s steps, here where
    /// they are specialized for the field's type (the hot path of decoding).
    @inline(__always)
    func validate<Value>(_ decoded: Value, key: any CodingKey, name: String, at index: Int, scope: RuleScope, base: PathBase) throws {
        // The rules' entry for `name`, found here (a call into VettedRules per field costs more than the loop).
        let rules = scope.rules
        let length = name.utf8.count
        guard let entry = rules.entries.indices.first(where: { rules.entries[$0].length == length && rules.entries[$0].key == name }) else { return }
        try validate(decoded, entry: entry, key: key, name: name, at: index, scope: scope, base: base)
    }

    /// ``validate(_:key:name:at:scope:base:)`` once the rules' entry for the field is known
    /// (generated decoding knows it from the start).
    @inline(__always)
    func validate<Value>(_ decoded: Value, entry: Int, key: any CodingKey, name: String, at index: Int, scope: RuleScope, base: PathBase) throws {
        let rules = scope.rules
        guard rules.entries.indices.contains(entry) else { return }
        for check in rules.entries[entry].checks {
            let outcome = check.outcome(decoded)
            if case .passed = outcome { continue }
            try engine.failed(
                outcome, check: check, name: name, valueType: Value.self, in: scope, path: { codingPath(base) + [key] },
                location: { document.location(ofValueAt: index) })
        }
        if let slot = rules.entries[entry].slot { engine.keep(decoded, slot: slot, in: scope) }
    }

    // MARK: Scalars

    func string(at index: Int, _ codingPath: @autoclosure () -> [any CodingKey]) throws -> String {
        let entry = document.entry(index)
        guard entry.kind == .string else { throw mismatch(String.self, entry, codingPath()) }
        return document.string(entry)
    }

    func bool(at index: Int, _ codingPath: @autoclosure () -> [any CodingKey]) throws -> Bool {
        let entry = document.entry(index)
        switch entry.kind {
        case .true: return true
        case .false: return false
        // As in Foundation, a null where a Bool is expected is a type mismatch, not a missing value.
        default: throw mismatch(Bool.self, entry, codingPath(), nullIsMismatch: true)
        }
    }

    func integer<I: FixedWidthInteger>(_ type: I.Type, at index: Int, _ codingPath: @autoclosure () -> [any CodingKey]) throws -> I {
        let entry = document.entry(index)
        guard entry.kind == .number else { throw mismatch(I.self, entry, codingPath()) }
        guard let integer = document.integer(I.self, entry) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: codingPath(), debugDescription: "Number \(Excerpt.escape(document.literal(entry), maximumBytes: 32)) is not representable in \(I.self)."))
        }
        return integer
    }

    func double(at index: Int, _ codingPath: @autoclosure () -> [any CodingKey]) throws -> Double {
        let entry = document.entry(index)
        switch entry.kind {
        case .number:
            guard let double = document.double(entry) else {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: codingPath(), debugDescription: "Number \(Excerpt.escape(document.literal(entry), maximumBytes: 32)) is not representable in Double."))
            }
            return double
        case .string:
            if case .convertFromString(let positive, let negative, let nan) = document.floats {
                let string = document.string(entry)
                if string == positive { return .infinity }
                if string == negative { return -.infinity }
                if string == nan { return .nan }
            }
            throw mismatch(Double.self, entry, codingPath())
        default:
            throw mismatch(Double.self, entry, codingPath())
        }
    }

    func float(at index: Int, _ codingPath: @autoclosure () -> [any CodingKey]) throws -> Float {
        let double = try double(at: index, codingPath())
        guard !double.isFinite || abs(double) <= Double(Float.greatestFiniteMagnitude) else {
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath(), debugDescription: "Number \(double) is not representable in Float."))
        }
        return Float(double)
    }

    func decimal(at index: Int, _ codingPath: @autoclosure () -> [any CodingKey]) throws -> Decimal {
        let entry = document.entry(index)
        guard entry.kind == .number else { throw mismatch(Decimal.self, entry, codingPath()) }
        let number = JSONNumber(validatedLiteral: document.literal(entry))
        guard let decimal = try? number.decimalValue else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: codingPath(), debugDescription: "Number \(Excerpt.escape(number.literal, maximumBytes: 32)) is not representable in Decimal."))
        }
        return decimal
    }

    /// A date by the date strategy; NaN and infinities (through `secondsSince1970` with
    /// non-conforming floats, say) are refused: every comparison with them is false.
    func unwrapDate() throws -> Date {
        let date = try strategyDate()
        guard date.timeIntervalSinceReferenceDate.isFinite else {
            let error = VettedError(code: .nonFiniteDate, path: DocumentPath(codingPath: codingPath), message: "the date is not a finite number of seconds")
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: error.message, underlyingError: error))
        }
        return date
    }

    @inline(__always)
    private func strategyDate() throws -> Date {
        switch document.date {
        case .deferredToDate:
            return try Date(from: self)
        case .secondsSince1970:
            return Date(timeIntervalSince1970: try double(at: current, codingPath))
        case .millisecondsSince1970:
            return Date(timeIntervalSince1970: try double(at: current, codingPath) / 1_000)
        case .iso8601:
            let entry = document.entry(current)
            guard entry.kind == .string else { throw mismatch(String.self, entry, codingPath) }
            guard let date = document.iso8601Date(entry) else {
                throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "Expected date string to be ISO8601-formatted."))
            }
            return date
        case .formatted(let formatter):
            let text = try string(at: current, codingPath)
            guard let date = formatter.date(from: text) else {
                throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "Date string does not match format expected by formatter."))
            }
            return date
        case .custom(let decode):
            return try decode(self)
        }
    }

    func unwrapData() throws -> Data {
        switch document.data {
        case .deferredToData:
            return try Data(from: self)
        case .base64:
            let text = try string(at: current, codingPath)
            guard let data = Data(base64Encoded: text) else {
                throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "Encountered Data is not valid Base64."))
            }
            return data
        case .custom(let decode):
            return try decode(self)
        }
    }

    func mismatch(
        _ type: Any.Type, _ entry: JSONTape.Entry, _ codingPath: [any CodingKey], expected: String? = nil, nullIsMismatch: Bool = false
    ) -> DecodingError {
        if entry.kind == .null, !nullIsMismatch {
            return .valueNotFound(type, .init(codingPath: codingPath, debugDescription: "Cannot get value of type \(type) -- found null value instead"))
        }
        return .typeMismatch(
            type, .init(codingPath: codingPath, debugDescription: expected ?? "Expected to decode \(type) but found \(Self.describe(entry)) instead."))
    }

    /// Throws JSONDecoder's type mismatch unless the value at `index` is a container of `kind` (`.object` or `.array`).
    func expect(_ kind: JSONTape.Kind, at index: Int, _ codingPath: @autoclosure () -> [any CodingKey]) throws {
        let entry = document.entry(index)
        guard entry.kind != kind else { return }
        let type: Any.Type = kind == .object ? [String: Any].self : [Any].self
        let name = kind == .object ? "Dictionary<String, Any>" : "Array<Any>"
        throw mismatch(type, entry, codingPath(), expected: "Expected to decode \(name) but found \(Self.describe(entry)) instead.")
    }

    static func describe(_ entry: JSONTape.Entry) -> String {
        switch entry.kind {
        case .null: "null"
        case .false, .true: "bool"
        case .number: "number"
        case .string, .key: "a string"
        case .array: "an array"
        case .object: "a dictionary"
        }
    }

    // MARK: SingleValueDecodingContainer

    func decodeNil() -> Bool { document.entry(current).kind == .null }
    func decode(_ type: Bool.Type) throws -> Bool { try bool(at: current, codingPath) }
    func decode(_ type: String.Type) throws -> String { try string(at: current, codingPath) }
    func decode(_ type: Double.Type) throws -> Double { try double(at: current, codingPath) }
    func decode(_ type: Float.Type) throws -> Float { try float(at: current, codingPath) }
    func decode(_ type: Int.Type) throws -> Int { try integer(Int.self, at: current, codingPath) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(Int8.self, at: current, codingPath) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(Int16.self, at: current, codingPath) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(Int32.self, at: current, codingPath) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(Int64.self, at: current, codingPath) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(UInt.self, at: current, codingPath) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(UInt8.self, at: current, codingPath) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(UInt16.self, at: current, codingPath) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(UInt32.self, at: current, codingPath) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(UInt64.self, at: current, codingPath) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try unwrap(T.self) }
}

// MARK: Containers

/// A keyed container: a thin generic shell over ``KeyedReader``, so that the
/// work runs in code that is not generic over the key type (no metadata
/// lookups, no copies of the container through value witnesses).
struct TapeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let reader: KeyedReader

    init(decoder: TapeDecoder, object: Int, base: PathBase, active: RuleScope?) {
        reader = KeyedReader(decoder: decoder, object: object, base: base, active: active)
    }

    var codingPath: [any CodingKey] { reader.codingPath }
    /// Keys in document order, the first of any repeated key only.
    var allKeys: [Key] { reader.keyNames.compactMap { Key(stringValue: $0) } }
    func contains(_ key: Key) -> Bool { reader.find(key.stringValue) != nil }
    func decodeNil(forKey key: Key) throws -> Bool { try reader.decodeNil(key) }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try reader.bool(key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try reader.string(key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try reader.double(key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try reader.float(key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try reader.int(key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try reader.integer(Int8.self, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try reader.integer(Int16.self, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try reader.integer(Int32.self, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try reader.integer(Int64.self, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try reader.integer(UInt.self, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try reader.integer(UInt8.self, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try reader.integer(UInt16.self, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try reader.integer(UInt32.self, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try reader.integer(UInt64.self, key) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try reader.decode(T.self, key) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        let (index, components) = try reader.nested(key, kind: .object, what: "KeyedDecodingContainer<\(NestedKey.self)>")
        return KeyedDecodingContainer(TapeKeyedContainer<NestedKey>(decoder: reader.decoder, object: index, base: .snapshot(components), active: nil))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        let (index, components) = try reader.nested(key, kind: .array, what: "UnkeyedDecodingContainer")
        return TapeUnkeyedContainer(decoder: reader.decoder, array: index, base: .snapshot(components))
    }

    func superDecoder() throws -> any Decoder { reader.superDecoder(at: reader.find("super"), .key(PathKey(stringValue: "super"))) }
    func superDecoder(forKey key: Key) throws -> any Decoder { reader.superDecoder(at: reader.find(key.stringValue), .key(key)) }
}

/// The work of a keyed container, on keys as `any CodingKey`. A class: the
/// standard library's container box copies the container for every call,
/// and a copy of one reference is one retain.
final class KeyedReader {
    let decoder: TapeDecoder
    let object: Int
    let base: PathBase
    let active: RuleScope?
    /// Members' keys as the key strategy converts them, with their value indexes
    /// (only with a strategy other than useDefaultKeys).
    let converted: [(key: String, value: Int)]?
    /// ``converted`` by key (the first of a key two members convert to), or the
    /// members the duplicate-key policy kept, so that no lookup is linear in
    /// the object's size.
    private let convertedIndex: [String: Int]?

    /// Whether lookups are recorded for the rules' declaration check (a type's first value):
    /// a plain Bool, so that the common case reads no `RuleScope` (and retains nothing).
    let tracking: Bool

    init(decoder: TapeDecoder, object: Int, base: PathBase, active: RuleScope?) {
        self.decoder = decoder
        self.object = object
        self.base = base
        self.active = active
        self.tracking = active?.isTracking ?? false
        let document = decoder.document
        switch document.keys {
        case .useDefaultKeys:
            converted = nil
            if document.entry(object).has(JSONTape.hasDuplicateKeys) {
                // Repeated keys kept by the policy: one index of the members kept, not a scan per lookup.
                var index: [String: Int] = [:]
                for member in Self.members(of: object, in: document) { index[member.key] = member.value }
                convertedIndex = index
            } else {
                convertedIndex = nil
            }
        default:
            let codingPath = decoder.codingPath(base)
            let members = Self.members(of: object, in: document).map { member in
                (key: Self.convert(member.key, strategy: document.keys, codingPath: codingPath), value: member.value)
            }
            converted = members
            var index: [String: Int] = [:]
            index.reserveCapacity(members.count)
            for member in members where index[member.key] == nil { index[member.key] = member.value }
            convertedIndex = index
        }
    }

    /// The members of `object` as (key, value index), in document order; of a
    /// repeated key only the one the duplicate-key policy keeps.
    static func members(of object: Int, in document: DecodingDocument) -> [(key: String, value: Int)] {
        var members: [(key: String, value: Int)] = []
        var position = object + 1
        let objectEntry = document.entry(object)
        while position + 1 < objectEntry.payload {
            members.append((document.string(document.entry(position)), position + 1))
            position = document.next(after: position + 1)
        }
        guard objectEntry.has(JSONTape.hasDuplicateKeys) else { return members }
        var firstIndex: [String: Int] = [:]
        var kept: [(key: String, value: Int)] = []
        for member in members {
            if let index = firstIndex[member.key] {
                if document.duplicateKeys == .keepLast { kept[index].value = member.value }
            } else {
                firstIndex[member.key] = kept.count
                kept.append(member)
            }
        }
        return kept
    }

    static func convert(_ key: String, strategy: VettedJSONDecoder.KeyDecodingStrategy, codingPath: [any CodingKey]) -> String {
        switch strategy {
        case .useDefaultKeys: return key
        case .convertFromSnakeCase: return SnakeCase.toCamelCase(key)
        case .custom(let convert): return convert(codingPath + [PathKey(stringValue: key)]).stringValue
        }
    }

    var codingPath: [any CodingKey] { decoder.codingPath(base) }

    /// Member keys in document order, each once.
    var keyNames: [String] {
        if tracking, let active { decoder.engine.readAllKeys(in: active) }
        var seen = Set<String>()
        return (converted ?? Self.members(of: object, in: decoder.document)).compactMap { seen.insert($0.key).inserted ? $0.key : nil }
    }

    /// The tape index of the value of `name`, or `nil`. Every lookup of a key
    /// comes here, so the rules learn which keys `init(from:)` asks for.
    func find(_ name: String) -> Int? {
        let document = decoder.document
        if tracking, let active { decoder.engine.asked(name, in: active) }
        if let convertedIndex { return convertedIndex[name] }
        let end = document.entry(object).payload
        // Start where the last lookup in this object ended, then wrap around.
        let first = object + 1
        let hint = decoder.hint
        let start = hint.object == object && hint.next > first && hint.next < end ? hint.next : first
        var position = start
        var wrapped = false
        var nameIsASCII: Bool?
        while true {
            if position + 1 >= end {
                if wrapped || start == first { return nil }
                wrapped = true
                position = first
            }
            if wrapped, position >= start { return nil }
            if document.keyEquals(document.entry(position), name, keyIsASCII: &nameIsASCII) {
                let value = position + 1
                decoder.hint = (object, document.next(after: value))
                return value
            }
            position = document.next(after: position + 1)
        }
    }

    /// The value index of `key`, whose string value is `name`.
    private func member(_ key: any CodingKey, _ name: String) throws -> Int {
        guard let index = find(name) else {
            throw DecodingError.keyNotFound(
                key, .init(codingPath: codingPath, debugDescription: "No value associated with key \(key) (\"\(key.stringValue)\")."))
        }
        return index
    }

    func decodeNil(_ key: any CodingKey) throws -> Bool { decoder.document.entry(try member(key, key.stringValue)).kind == .null }

    /// Decodes the member `key` with `body` (given its tape index and a lazily
    /// built path), then checks the field's rules.
    @inline(__always)
    private func decodeValue<T>(_ key: any CodingKey, _ body: (Int, @autoclosure () -> [any CodingKey]) throws -> T) throws -> T {
        let name = key.stringValue
        let index = try member(key, name)
        let value = try body(index, codingPath + [key])
        if let active { try decoder.validate(value, key: key, name: name, at: index, scope: active, base: base) }
        return value
    }

    func bool(_ key: any CodingKey) throws -> Bool { try decodeValue(key) { try decoder.bool(at: $0, $1()) } }
    func string(_ key: any CodingKey) throws -> String { try decodeValue(key) { try decoder.string(at: $0, $1()) } }
    func double(_ key: any CodingKey) throws -> Double { try decodeValue(key) { try decoder.double(at: $0, $1()) } }
    func float(_ key: any CodingKey) throws -> Float { try decodeValue(key) { try decoder.float(at: $0, $1()) } }
    func int(_ key: any CodingKey) throws -> Int { try decodeValue(key) { try decoder.integer(Int.self, at: $0, $1()) } }
    func integer<I: FixedWidthInteger>(_ type: I.Type, _ key: any CodingKey) throws -> I {
        try decodeValue(key) { try decoder.integer(I.self, at: $0, $1()) }
    }
    func decode<T: Decodable>(_ type: T.Type, _ key: any CodingKey) throws -> T {
        // Written out rather than through `decodeValue`: generic closures there cost an allocation per value.
        let name = key.stringValue
        let index = try member(key, name)
        let value = try decoder.child(T.self, at: index, base: base, .key(key))
        if let active { try decoder.validate(value, key: key, name: name, at: index, scope: active, base: base) }
        return value
    }

    /// The index and path of the member `key`, which must be a container of `kind`.
    func nested(_ key: any CodingKey, kind: JSONTape.Kind, what: String) throws -> (Int, [PathComponent]) {
        guard let index = find(key.stringValue) else {
            throw DecodingError.keyNotFound(
                key, .init(codingPath: codingPath, debugDescription: "Cannot get \(what) -- no value found for key \(key) (\"\(key.stringValue)\")"))
        }
        let components = decoder.components(base) + [.key(key)]
        try decoder.expect(kind, at: index, components.map(\.codingKey))
        return (index, components)
    }

    /// A decoder of its own for the value at `index` (a missing value decodes as null).
    func superDecoder(at index: Int?, _ component: PathComponent) -> any Decoder {
        TapeDecoder(document: decoder.document, current: index ?? TapeDecoder.nullIndex, path: decoder.components(base) + [component])
    }
}

extension TapeDecoder {
    /// The index whose entry reads as null (a missing value's decoder): never on a tape.
    static let nullIndex = -1
}

struct TapeUnkeyedContainer: UnkeyedDecodingContainer {
    let decoder: TapeDecoder
    let base: PathBase
    let end: Int
    let count: Int?
    private(set) var currentIndex = 0
    /// The tape index of the next element.
    private var position: Int

    init(decoder: TapeDecoder, array: Int, base: PathBase) {
        self.decoder = decoder
        self.base = base
        let entry = decoder.document.entry(array)
        self.end = entry.payload
        self.count = entry.first
        self.position = array + 1
    }

    var codingPath: [any CodingKey] { decoder.codingPath(base) }
    var isAtEnd: Bool { position >= end }

    private var indexPath: [any CodingKey] { codingPath + [PathKey(intValue: currentIndex)] }

    private func current(_ type: Any.Type) throws -> Int {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(type, .init(codingPath: indexPath, debugDescription: "Unkeyed container is at end."))
        }
        return position
    }

    private mutating func advance() {
        position = decoder.document.next(after: position)
        currentIndex += 1
    }

    mutating func decodeNil() throws -> Bool {
        guard decoder.document.entry(try current(Any?.self)).kind == .null else { return false }
        advance()
        return true
    }

    @inline(__always)
    private mutating func next<T>(_ type: T.Type, _ body: (TapeDecoder, Int, @autoclosure () -> [any CodingKey]) throws -> T) throws -> T {
        let value = try body(decoder, try current(type), indexPath)
        advance()
        return value
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try next(type) { try $0.bool(at: $1, $2()) } }
    mutating func decode(_ type: String.Type) throws -> String { try next(type) { try $0.string(at: $1, $2()) } }
    mutating func decode(_ type: Double.Type) throws -> Double { try next(type) { try $0.double(at: $1, $2()) } }
    mutating func decode(_ type: Float.Type) throws -> Float { try next(type) { try $0.float(at: $1, $2()) } }
    mutating func decode(_ type: Int.Type) throws -> Int { try next(type) { try $0.integer(Int.self, at: $1, $2()) } }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try next(type) { try $0.integer(Int8.self, at: $1, $2()) } }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try next(type) { try $0.integer(Int16.self, at: $1, $2()) } }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try next(type) { try $0.integer(Int32.self, at: $1, $2()) } }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try next(type) { try $0.integer(Int64.self, at: $1, $2()) } }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try next(type) { try $0.integer(UInt.self, at: $1, $2()) } }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next(type) { try $0.integer(UInt8.self, at: $1, $2()) } }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next(type) { try $0.integer(UInt16.self, at: $1, $2()) } }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next(type) { try $0.integer(UInt32.self, at: $1, $2()) } }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next(type) { try $0.integer(UInt64.self, at: $1, $2()) } }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let index = currentIndex
        let base = base
        return try next(type) { decoder, position, _ in
            try decoder.child(T.self, at: position, base: base, .index(index))
        }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let index = try current(KeyedDecodingContainer<NestedKey>.self)
        let components = decoder.components(base) + [.index(currentIndex)]
        try decoder.expect(.object, at: index, components.map(\.codingKey))
        advance()
        return KeyedDecodingContainer(TapeKeyedContainer<NestedKey>(decoder: decoder, object: index, base: .snapshot(components), active: nil))
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let index = try current((any UnkeyedDecodingContainer).self)
        let components = decoder.components(base) + [.index(currentIndex)]
        try decoder.expect(.array, at: index, components.map(\.codingKey))
        advance()
        return TapeUnkeyedContainer(decoder: decoder, array: index, base: .snapshot(components))
    }

    mutating func superDecoder() throws -> any Decoder {
        let index = try current((any Decoder).self)
        let decoder = TapeDecoder(document: decoder.document, current: index, path: decoder.components(base) + [.index(currentIndex)])
        advance()
        return decoder
    }
}
