import Foundation
@_spi(Scanning) import VettedCore
import VettedDecoding

// Field types with no overload of their own in `_VettedFieldSource` (generated code reads them
// through its general `read<T: Decodable>`): the other integer widths, `Float`, `URL`, `Decimal`,
// `Data` (base64 only), and arrays of dates. Each is chosen by comparing metatypes (no dynamic cast), read as the tape
// path reads it (`TapeDecoder.unwrap`), and a value of another kind or one that does not convert
// is recorded with the tape path's error (`DirectFailures.swift`). ``DirectTypeInfo/reads(_:isArray:)``
// lists the same types: a plan reaches a type only if this reader reads it.

extension JSONDirectReader {
    /// The types read here, beside those with overloads of their own.
    static let otherScalarTypes: [Any.Type] = [
        Int8.self, Int16.self, Int32.self, Int64.self, UInt.self, UInt8.self, UInt16.self, UInt32.self, UInt64.self,
        Float.self, URL.self, Decimal.self, Date.self,
    ]

    /// A value of one of ``otherScalarTypes`` (any other type is a miss: the plan never sends it here).
    mutating func otherScalar<T>(_ type: T.Type) throws(_VettedDirectMiss) -> T {
        if T.self == Int64.self { return try Self.cast(try integer(Int64.self), to: T.self) }
        if T.self == Int32.self { return try Self.cast(try integer(Int32.self), to: T.self) }
        if T.self == Int16.self { return try Self.cast(try integer(Int16.self), to: T.self) }
        if T.self == Int8.self { return try Self.cast(try integer(Int8.self), to: T.self) }
        if T.self == UInt64.self { return try Self.cast(try integer(UInt64.self), to: T.self) }
        if T.self == UInt.self { return try Self.cast(try integer(UInt.self), to: T.self) }
        if T.self == UInt32.self { return try Self.cast(try integer(UInt32.self), to: T.self) }
        if T.self == UInt16.self { return try Self.cast(try integer(UInt16.self), to: T.self) }
        if T.self == UInt8.self { return try Self.cast(try integer(UInt8.self), to: T.self) }
        if T.self == Float.self { return try Self.cast(try float(), to: T.self) }
        if T.self == URL.self { return try Self.cast(try url(), to: T.self) }
        if T.self == Decimal.self { return try Self.cast(try decimal(), to: T.self) }
        if T.self == Date.self { return try Self.cast(try date(), to: T.self) }
        if T.self == Data.self { return try Self.cast(try base64Data(), to: T.self) }
        throw _VettedDirectMiss()
    }

    /// An integer of width `I`, converted as the tape path converts it.
    mutating func integer<I: FixedWidthInteger>(_ type: I.Type) throws(_VettedDirectMiss) -> I {
        if let kind = kindAhead(), kind != .number { throw mismatch(I.self, found: kind) }
        let token = try numberToken()
        guard let value = document.integer(I.self, token) else { throw unrepresentable(I.self, token) }
        return value
    }

    /// A `Float`: a `Double` (non-conforming strings included) within its range.
    private mutating func float() throws(_VettedDirectMiss) -> Float {
        _ = peek()
        let start = reader.scannerState.offset
        let counted = reader.valueCount
        let double = try double()
        guard !double.isFinite || abs(double) <= Double(Float.greatestFiniteMagnitude) else {
            throw unconverted(at: start, counted: counted, DecodingTexts.notRepresentableInFloat(double))
        }
        return Float(double)
    }

    /// A `URL`: a string `URL(string:)` takes.
    private mutating func url() throws(_VettedDirectMiss) -> URL {
        try converted(DecodingTexts.invalidURL) { URL(string: $0) }
    }

    /// A `Data` under the `base64` strategy (the plan sends no other here): a string
    /// `Data(base64Encoded:)` takes, as the tape path reads it.
    private mutating func base64Data() throws(_VettedDirectMiss) -> Data {
        try converted(DecodingTexts.notBase64) { Data(base64Encoded: $0) }
    }

    /// A string `convert` takes; one it does not is recorded with the tape path's `words`, at the string.
    private mutating func converted<V>(_ words: String, _ convert: (String) -> V?) throws(_VettedDirectMiss) -> V {
        _ = peek()
        let start = reader.scannerState.offset
        let counted = reader.valueCount
        let text = try string()
        guard let value = convert(text) else { throw unconverted(at: start, counted: counted, words) }
        return value
    }

    /// A `Decimal`: a number its literal converts to exactly as the tape path converts it.
    private mutating func decimal() throws(_VettedDirectMiss) -> Decimal {
        if let kind = kindAhead(), kind != .number { throw mismatch(Decimal.self, found: kind) }
        let token = try numberToken()
        let number = JSONNumber(validatedLiteral: document.literal(token))
        guard let decimal = try? number.decimalValue else {
            throw unconverted(at: token.first, counted: reader.valueCount - 1, DecodingTexts.notRepresentable(number.literal, in: Decimal.self))
        }
        return decimal
    }

    /// A field of one of ``otherScalarTypes``, then its rules.
    mutating func read<T: Decodable>(_ type: T.Type, _ field: Int) throws(_VettedDirectMiss) -> T {
        let value = try otherScalar(T.self)
        try check(value, field)
        return value
    }

    mutating func readIfPresent<T: Decodable>(_ type: T.Type, _ field: Int) throws(_VettedDirectMiss) -> T? {
        try null() ? nil : try read(T.self, field)
    }

    mutating func readArray<T: Decodable>(_ type: T.Type, _ field: Int) throws(_VettedDirectMiss) -> [T] {
        try scalars(field) { (reader) throws(_VettedDirectMiss) in try reader.otherScalar(T.self) }
    }
}
