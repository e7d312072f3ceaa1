#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
@_spi(Scanning) import VettedCore
import VettedRules
import VettedDecoding

/// One `decode` call of ``VettedPropertyListDecoder``: its options and rules.
final class PlistDecodingContext {
    let userInfo: [CodingUserInfoKey: Any]
    /// The input's format: Foundation reads an XML real's text straight into a
    /// `Float` (rounding), but a binary real only when it is exactly one.
    let format: PlistParser.Format
    /// The stack this call may use: models recurse once per level, in code of theirs.
    let stack: StackGuard
    let engine: RuleEngine
    /// Whether `@Vetted` types decode by their generated code (else by `init(from:)`).
    let generatedDecoding: Bool

    init(options: VettedPropertyListDecoder.Options, format: PlistParser.Format) {
        userInfo = options.userInfo
        generatedDecoding = options.generatedDecoding
        self.format = format
        stack = options.shared.makeStackGuard()
        engine = options.shared.makeEngine()
        // Under `.collect`, generated bodies and arrays record each structural error and go on.
        engine.collectsStructure = true
    }
}

/// What Foundation's property-list encoder writes for `nil`, and reads back as `nil`.
let plistNullString = "$null"

/// Decodes from a ``PlistValue`` tree: one decoder per value, as Foundation's
/// property-list decoder makes one, with the rules of the value's type.
final class PlistValueDecoder: Decoder, SingleValueDecodingContainer, RuleEngineDecoder {
    /// One step of a coding path: kept as it is, made into a `CodingKey` only when a path is asked for.
    enum Step {
        case key(any CodingKey)
        case index(Int)
        /// The same value as the parent's (a single-value container's `decode`).
        case same
    }

    let context: PlistDecodingContext
    let value: PlistValue
    /// The decoder of the enclosing value and the step from it to this one: the
    /// coding path is built from them only when asked for (errors, relations).
    let parent: PlistValueDecoder?
    let step: Step
    /// How many decoders deep this one is (at least the coding path's length):
    /// what the stack budget is checked against.
    let depth: Int
    /// The rules of the type whose `init(from:)` runs on this value, for its keyed container.
    var active: RuleScope?

    init(context: PlistDecodingContext, value: PlistValue, parent: PlistValueDecoder?, step: Step) {
        self.context = context
        self.value = value
        self.parent = parent
        self.step = step
        depth = parent.map { $0.depth + 1 } ?? 0
    }

    /// The root decoder of a call.
    convenience init(context: PlistDecodingContext, root: PlistValue) {
        self.init(context: context, value: root, parent: nil, step: .same)
    }

    var codingPath: [any CodingKey] {
        var steps: [any CodingKey] = []
        var decoder: PlistValueDecoder? = self
        while let current = decoder {
            switch current.step {
            case .key(let key): steps.append(key)
            case .index(let index): steps.append(PathKey(intValue: index))
            case .same: break
            }
            decoder = current.parent
        }
        return steps.reversed()
    }

    var userInfo: [CodingUserInfoKey: Any] { context.userInfo }
    var ruleEngine: RuleEngine { context.engine }

    // MARK: Decoder

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .dictionary(let dictionary) = value else {
            throw mismatch([String: Any].self, expected: "Dictionary<String, Any>", value, codingPath)
        }
        if let active, active.isTracking { context.engine.sawKeys(Key.self, in: active) }
        let reader = PlistKeyedReader(decoder: self, dictionary: dictionary, active: active, spells: active != nil && TypeRules.spells(Key.self))
        return KeyedDecodingContainer(PlistKeyedContainer<Key>(reader: reader))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else {
            throw mismatch([Any].self, expected: "Array<Any>", value, codingPath)
        }
        return PlistUnkeyedContainer(decoder: self, elements: elements)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    // MARK: Values

    /// Decodes `T` from this decoder's value: dates and data as the format has
    /// them, and the rules of `Validatable` types.
    func unwrap<T: Decodable>(_ type: T.Type) throws -> T {
        guard context.stack.hasRoom(atDepth: depth) else { throw tooDeep() }
        if T.self == Date.self {
            guard case .date(let date) = value else { throw mismatch(Date.self, value, codingPath) }
            return try SameType.cast(date, to: T.self)
        }
        if T.self == Data.self {
            guard case .data(let data) = value else { throw mismatch(Data.self, value, codingPath) }
            return try SameType.cast(data, to: T.self)
        }
        if case .array(let elements) = value, let array = T.self as? any PlistArrayDecodable.Type {
            return try SameType.cast(try array.decode(elements, from: self), to: T.self)
        }
        let engine = context.engine
        // A type's own init(from:) cannot go on past an error (and may catch one): nothing in it is
        // collected, except in a union's payload (its generated init(from:) catches nothing).
        // (Set and restored here, not in a closure: a model's recursion keeps its frames.)
        let collecting = engine.collectsStructure
        // Asked only while collecting: a cast per value of a type read by its init(from:).
        let inside = collecting && T.self is any _VettedUnion.Type
        guard let rules = engine.rules(for: T.self) else {
            engine.collectsStructure = inside
            defer { engine.collectsStructure = collecting }
            return try T(from: self)
        }
        if context.generatedDecoding, let generated = T.self as? any _VettedDecodable.Type {
            return try decodeGenerated(generated, as: T.self, rules: rules)
        }
        engine.collectsStructure = inside
        defer {
            active = nil
            engine.collectsStructure = collecting
        }
        return try engine.run(rules, path: { codingPath }) { scope in
            active = scope
            return try T(from: self)
        }
    }

    /// ``unwrap(_:)`` for a type the call knows, where it is compiled, to be `@Vetted`:
    /// its generated body, with no cast (by `init(from:)` when generated decoding is off).
    func unwrapGenerated<G: _VettedDecodable>(_ type: G.Type) throws -> G {
        guard context.generatedDecoding, let rules = context.engine.rules(for: G.self) else { return try unwrap(G.self) }
        guard context.stack.hasRoom(atDepth: depth) else { throw tooDeep() }
        return try decodeGenerated(G.self, as: G.self, rules: rules)
    }

    /// Decodes `T` from `value`, one `step` below this value. Dates and data
    /// that are what they should be need no decoder of their own.
    func child<T: Decodable>(_ type: T.Type, _ value: PlistValue, _ step: Step) throws -> T {
        switch value {
        case .date(let date) where T.self == Date.self: return try SameType.cast(date, to: T.self)
        case .data(let data) where T.self == Data.self: return try SameType.cast(data, to: T.self)
        case .array(let elements):
            if let array = T.self as? any PlistArrayDecodable.Type {
                let decoder = PlistValueDecoder(context: context, value: value, parent: self, step: step)
                guard context.stack.hasRoom(atDepth: decoder.depth) else { throw decoder.tooDeep() }
                return try SameType.cast(try array.decode(elements, from: decoder), to: T.self)
            }
        default: break
        }
        return try PlistValueDecoder(context: context, value: value, parent: self, step: step).unwrap(T.self)
    }

    func tooDeep() -> DecodingError {
        DecodingError.vetted(.depthLimitExceeded, at: codingPath, DecodingTexts.nestsTooDeep(context.stack.exceededMessage))
    }

    // MARK: Scalars (shared by the containers)

    static func isNull(_ value: PlistValue) -> Bool {
        if case .string(let string) = value { return string == plistNullString }
        return false
    }

    static func bool(_ value: PlistValue, _ codingPath: @autoclosure () -> [any CodingKey]) throws -> Bool {
        guard case .bool(let bool) = value else { throw mismatch(Bool.self, value, codingPath()) }
        return bool
    }

    /// The string a `String` decodes from `value`, or `nil` where it throws.
    @inline(__always)
    static func stringValue(_ value: PlistValue) -> String? {
        guard case .string(let string) = value, string != plistNullString else { return nil }
        return string
    }

    static func string(_ value: PlistValue, _ codingPath: @autoclosure () -> [any CodingKey]) throws -> String {
        guard case .string(let string) = value, string != plistNullString else { throw mismatch(String.self, value, codingPath()) }
        return string
    }

    static func integer<I: FixedWidthInteger>(_ type: I.Type, _ value: PlistValue, _ codingPath: @autoclosure () -> [any CodingKey]) throws -> I {
        let exact: I?
        switch value {
        case .integer(.signed(let number)): exact = I(exactly: number)
        case .integer(.unsigned(let number)): exact = I(exactly: number)
        case .real(let number): exact = number.isFinite ? I(exactly: number) : nil
        default: throw mismatch(I.self, value, codingPath())
        }
        guard let exact else {
            throw DecodingError.corrupted(DecodingTexts.doesNotFit(describe(value), in: I.self), at: codingPath())
        }
        return exact
    }

    static func double(_ value: PlistValue, _ codingPath: @autoclosure () -> [any CodingKey]) throws -> Double {
        switch value {
        case .real(let number): return number
        case .integer(.signed(let number)): return Double(number)
        case .integer(.unsigned(let number)): return Double(number)
        default: throw mismatch(Double.self, value, codingPath())
        }
    }

    static func float(_ value: PlistValue, _ codingPath: @autoclosure () -> [any CodingKey], format: PlistParser.Format) throws -> Float {
        let double = try double(value, codingPath())
        if format == .xml || !double.isFinite { return Float(double) }
        guard let float = Float(exactly: double) else {
            throw DecodingError.corrupted(DecodingTexts.doesNotFit("\(double)", in: Float.self), at: codingPath())
        }
        return float
    }

    /// A short, escaped description of a scalar, for messages.
    static func describe(_ value: PlistValue) -> String {
        switch value {
        case .integer(let number): number.description
        case .real(let number): "\(number)"
        case .string(let string): Excerpt.escape(string, maximumBytes: 32)
        default: kind(of: value)
        }
    }

    static func kind(of value: PlistValue) -> String {
        switch value {
        case .dictionary: "a dictionary"
        case .array: "an array"
        case .string(let string): string == plistNullString ? "null" : "a string"
        case .data: "data"
        case .date: "a date"
        case .integer, .real: "number"
        case .bool: "bool"
        case .uid: "a keyed-archive UID"
        }
    }

    /// Foundation's type mismatch; `$null` where a value is required is `valueNotFound`.
    static func mismatch(_ type: Any.Type, expected: String? = nil, _ value: PlistValue, _ codingPath: [any CodingKey]) -> DecodingError {
        if isNull(value) { return .null(type, at: codingPath, in: .propertyList) }
        return .mismatch(type, expected: expected, found: kind(of: value), at: codingPath)
    }

    func mismatch(_ type: Any.Type, expected: String? = nil, _ value: PlistValue, _ codingPath: [any CodingKey]) -> DecodingError {
        Self.mismatch(type, expected: expected, value, codingPath)
    }

    // MARK: SingleValueDecodingContainer

    func decodeNil() -> Bool { Self.isNull(value) }
    func decode(_ type: Bool.Type) throws -> Bool { try Self.bool(value, codingPath) }
    func decode(_ type: String.Type) throws -> String { try Self.string(value, codingPath) }
    func decode(_ type: Double.Type) throws -> Double { try Self.double(value, codingPath) }
    func decode(_ type: Float.Type) throws -> Float { try Self.float(value, codingPath, format: context.format) }
    func decode(_ type: Int.Type) throws -> Int { try Self.integer(Int.self, value, codingPath) }
    func decode(_ type: Int8.Type) throws -> Int8 { try Self.integer(Int8.self, value, codingPath) }
    func decode(_ type: Int16.Type) throws -> Int16 { try Self.integer(Int16.self, value, codingPath) }
    func decode(_ type: Int32.Type) throws -> Int32 { try Self.integer(Int32.self, value, codingPath) }
    func decode(_ type: Int64.Type) throws -> Int64 { try Self.integer(Int64.self, value, codingPath) }
    func decode(_ type: UInt.Type) throws -> UInt { try Self.integer(UInt.self, value, codingPath) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try Self.integer(UInt8.self, value, codingPath) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try Self.integer(UInt16.self, value, codingPath) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try Self.integer(UInt32.self, value, codingPath) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try Self.integer(UInt64.self, value, codingPath) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        // A value decoded through its own single-value container: the same value, its own type's rules.
        try PlistValueDecoder(context: context, value: value, parent: self, step: .same).unwrap(T.self)
    }
}

/// Arrays read element by element with no unkeyed container: the same values
/// and errors as `Array.init(from:)`, which the decoder would otherwise run.
protocol PlistArrayDecodable {
    static func decode(_ elements: [PlistValue], from decoder: PlistValueDecoder) throws -> Self
    /// The same, with each element read only when its turn comes (a streamed top-level array).
    static func decodeStreamed(count: Int, from decoder: PlistValueDecoder, element: (Int) throws -> PlistValue) throws -> Self
}

extension Array: PlistArrayDecodable where Element: Decodable {
    static func decode(_ elements: [PlistValue], from decoder: PlistValueDecoder) throws -> [Element] {
        try decodeStreamed(count: elements.count, from: decoder) { elements[$0] }
    }

    static func decodeStreamed(count: Int, from decoder: PlistValueDecoder, element: (Int) throws -> PlistValue) throws -> [Element] {
        let engine = decoder.context.engine
        if decoder.context.generatedDecoding, let enumType = Element.self as? any _VettedRawValueEnum.Type {
            do {
                if let type = enumType as? any _VettedStringEnum.Type { return try stringEnums(type, count: count, from: decoder, element: element) }
                if let type = enumType as? any _VettedIntEnum.Type { return try intEnums(type, count: count, from: decoder, element: element) }
            } catch where engine.collectsStructure && error is DecodingError {
                // Read again element by element, each error recorded (a cheap array: its cases once more).
                return try collecting(count: count, from: decoder, element: element)
            }
        }
        if engine.collectsStructure { return try collecting(count: count, from: decoder, element: element) }
        var result: [Element] = []
        result.reserveCapacity(count)
        for index in 0..<count {
            result.append(try decoder.child(Element.self, try element(index), .index(index)))
        }
        return result
    }
}

extension Array where Element: Decodable {
    /// ``decodeStreamed(count:from:element:)`` when the call collects structural errors: an
    /// element that fails is recorded (``RuleEngine/recover(_:)``) and the next one read; once
    /// the array ends, ``RecordedErrors`` if any failed. (A defect of the input itself, met
    /// reading an element, is thrown at once.)
    @inline(never)
    static func collecting(count: Int, from decoder: PlistValueDecoder, element: (Int) throws -> PlistValue) throws -> [Element] {
        let engine = decoder.context.engine
        var result: [Element] = []
        result.reserveCapacity(count)
        var failed = false
        for index in 0..<count {
            let value = try element(index)
            do {
                result.append(try decoder.child(Element.self, value, .index(index)))
            } catch {
                try engine.recover(error)
                failed = true
            }
        }
        if failed { throw RecordedErrors() }
        return result
    }

    /// Elements of a `@Vetted` enum: each one that is a raw value (a string, an
    /// integer) naming a case is that case, with no decoder; anything else goes
    /// through `init(from:)` (the standard library's, which the macro checked),
    /// which gives its own value or error. The array is built in the enum's
    /// module (`__vettedArray`).
    static func stringEnums<E: _VettedStringEnum>(
        _ type: E.Type, count: Int, from decoder: PlistValueDecoder, element: (Int) throws -> PlistValue
    ) throws -> [Element] {
        try decodeEnums(type, count: count, from: decoder, element: element) { value in
            guard let rawValue = PlistValueDecoder.stringValue(value) else { throw _VettedRawValueMiss() }
            return try E(__vettedRawValue: rawValue)
        }
    }

    static func intEnums<E: _VettedIntEnum>(
        _ type: E.Type, count: Int, from decoder: PlistValueDecoder, element: (Int) throws -> PlistValue
    ) throws -> [Element] {
        try decodeEnums(type, count: count, from: decoder, element: element) { value in
            try E(__vettedRawValue: try PlistValueDecoder.integer(Int.self, value, []))
        }
    }

    static func decodeEnums<E: _VettedRawValueEnum>(
        _ type: E.Type, count: Int, from decoder: PlistValueDecoder, element: (Int) throws -> PlistValue, fast: (PlistValue) throws -> E
    ) throws -> [Element] {
        let room = decoder.context.stack.hasRoom(atDepth: decoder.depth + 1)
        let cases = try E._elements(
            count: count, fastAllowed: room, locate: element, fast: fast,
            standard: { value, index in try decoder.child(E.self, value, .index(index)) })
        return try SameType.cast(cases, toArrayOf: Element.self)
    }
}

/// The work of a keyed container, on keys as `any CodingKey`. A class: the
/// standard library's container box copies the container for every call.
final class PlistKeyedReader {
    let decoder: PlistValueDecoder
    let active: RuleScope?
    /// The dictionary's members by key.
    private var lookup: PlistEntryLookup

    /// `dictionary` has no repeated key: the reader applied the duplicate-key policy.
    /// Whether a key may be another spelling of a field (`@Alias`), whose rules are the field's.
    let spells: Bool

    init(decoder: PlistValueDecoder, dictionary: PlistDictionary, active: RuleScope?, spells: Bool) {
        self.spells = spells
        self.decoder = decoder
        lookup = PlistEntryLookup(dictionary)
        self.active = active
    }

    var codingPath: [any CodingKey] { decoder.codingPath }

    /// Keys in order.
    var keyNames: [String] {
        if let active, active.isTracking { decoder.context.engine.readAllKeys(in: active) }
        return lookup.keys
    }

    /// The value of `name`, or `nil`. Every lookup of a key comes here, so the
    /// rules learn which keys `init(from:)` asks for.
    func find(_ name: String) -> PlistValue? {
        if let active, active.isTracking { decoder.context.engine.asked(name, in: active) }
        return lookup.find(name)
    }

    private func member(_ key: any CodingKey) throws -> PlistValue {
        guard let value = find(key.stringValue) else {
            throw DecodingError.absentKey(key, at: codingPath)
        }
        return value
    }

    func decodeNil(_ key: any CodingKey) throws -> Bool { PlistValueDecoder.isNull(try member(key)) }

    /// Decodes the member `key` with `body`, then checks the field's rules.
    @inline(__always)
    func decodeValue<T>(_ key: any CodingKey, _ body: (PlistValue, @autoclosure () -> [any CodingKey]) throws -> T) throws -> T {
        let value = try body(try member(key), self.codingPath + [key])
        if let active { try validate(value, key, active) }
        return value
    }

    func decode<T: Decodable>(_ type: T.Type, _ key: any CodingKey) throws -> T {
        let value = try decoder.child(T.self, try member(key), .key(key))
        if let active { try validate(value, key, active) }
        return value
    }

    private func validate<Value>(_ value: Value, _ key: any CodingKey, _ active: RuleScope) throws {
        guard let entry = active.rules.entryIndex(TypeRules.fieldName(key, spells: spells)) else { return }
        try decoder.validate(value, entry: entry, key: key, in: active)
    }

    func nested(_ key: any CodingKey, what: String) throws -> PlistValue {
        guard let value = find(key.stringValue) else {
            throw DecodingError.absentContainer(what, forKey: key, at: codingPath)
        }
        return value
    }

    func superDecoder(_ key: any CodingKey) -> any Decoder {
        // As Foundation: a missing member decodes as null.
        PlistValueDecoder(context: decoder.context, value: find(key.stringValue) ?? .string(plistNullString), parent: decoder, step: .key(key))
    }
}

/// A keyed container: a thin generic shell over ``PlistKeyedReader``.
struct PlistKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let reader: PlistKeyedReader

    var codingPath: [any CodingKey] { reader.codingPath }
    var allKeys: [Key] { reader.keyNames.compactMap { Key(stringValue: $0) } }
    func contains(_ key: Key) -> Bool { reader.find(key.stringValue) != nil }
    func decodeNil(forKey key: Key) throws -> Bool { try reader.decodeNil(key) }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try reader.decodeValue(key) { try PlistValueDecoder.bool($0, $1()) } }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try reader.decodeValue(key) { try PlistValueDecoder.string($0, $1()) } }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try reader.decodeValue(key) { try PlistValueDecoder.double($0, $1()) } }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
        let format = reader.decoder.context.format
        return try reader.decodeValue(key) { try PlistValueDecoder.float($0, $1(), format: format) }
    }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try integer(key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try integer(key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try integer(key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try integer(key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try integer(key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try integer(key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try integer(key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try integer(key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try integer(key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try integer(key) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try reader.decode(T.self, key) }

    private func integer<I: FixedWidthInteger>(_ key: Key) throws -> I {
        try reader.decodeValue(key) { try PlistValueDecoder.integer(I.self, $0, $1()) }
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        let value = try reader.nested(key, what: "KeyedDecodingContainer<\(NestedKey.self)>")
        return try PlistValueDecoder(context: reader.decoder.context, value: value, parent: reader.decoder, step: .key(key))
            .container(keyedBy: NestedKey.self)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        let value = try reader.nested(key, what: "UnkeyedDecodingContainer")
        return try PlistValueDecoder(context: reader.decoder.context, value: value, parent: reader.decoder, step: .key(key)).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { reader.superDecoder(PathKey(stringValue: "super")) }
    func superDecoder(forKey key: Key) throws -> any Decoder { reader.superDecoder(key) }
}

struct PlistUnkeyedContainer: UnkeyedDecodingContainer {
    let decoder: PlistValueDecoder
    let elements: [PlistValue]
    private(set) var currentIndex = 0

    init(decoder: PlistValueDecoder, elements: [PlistValue]) {
        self.decoder = decoder
        self.elements = elements
    }

    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    private var indexPath: [any CodingKey] { codingPath + [PathKey(intValue: currentIndex)] }

    private func current(_ type: Any.Type) throws -> PlistValue {
        guard elements.indices.contains(currentIndex) else {
            throw DecodingError.unkeyedAtEnd(type, at: indexPath)
        }
        return elements[currentIndex]
    }

    private mutating func next<T>(_ type: T.Type, _ body: (PlistValue, @autoclosure () -> [any CodingKey]) throws -> T) throws -> T {
        let value = try body(try current(type), indexPath)
        currentIndex += 1
        return value
    }

    mutating func decodeNil() throws -> Bool {
        guard PlistValueDecoder.isNull(try current(Any?.self)) else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try next(type) { try PlistValueDecoder.bool($0, $1()) } }
    mutating func decode(_ type: String.Type) throws -> String { try next(type) { try PlistValueDecoder.string($0, $1()) } }
    mutating func decode(_ type: Double.Type) throws -> Double { try next(type) { try PlistValueDecoder.double($0, $1()) } }
    mutating func decode(_ type: Float.Type) throws -> Float {
        let format = decoder.context.format
        return try next(type) { try PlistValueDecoder.float($0, $1(), format: format) }
    }
    mutating func decode(_ type: Int.Type) throws -> Int { try integer() }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try integer() }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try integer() }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try integer() }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try integer() }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try integer() }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try integer() }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try integer() }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try integer() }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try integer() }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let value = try decoder.child(T.self, try current(type), .index(currentIndex))
        currentIndex += 1
        return value
    }

    private mutating func integer<I: FixedWidthInteger>() throws -> I {
        try next(I.self) { try PlistValueDecoder.integer(I.self, $0, $1()) }
    }

    private func child(_ type: Any.Type) throws -> PlistValueDecoder {
        PlistValueDecoder(context: decoder.context, value: try current(type), parent: decoder, step: .index(currentIndex))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let container = try child(KeyedDecodingContainer<NestedKey>.self).container(keyedBy: NestedKey.self)
        currentIndex += 1
        return container
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let container = try child((any UnkeyedDecodingContainer).self).unkeyedContainer()
        currentIndex += 1
        return container
    }

    mutating func superDecoder() throws -> any Decoder {
        let decoder = try child((any Decoder).self)
        currentIndex += 1
        return decoder
    }
}
