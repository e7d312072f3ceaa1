import Foundation
import VettedCore
import VettedRules

/// Options and collected rule violations for one `decode` call.
final class DecodingContext {
    let date: VettedJSONDecoder.DateDecodingStrategy
    let data: VettedJSONDecoder.DataDecodingStrategy
    let keys: VettedJSONDecoder.KeyDecodingStrategy
    let floats: VettedJSONDecoder.NonConformingFloatDecodingStrategy
    let userInfo: [CodingUserInfoKey: Any]
    let mode: VettedJSONDecoder.ValidationMode
    var violations: [VettedError] = []
    var omitted = 0

    init(
        date: VettedJSONDecoder.DateDecodingStrategy, data: VettedJSONDecoder.DataDecodingStrategy,
        keys: VettedJSONDecoder.KeyDecodingStrategy, floats: VettedJSONDecoder.NonConformingFloatDecodingStrategy,
        userInfo: [CodingUserInfoKey: any Sendable], mode: VettedJSONDecoder.ValidationMode
    ) {
        self.date = date
        self.data = data
        self.keys = keys
        self.floats = floats
        self.userInfo = userInfo
        self.mode = mode
    }

    /// Records a violation, or throws it at once in fail-fast mode.
    func record(_ violation: RuleViolation, at codingPath: [any CodingKey]) throws {
        let error = violation.error(at: DocumentPath(codingPath: codingPath))
        switch mode {
        case .failFast:
            throw ValidationErrors(errors: [error], omitted: 0)
        case .collect(let cap):
            if violations.count < cap { violations.append(error) } else { omitted += 1 }
        }
    }
}

/// The rules of the type being decoded at one level, and the field values its relations need.
final class ValidationScope {
    let fieldKeys: [String]
    let fieldChecks: [[FieldCheck]]
    let relations: [RelationCheck]
    let relationKeys: [String]
    var values: [String: Any] = [:]

    init(_ validation: Validation<some Any>) {
        fieldKeys = validation.fieldKeys
        fieldChecks = validation.fieldChecks
        relations = validation.relations
        relationKeys = validation.relationKeyList
    }

    /// The checks of the field `key` (a linear search: types have a handful of fields, and short keys compare fast).
    func checks(for key: String) -> [FieldCheck]? {
        guard let index = fieldKeys.firstIndex(of: key) else { return nil }
        return fieldChecks[index]
    }

    func runRelations(at codingPath: [any CodingKey], context: DecodingContext) throws {
        guard !relations.isEmpty else { return }
        for relation in relations where relation.keys.allSatisfy({ values[$0] != nil }) {
            if let violation = relation.check(values) {
                try context.record(violation, at: codingPath + [PathKey(stringValue: relation.reportedKey)])
            }
        }
    }
}

extension Validatable {
    static var validationScope: ValidationScope { ValidationScope(validation) }
}

struct JSONValueDecoder: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    let context: DecodingContext
    var scope: ValidationScope?

    init(value: JSONValue, codingPath: [any CodingKey], context: DecodingContext, scope: ValidationScope? = nil) {
        self.value = value
        self.codingPath = codingPath
        self.context = context
        self.scope = scope
    }

    var userInfo: [CodingUserInfoKey: Any] { context.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let object) = value else {
            throw mismatch([String: Any].self, value, codingPath, expected: "Expected to decode Dictionary<String, Any> but found \(value.typeDescription) instead.")
        }
        return KeyedDecodingContainer(KeyedContainer<Key>(object: object, decoder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else {
            throw mismatch([Any].self, value, codingPath, expected: "Expected to decode Array<Any> but found \(value.typeDescription) instead.")
        }
        return UnkeyedContainer(elements: elements, decoder: self)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { SingleValueContainer(decoder: self) }

    // MARK: Values

    /// Decodes `T` from `value` at `codingPath`, with special types and validation.
    func unwrap<T: Decodable>(_ type: T.Type, codingPath: [any CodingKey]) throws -> T {
        if T.self == JSONValue.self, let value = value as? T { return value }
        if T.self == Date.self, let date = try unwrapDate(codingPath: codingPath) as? T { return date }
        if T.self == Data.self, let data = try unwrapData(codingPath: codingPath) as? T { return data }
        if T.self == URL.self {
            let text = try unwrapString(value, codingPath)
            guard let url = URL(string: text) as? T else {
                throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "Invalid URL string."))
            }
            return url
        }
        if T.self == Decimal.self, let decimal = try unwrapDecimal(value, codingPath) as? T { return decimal }
        let scope = (T.self as? any Validatable.Type)?.validationScope
        let decoder = JSONValueDecoder(value: value, codingPath: codingPath, context: context, scope: scope)
        do {
            let result = try T(from: decoder)
            try scope?.runRelations(at: codingPath, context: context)
            return result
        } catch let error as ValidationErrors {
            throw error
        } catch {
            try scope?.runRelations(at: codingPath, context: context)
            throw error
        }
    }

    func child(_ value: JSONValue, codingPath: [any CodingKey]) -> JSONValueDecoder {
        JSONValueDecoder(value: value, codingPath: codingPath, context: context)
    }

    func unwrapString(_ value: JSONValue, _ codingPath: @autoclosure () -> [any CodingKey]) throws -> String {
        guard case .string(let string) = value else {
            throw mismatch(String.self, value, codingPath())
        }
        return string
    }

    func unwrapBool(_ value: JSONValue, _ codingPath: @autoclosure () -> [any CodingKey]) throws -> Bool {
        // As in Foundation, a null where a Bool is expected is a type mismatch, not a missing value.
        guard case .bool(let flag) = value else { throw mismatch(Bool.self, value, codingPath(), nullIsMismatch: true) }
        return flag
    }

    func unwrapInteger<I: FixedWidthInteger>(_ type: I.Type, _ value: JSONValue, _ codingPath: @autoclosure () -> [any CodingKey]) throws -> I {
        guard case .number(let number) = value else { throw mismatch(I.self, value, codingPath()) }
        let integer: I?
        if I.isSigned {
            integer = (try? number.int64Value).flatMap { I(exactly: $0) }
        } else {
            integer = (try? number.uint64Value).flatMap { I(exactly: $0) }
        }
        guard let integer else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: codingPath(), debugDescription: "Number \(Excerpt.escape(number.literal, maximumBytes: 32)) is not representable in \(I.self)."))
        }
        return integer
    }

    func unwrapDouble(_ value: JSONValue, _ codingPath: @autoclosure () -> [any CodingKey]) throws -> Double {
        switch value {
        case .number(let number):
            guard let double = try? number.doubleValue else {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: codingPath(), debugDescription: "Number \(Excerpt.escape(number.literal, maximumBytes: 32)) is not representable in Double."))
            }
            return double
        case .string(let string):
            if case .convertFromString(let positive, let negative, let nan) = context.floats {
                if string == positive { return .infinity }
                if string == negative { return -.infinity }
                if string == nan { return .nan }
            }
            throw mismatch(Double.self, value, codingPath())
        default:
            throw mismatch(Double.self, value, codingPath())
        }
    }

    func unwrapFloat(_ value: JSONValue, _ codingPath: @autoclosure () -> [any CodingKey]) throws -> Float {
        let double = try unwrapDouble(value, codingPath())
        guard !double.isFinite || abs(double) <= Double(Float.greatestFiniteMagnitude) else {
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath(), debugDescription: "Number \(double) is not representable in Float."))
        }
        return Float(double)
    }

    func unwrapDecimal(_ value: JSONValue, _ codingPath: @autoclosure () -> [any CodingKey]) throws -> Decimal {
        guard case .number(let number) = value else { throw mismatch(Decimal.self, value, codingPath()) }
        guard let decimal = try? number.decimalValue else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: codingPath(), debugDescription: "Number \(Excerpt.escape(number.literal, maximumBytes: 32)) is not representable in Decimal."))
        }
        return decimal
    }

    func unwrapDate(codingPath: [any CodingKey]) throws -> Date {
        switch context.date {
        case .deferredToDate:
            return try Date(from: JSONValueDecoder(value: value, codingPath: codingPath, context: context))
        case .secondsSince1970:
            return Date(timeIntervalSince1970: try unwrapDouble(value, codingPath))
        case .millisecondsSince1970:
            return Date(timeIntervalSince1970: try unwrapDouble(value, codingPath) / 1_000)
        case .iso8601:
            let text = try unwrapString(value, codingPath)
            guard let date = ISO8601.date(from: text) else {
                throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "Expected date string to be ISO8601-formatted."))
            }
            return date
        case .formatted(let formatter):
            let text = try unwrapString(value, codingPath)
            guard let date = formatter.date(from: text) else {
                throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "Date string does not match format expected by formatter."))
            }
            return date
        case .custom(let decode):
            return try decode(JSONValueDecoder(value: value, codingPath: codingPath, context: context))
        }
    }

    func unwrapData(codingPath: [any CodingKey]) throws -> Data {
        switch context.data {
        case .deferredToData:
            return try Data(from: JSONValueDecoder(value: value, codingPath: codingPath, context: context))
        case .base64:
            let text = try unwrapString(value, codingPath)
            guard let data = Data(base64Encoded: text) else {
                throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "Encountered Data is not valid Base64."))
            }
            return data
        case .custom(let decode):
            return try decode(JSONValueDecoder(value: value, codingPath: codingPath, context: context))
        }
    }

    func mismatch(
        _ type: Any.Type, _ value: JSONValue, _ codingPath: [any CodingKey], expected: String? = nil, nullIsMismatch: Bool = false
    ) -> DecodingError {
        if value.isNull, !nullIsMismatch {
            return .valueNotFound(type, .init(codingPath: codingPath, debugDescription: "Cannot get value of type \(type) -- found null value instead"))
        }
        return .typeMismatch(
            type, .init(codingPath: codingPath, debugDescription: expected ?? "Expected to decode \(type) but found \(value.typeDescription) instead."))
    }

    /// Checks the field rules for `key` and keeps the value for relations.
    func validate(_ decoded: Any, key: any CodingKey, codingPath: [any CodingKey]) throws {
        guard let scope else { return }
        let name = key.stringValue
        if let checks = scope.checks(for: name) {
            for check in checks {
                if let violation = check.check(decoded) { try context.record(violation, at: codingPath + [key]) }
            }
        }
        if scope.relationKeys.contains(name) { scope.values[name] = decoded }
    }
}

extension JSONValue {
    var typeDescription: String {
        switch self {
        case .null: "null"
        case .bool: "bool"
        case .number: "number"
        case .string: "a string"
        case .array: "an array"
        case .object: "a dictionary"
        }
    }
}

// MARK: Containers

struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: JSONValueDecoder
    let object: JSONObject
    /// The object's keys as the key strategy converts them (the object's own keys by default).
    let keys: [String]

    init(object: JSONObject, decoder: JSONValueDecoder) {
        self.decoder = decoder
        self.object = object
        switch decoder.context.keys {
        case .useDefaultKeys: keys = object.keys
        default: keys = object.keys.map { Self.convert($0, strategy: decoder.context.keys, codingPath: decoder.codingPath) }
        }
    }

    static func convert(_ key: String, strategy: VettedJSONDecoder.KeyDecodingStrategy, codingPath: [any CodingKey]) -> String {
        switch strategy {
        case .useDefaultKeys: return key
        case .convertFromSnakeCase: return SnakeCase.toCamelCase(key)
        case .custom(let convert): return convert(codingPath + [PathKey(stringValue: key)]).stringValue
        }
    }

    var codingPath: [any CodingKey] { decoder.codingPath }

    /// Keys in document order, the first of any repeated key only.
    var allKeys: [Key] {
        var seen = Set<String>()
        return keys.compactMap { seen.insert($0).inserted ? Key(stringValue: $0) : nil }
    }

    func contains(_ key: Key) -> Bool { keys.contains(key.stringValue) }

    private func member(_ key: Key) throws -> JSONValue {
        guard let index = keys.firstIndex(of: key.stringValue), object.values.indices.contains(index) else {
            throw DecodingError.keyNotFound(
                key, .init(codingPath: codingPath, debugDescription: "No value associated with key \(key) (\"\(key.stringValue)\")."))
        }
        return object.values[index]
    }

    func decodeNil(forKey key: Key) throws -> Bool { try member(key).isNull }

    /// Decodes the member `key` with `body` (given the JSON value and a lazily
    /// built path), then checks the field's rules.
    private func decodeValue<T>(_ key: Key, _ body: (JSONValue, @autoclosure () -> [any CodingKey]) throws -> T) throws -> T {
        let value = try body(try member(key), codingPath + [key])
        if decoder.scope != nil { try decoder.validate(value, key: key, codingPath: codingPath) }
        return value
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decodeValue(key) { try decoder.unwrapBool($0, $1()) } }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decodeValue(key) { try decoder.unwrapString($0, $1()) } }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decodeValue(key) { try decoder.unwrapDouble($0, $1()) } }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decodeValue(key) { try decoder.unwrapFloat($0, $1()) } }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decodeValue(key) { try decoder.unwrapInteger(Int.self, $0, $1()) } }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decodeValue(key) { try decoder.unwrapInteger(Int8.self, $0, $1()) } }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decodeValue(key) { try decoder.unwrapInteger(Int16.self, $0, $1()) } }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decodeValue(key) { try decoder.unwrapInteger(Int32.self, $0, $1()) } }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decodeValue(key) { try decoder.unwrapInteger(Int64.self, $0, $1()) } }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decodeValue(key) { try decoder.unwrapInteger(UInt.self, $0, $1()) } }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decodeValue(key) { try decoder.unwrapInteger(UInt8.self, $0, $1()) } }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decodeValue(key) { try decoder.unwrapInteger(UInt16.self, $0, $1()) } }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decodeValue(key) { try decoder.unwrapInteger(UInt32.self, $0, $1()) } }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decodeValue(key) { try decoder.unwrapInteger(UInt64.self, $0, $1()) } }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try decodeValue(key) { value, path in let path = path(); return try decoder.child(value, codingPath: path).unwrap(T.self, codingPath: path) } }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        guard let value = try? member(key) else {
            throw DecodingError.keyNotFound(
                key, .init(codingPath: codingPath, debugDescription: "Cannot get KeyedDecodingContainer<\(NestedKey.self)> -- no value found for key \(key) (\"\(key.stringValue)\")"))
        }
        return try decoder.child(value, codingPath: codingPath + [key]).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        guard let value = try? member(key) else {
            throw DecodingError.keyNotFound(
                key, .init(codingPath: codingPath, debugDescription: "Cannot get UnkeyedDecodingContainer -- no value found for key \(key) (\"\(key.stringValue)\")"))
        }
        return try decoder.child(value, codingPath: codingPath + [key]).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        let index = keys.firstIndex(of: "super")
        return decoder.child(index.map { object.values[$0] } ?? .null, codingPath: codingPath + [PathKey(stringValue: "super")])
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        decoder.child((try? member(key)) ?? .null, codingPath: codingPath + [key])
    }
}

struct UnkeyedContainer: UnkeyedDecodingContainer {
    let elements: [JSONValue]
    let decoder: JSONValueDecoder
    private(set) var currentIndex = 0

    init(elements: [JSONValue], decoder: JSONValueDecoder) {
        self.elements = elements
        self.decoder = decoder
    }

    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    private var indexPath: [any CodingKey] { codingPath + [PathKey(intValue: currentIndex)] }

    private func current(_ type: Any.Type) throws -> JSONValue {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(type, .init(codingPath: indexPath, debugDescription: "Unkeyed container is at end."))
        }
        return elements[currentIndex]
    }

    mutating func decodeNil() throws -> Bool {
        guard try current(Any?.self).isNull else { return false }
        currentIndex += 1
        return true
    }

    private mutating func next<T>(
        _ type: T.Type, _ body: (JSONValueDecoder, JSONValue, @autoclosure () -> [any CodingKey]) throws -> T
    ) throws -> T {
        let value = try body(decoder, try current(type), indexPath)
        currentIndex += 1
        return value
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try next(type) { try $0.unwrapBool($1, $2()) } }
    mutating func decode(_ type: String.Type) throws -> String { try next(type) { try $0.unwrapString($1, $2()) } }
    mutating func decode(_ type: Double.Type) throws -> Double { try next(type) { try $0.unwrapDouble($1, $2()) } }
    mutating func decode(_ type: Float.Type) throws -> Float { try next(type) { try $0.unwrapFloat($1, $2()) } }
    mutating func decode(_ type: Int.Type) throws -> Int { try next(type) { try $0.unwrapInteger(Int.self, $1, $2()) } }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try next(type) { try $0.unwrapInteger(Int8.self, $1, $2()) } }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try next(type) { try $0.unwrapInteger(Int16.self, $1, $2()) } }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try next(type) { try $0.unwrapInteger(Int32.self, $1, $2()) } }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try next(type) { try $0.unwrapInteger(Int64.self, $1, $2()) } }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try next(type) { try $0.unwrapInteger(UInt.self, $1, $2()) } }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next(type) { try $0.unwrapInteger(UInt8.self, $1, $2()) } }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next(type) { try $0.unwrapInteger(UInt16.self, $1, $2()) } }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next(type) { try $0.unwrapInteger(UInt32.self, $1, $2()) } }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next(type) { try $0.unwrapInteger(UInt64.self, $1, $2()) } }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next(type) { decoder, value, path in
        let path = path()
        return try decoder.child(value, codingPath: path).unwrap(T.self, codingPath: path)
    } }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let container = try decoder.child(try current(KeyedDecodingContainer<NestedKey>.self), codingPath: indexPath).container(keyedBy: type)
        currentIndex += 1
        return container
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let container = try decoder.child(try current((any UnkeyedDecodingContainer).self), codingPath: indexPath).unkeyedContainer()
        currentIndex += 1
        return container
    }

    mutating func superDecoder() throws -> any Decoder {
        let child = decoder.child(try current((any Decoder).self), codingPath: indexPath)
        currentIndex += 1
        return child
    }
}

struct SingleValueContainer: SingleValueDecodingContainer {
    let decoder: JSONValueDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }

    func decodeNil() -> Bool { decoder.value.isNull }
    func decode(_ type: Bool.Type) throws -> Bool { try decoder.unwrapBool(decoder.value, codingPath) }
    func decode(_ type: String.Type) throws -> String { try decoder.unwrapString(decoder.value, codingPath) }
    func decode(_ type: Double.Type) throws -> Double { try decoder.unwrapDouble(decoder.value, codingPath) }
    func decode(_ type: Float.Type) throws -> Float { try decoder.unwrapFloat(decoder.value, codingPath) }
    func decode(_ type: Int.Type) throws -> Int { try decoder.unwrapInteger(Int.self, decoder.value, codingPath) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decoder.unwrapInteger(Int8.self, decoder.value, codingPath) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decoder.unwrapInteger(Int16.self, decoder.value, codingPath) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decoder.unwrapInteger(Int32.self, decoder.value, codingPath) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decoder.unwrapInteger(Int64.self, decoder.value, codingPath) }
    func decode(_ type: UInt.Type) throws -> UInt { try decoder.unwrapInteger(UInt.self, decoder.value, codingPath) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decoder.unwrapInteger(UInt8.self, decoder.value, codingPath) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decoder.unwrapInteger(UInt16.self, decoder.value, codingPath) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decoder.unwrapInteger(UInt32.self, decoder.value, codingPath) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decoder.unwrapInteger(UInt64.self, decoder.value, codingPath) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.unwrap(T.self, codingPath: codingPath) }
}

/// Foundation's `convertFromSnakeCase`: `first_name` → `firstName`; leading
/// and trailing underscores kept; a key without inner underscores unchanged.
enum SnakeCase {
    static func toCamelCase(_ key: String) -> String {
        guard let first = key.firstIndex(where: { $0 != "_" }) else { return key }
        var last = key.index(before: key.endIndex)
        while last > first, key[last] == "_" { key.formIndex(before: &last) }
        let core = key[first...last]
        let components = core.split(separator: "_")
        guard components.count > 1 else { return key }
        let leading = key[..<first]
        let trailing = key[key.index(after: last)...]
        let camel = components[0].lowercased() + components.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst().lowercased() }.joined()
        return leading + camel + trailing
    }
}

/// ISO 8601 date-times: `YYYY-MM-DDTHH:MM:SS`, optional fraction of a second,
/// then `Z` or an offset `±HH:MM` / `±HHMM`.
enum ISO8601 {
    static func date(from text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes.count <= 40 else { return nil }
        func number(_ start: Int, _ length: Int) -> Int? {
            guard start + length <= bytes.count else { return nil }
            var value = 0
            for index in start..<(start + length) {
                let digit = bytes[index] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                value = value * 10 + Int(digit)
            }
            return value
        }
        guard let year = number(0, 4), bytes[4] == UInt8(ascii: "-"), let month = number(5, 2), bytes[7] == UInt8(ascii: "-"),
            let day = number(8, 2), bytes[10] | 0x20 == UInt8(ascii: "t"), let hour = number(11, 2), bytes[13] == UInt8(ascii: ":"),
            let minute = number(14, 2), bytes[16] == UInt8(ascii: ":"), let second = number(17, 2),
            (1...12).contains(month), day >= 1, day <= CivilDate.daysIn(month: month, year: year), hour < 24, minute < 60, second < 60
        else { return nil }
        var index = 19
        var fraction = 0.0
        if bytes[index] == UInt8(ascii: ".") {
            index += 1
            var scale = 0.1
            let start = index
            while index < bytes.count, bytes[index] &- UInt8(ascii: "0") < 10 {
                fraction += Double(bytes[index] - UInt8(ascii: "0")) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        guard index < bytes.count else { return nil }
        var offset = 0
        switch bytes[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            index += 1
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
            guard let hours = number(index + 1, 2), hours < 24 else { return nil }
            var minutesStart = index + 3
            if minutesStart < bytes.count, bytes[minutesStart] == UInt8(ascii: ":") { minutesStart += 1 }
            guard let minutes = number(minutesStart, 2), minutes < 60 else { return nil }
            offset = sign * (hours * 3_600 + minutes * 60)
            index = minutesStart + 2
        default:
            return nil
        }
        guard index == bytes.count else { return nil }
        let days = CivilDate.daysSince1970(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3_600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }
}
