import Foundation
@_spi(Scanning) import VettedCore
import VettedRules
import VettedDecoding

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
        // A type's own init(from:) cannot go on past an error (and may catch one): nothing in it is
        // collected. (Set and restored here, not in a closure: a model's recursion keeps its frames.)
        let collecting = engine.collectsStructure
        engine.collectsStructure = false
        defer { engine.collectsStructure = collecting }
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
            return try ownDecoding(T.self)
        case .intEnum(let type)?:
            do { return try enumCase(type, as: T.self) } catch {}
            return try ownDecoding(T.self)
        case .union?: return try unionDecoding(T.self, rules: info.rules)
        case .optional?, nil: break
        }
        if T.self == Date.self { return try SameType.cast(try unwrapDate(), to: T.self) }
        if T.self == Data.self { return try SameType.cast(try unwrapData(), to: T.self) }
        if T.self == URL.self {
            let text = try string(at: current, codingPath)
            guard let url = URL(string: text) else {
                throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: DecodingTexts.invalidURL))
            }
            return try SameType.cast(url, to: T.self)
        }
        if T.self == Decimal.self { return try SameType.cast(try decimal(at: current, codingPath), to: T.self) }
        if T.self == JSONValue.self { return try SameType.cast(document.jsonValue(at: current), to: T.self) }
        return try ownDecoding(T.self)
    }

    /// A `@Vetted(tag:)` union's generated `init(from:)`, collecting as its caller does: it reads
    /// the tag and hands the payload on without catching anything, so a payload's errors are
    /// collected as a struct's are.
    @inline(never)
    private func unionDecoding<T: Decodable>(_ type: T.Type, rules: TypeRules?) throws -> T {
        guard let rules else { return try T(from: self) }
        return try engine.run(rules, path: { codingPath }) { scope in
            frame.active = scope
            return try T(from: self)
        }
    }

    /// A type's own `init(from:)`, with nothing in it collected (it cannot go on past an error).
    @inline(never)
    private func ownDecoding<T: Decodable>(_ type: T.Type) throws -> T {
        let collecting = engine.collectsStructure
        engine.collectsStructure = false
        defer { engine.collectsStructure = collecting }
        return try T(from: self)
    }

    /// The case a string names; throws (for the caller to fall back to `init(from:)`) for anything else.
    private func enumCase<E: _VettedStringEnum, T>(_ type: E.Type, as: T.Type) throws -> T {
        let entry = document.entry(current)
        guard entry.kind == .string else { throw _VettedRawValueMiss() }
        return try SameType.cast(try E(__vettedRawValue: document.string(entry)), to: T.self)
    }

    /// The case an integer names; throws (for the caller to fall back to `init(from:)`) for anything else.
    private func enumCase<E: _VettedIntEnum, T>(_ type: E.Type, as: T.Type) throws -> T {
        try SameType.cast(try E(__vettedRawValue: try integer(Int.self, at: current, [])), to: T.self)
    }

    /// An array type's elements, read off the tape.
    private func elements<Elements: TapeArrayDecodable, T>(of type: Elements.Type, as: T.Type) throws -> T {
        try SameType.cast(try Elements.decodeFromTape(self), to: T.self)
    }

    /// The value at the current path nests deeper than this call's stack budget allows.
    func tooDeep() -> DecodingError {
        DecodingError.vetted(.depthLimitExceeded, at: codingPath, DecodingTexts.nestsTooDeep(document.stack.exceededMessage))
    }

    /// Checks the field rules for `key` (whose string value is `name`, value at
    /// tape index `index`) of the value `scope` belongs to.
    @inline(__always)
    func validate<Value>(_ decoded: Value, key: any CodingKey, name: String, at index: Int, scope: RuleScope, base: PathBase) throws {
        guard let entry = scope.rules.entryIndex(name) else { return }
        try validate(decoded, entry: entry, key: key, name: name, at: index, scope: scope, base: base)
    }

    /// ``validate(_:key:name:at:scope:base:)`` once the rules' entry for the field is known
    /// (generated decoding knows it from the start): the engine's one field-rule loop,
    /// with where the field is on the tape.
    @inline(__always)
    func validate<Value>(_ decoded: Value, entry: Int, key: any CodingKey, name: String, at index: Int, scope: RuleScope, base: PathBase) throws {
        try engine.validate(
            decoded, entry: entry, name: { name }, in: scope, path: { codingPath(base) + [key] },
            location: { document.location(ofValueAt: index) })
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
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath(), debugDescription: DecodingTexts.notRepresentable(document.literal(entry), in: I.self)))
        }
        return integer
    }

    func double(at index: Int, _ codingPath: @autoclosure () -> [any CodingKey]) throws -> Double {
        let entry = document.entry(index)
        switch entry.kind {
        case .number:
            guard let double = document.double(entry) else {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: codingPath(), debugDescription: DecodingTexts.notRepresentable(document.literal(entry), in: Double.self)))
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
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath(), debugDescription: DecodingTexts.notRepresentableInFloat(double)))
        }
        return Float(double)
    }

    func decimal(at index: Int, _ codingPath: @autoclosure () -> [any CodingKey]) throws -> Decimal {
        let entry = document.entry(index)
        guard entry.kind == .number else { throw mismatch(Decimal.self, entry, codingPath()) }
        let number = JSONNumber(validatedLiteral: document.literal(entry))
        guard let decimal = try? number.decimalValue else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: codingPath(), debugDescription: DecodingTexts.notRepresentable(number.literal, in: Decimal.self)))
        }
        return decimal
    }

    /// A date by the date strategy, at this decoder's value.
    func unwrapDate() throws -> Date {
        try date(at: current, codingPath) { decode in try decode(self) }
    }

    /// A date by the date strategy at `index`: the number or string the strategy reads, read
    /// in place, or under `custom` what `custom` gives for the strategy's closure. NaN and the
    /// infinities are refused (`nonFiniteDate`): every comparison with them is false.
    @inline(__always)
    func date(
        at index: Int, _ codingPath: @autoclosure () -> [any CodingKey],
        custom: (_ decode: (any Decoder) throws -> Date) throws -> Date
    ) throws -> Date {
        let strategy = document.date
        let date: Date
        switch strategy.reading {
        case .number(let dates):
            date = dates.date(try double(at: index, codingPath()))
        case .string(let dates):
            let entry = document.entry(index)
            guard entry.kind == .string else { throw mismatch(String.self, entry, codingPath()) }
            guard let parsed = dates.date(from: entry, in: document) else {
                throw DecodingError.corrupted(dates.unparsedWords, at: codingPath())
            }
            date = parsed
        case .decoder(let decode):
            date = try custom(decode)
        }
        guard date.isFiniteDate else { throw DecodingError.vetted(.nonFiniteDate, at: codingPath(), DecodingTexts.nonFiniteDate) }
        return date
    }

    func unwrapData() throws -> Data {
        switch document.data {
        case .deferredToData:
            return try Data(from: self)
        case .base64:
            let text = try string(at: current, codingPath)
            guard let data = Data(base64Encoded: text) else {
                throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: DecodingTexts.notBase64))
            }
            return data
        case .custom(let decode):
            return try decode(self)
        }
    }

    func mismatch(
        _ type: Any.Type, _ entry: JSONTape.Entry, _ codingPath: [any CodingKey], expected: String? = nil, nullIsMismatch: Bool = false
    ) -> DecodingError {
        Self.mismatch(type, found: entry.kind, codingPath, expected: expected, nullIsMismatch: nullIsMismatch)
    }

    /// A value of kind `found` where `type` was expected, as JSONDecoder says it (both readers' one wording).
    static func mismatch(
        _ type: Any.Type, found: JSONTape.Kind, _ codingPath: [any CodingKey], expected: String? = nil, nullIsMismatch: Bool = false
    ) -> DecodingError {
        if found == .null, !nullIsMismatch { return .null(type, at: codingPath, in: .json) }
        guard let expected else { return .mismatch(type, found: describe(found), at: codingPath) }
        return .typeMismatch(type, .init(codingPath: codingPath, debugDescription: expected))
    }

    /// JSONDecoder's words for a container of `kind` that is not one.
    static func containerExpected(_ kind: JSONTape.Kind, found: JSONTape.Kind) -> String {
        DecodingTexts.containerExpected(object: kind == .object, found: describe(found))
    }

    /// Throws JSONDecoder's type mismatch unless the value at `index` is a container of `kind` (`.object` or `.array`).
    func expect(_ kind: JSONTape.Kind, at index: Int, _ codingPath: @autoclosure () -> [any CodingKey]) throws {
        let entry = document.entry(index)
        guard entry.kind != kind else { return }
        let type: Any.Type = kind == .object ? [String: Any].self : [Any].self
        throw mismatch(type, entry, codingPath(), expected: Self.containerExpected(kind, found: entry.kind))
    }

    static func describe(_ entry: JSONTape.Entry) -> String { describe(entry.kind) }

    static func describe(_ kind: JSONTape.Kind) -> String {
        switch kind {
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
