package import VettedRules

// What `@Vetted` expansions name besides the field source: the raw-value enum
// protocols, the field table, and the misses that send a decoder to the path
// that reports every error. Generated code only.

/// An enum with `String` raw values marked `@Vetted`: its `init(from:)` is the
/// standard library's (decode a `String`, then `init(rawValue:)`), so the
/// decoders may read the raw value themselves and build the case with this —
/// with no decoder, for arrays of tags — and fall back to `init(from:)` for
/// anything else (a value of another type, an unknown raw value), which then
/// throws its own error. Generated code only.
@_documentation(visibility: private)
public protocol _VettedStringEnum: _VettedRawValueEnum {
    init(__vettedRawValue rawValue: String) throws(_VettedRawValueMiss)
    /// The raw values' bytes, in the order of ``__vettedCase(_:)``: a decoder
    /// that reads exactly these bytes makes the case without making a `String`.
    static var __vettedRawValueBytes: _VettedRawValueBytes { get }
    /// The case at `index` of ``__vettedRawValueBytes``.
    static func __vettedCase(_ index: Int) -> Self?
}

/// The UTF-8 bytes of a `@Vetted` enum's raw values. Generated code only.
@_documentation(visibility: private)
public final class _VettedRawValueBytes: Sendable {
    /// Empty when two raw values are equal as strings but spelled with other
    /// bytes (canonically equivalent): `init(rawValue:)` alone then says which case it is.
    package let bytes: [[UInt8]]

    public init(_ rawValues: [String]) {
        var distinct = true
        for (index, value) in rawValues.enumerated() {
            for other in rawValues[(index + 1)...] where other == value { distinct = false }
        }
        bytes = distinct ? rawValues.map { Array($0.utf8) } : []
    }
}

/// ``_VettedStringEnum`` for enums with `Int` raw values.
@_documentation(visibility: private)
public protocol _VettedIntEnum: _VettedRawValueEnum {
    init(__vettedRawValue rawValue: Int) throws(_VettedRawValueMiss)
}

/// What ``_VettedStringEnum`` and ``_VettedIntEnum`` share. Generated code only.
@_documentation(visibility: private)
public protocol _VettedRawValueEnum: _VettedArrayElement {
    /// An array of `count` cases, each made by `element`: built in the enum's
    /// own module, where the array's type is known.
    static func __vettedArray(count: Int, _ element: (Int) throws -> Self) rethrows -> [Self]
}

/// Generated decoding straight from the bytes did not take this input (any
/// doubt: a value, key, rule or limit it does not decide alone): the decoder
/// decodes the input again on the path that reports every error. Never seen by users.
@_documentation(visibility: private)
public struct _VettedDirectMiss: Error {
    public init() {}
}

/// No case has that raw value: the decoder falls back to `init(from:)`, which says so.
@_documentation(visibility: private)
public struct _VettedRawValueMiss: Error {
    public init() {}
}

/// The coding keys of a `@Vetted` type's fields, in the order its
/// `init(from:)` would decode them: made once per type, read by both decoders'
/// generated decoding. Generated code only.
@_documentation(visibility: private)
public final class _VettedFieldTable: Sendable {
    package let keys: [CodingKeys]
    package let names: [String]
    /// Each name's UTF-8 bytes, compared with a document's key bytes.
    package let bytes: [[UInt8]]
    /// Whether a name is not all ASCII: keys are then matched as Strings (canonical
    /// equivalence), since equal Strings may differ in bytes.
    package let hasNonASCIIName: Bool

    /// Each field's type as the generated body reads it: the wrapped type of an
    /// optional, the element type of an array (`isArray`), else the field's own.
    /// A decoder decides from these, before reading, whether it reads every field itself.
    package let types: [Any.Type]
    package let isArray: [Bool]

    public init(_ names: [String], types: [Any.Type] = [], isArray: [Bool] = []) {
        self.types = types
        self.isArray = isArray
        self.names = names
        keys = names.map { CodingKeys(stringValue: $0) }
        bytes = names.map { Array($0.utf8) }
        hasNonASCIIName = names.contains { $0.utf8.contains { $0 >= 0x80 } }
    }
}
