#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif
import VettedCore
import VettedRules

/// A `@Vetted` struct (or final class): the macro writes one decoding body for
/// it, ``init(__vetted:)``, over any ``_VettedFieldSource``. The JSON decoder
/// runs it on the bytes and on its tape, the property-list decoder on the
/// values it read. Generated code only.
@_documentation(visibility: private)
public protocol _VettedDecodable: _VettedArrayElement {
    /// The coding keys of the fields, in the order `init(from:)` would decode them.
    static var __vettedFields: _VettedFieldTable { get }
    /// The one generated body: opens the object, takes each field the source
    /// offers (``_VettedFieldSource/nextField()``), reads it by a call chosen
    /// at compile time for its type, checks that every required field came,
    /// and closes the object with the values its relations need.
    init<Source: _VettedFieldSource>(__vetted source: inout Source) throws
}

/// A `@Vetted` type whose arrays are read in its own module, where the array's
/// type is known: a decoder's code, generic over the element, would look the
/// array's type (and the optional of the element) up at run time for every
/// array. Generated code only.
@_documentation(visibility: private)
public protocol _VettedArrayElement: Decodable {
    /// The array at the source, its elements read as they come, then `field`'s
    /// rules run on it (`field` -1: a top-level array, with none).
    static func __vettedReadArray<Source: _VettedArraySource>(from source: inout Source, field: Int) throws -> [Self]
}

/// A source that reads arrays as the bytes come (JSON straight from the
/// bytes): what a generated ``_VettedArrayElement/__vettedReadArray(from:field:)`` calls.
@_documentation(visibility: private)
public protocol _VettedArraySource: _VettedFieldSource {
    /// Opens an array.
    mutating func beginArray() throws
    /// Whether another element follows (`count`: how many were read), or `false` once the array is closed.
    mutating func nextElement(_ count: Int) throws -> Bool
    /// Reads a string: the position of the raw value whose bytes it is exactly, or -1
    /// (then ``rawValueCase(_:)`` makes the case from its text).
    mutating func rawValueIndex(_ rawValues: _VettedRawValueBytes) throws -> Int
    /// The case named by the text of the string ``rawValueIndex(_:)`` just read.
    mutating func rawValueCase<E: _VettedStringEnum>(_ type: E.Type) throws -> E
    /// Reads an integer and makes the case it names.
    mutating func intCase<E: _VettedIntEnum>(_ type: E.Type) throws -> E
    /// Runs `field`'s rules on its value (the caller passes the value's type, known where it is).
    mutating func checkField<Value>(_ value: Value, _ field: Int) throws
    /// Opens a tagged union's object and reads its tag: the case's position in the
    /// table's tags. Internally tagged, the payload's body then reads the rest of the
    /// same object; adjacently tagged, the value of the content member.
    mutating func beginUnion(_ table: _VettedUnionTable) throws -> Int
    /// Closes a tagged union's object after its payload.
    mutating func endUnion(_ table: _VettedUnionTable) throws
    /// What an array throws after it recovered (``_VettedFieldSource/recover(_:)``) from
    /// some element's error: the array is closed, and its errors are recorded.
    mutating func recordedElements() -> any Error
}

/// Where a generated body reads one object's fields from.
///
/// Two orders exist. A source that reads as the bytes come (JSON straight from
/// the bytes) offers the members in document order and fails with a miss on
/// anything in doubt, and the decoder then decodes the input on its other
/// path; a source over values already read (the JSON tape, a property list)
/// offers every field in declaration order, exactly as a synthesized
/// `init(from:)` asks for them, so that the first error is the one
/// `init(from:)` would throw. Either way the body is the same.
///
/// Each `read` runs the field's rules on the value it gives. Generated code only.
@_documentation(visibility: private)
public protocol _VettedFieldSource {
    /// Opens the object of `type`.
    mutating func beginObject<G: _VettedDecodable>(_ type: G.Type) throws
    /// The next field to read (-1: a member that is no field, for ``skipValue()``),
    /// or `nil` when there are no more.
    mutating func nextField() throws -> Int?
    /// Skips the value of a member that is no field.
    mutating func skipValue() throws
    /// Whether the key of a field the source offers is absent from the object: a
    /// `@Default` field's body asks before it reads, and the default stands in
    /// (a source that offers only the members present says `false`).
    mutating func isAbsent(_ field: Int) throws -> Bool
    /// Runs `field`'s rules on its default, which stood in for an absent key: one they
    /// refuse is the declaration's error (`defaultBreaksRule`), in every mode.
    mutating func checkDefault<Value>(_ value: Value, _ field: Int) throws
    /// The failure for a required field that never came.
    mutating func missing(_ field: Int) -> any Error
    /// Closes the object; `value` gives the decoded value of a field a relation needs.
    mutating func endObject(_ value: (Int) -> Any?) throws

    mutating func read(_ type: String.Type, _ field: Int) throws -> String
    mutating func read(_ type: Int.Type, _ field: Int) throws -> Int
    mutating func read(_ type: Double.Type, _ field: Int) throws -> Double
    mutating func read(_ type: Bool.Type, _ field: Int) throws -> Bool
    mutating func read(_ type: Date.Type, _ field: Int) throws -> Date
    mutating func read<E: _VettedStringEnum>(_ type: E.Type, _ field: Int) throws -> E
    mutating func read<E: _VettedIntEnum>(_ type: E.Type, _ field: Int) throws -> E
    mutating func read<G: _VettedDecodable>(_ type: G.Type, _ field: Int) throws -> G
    /// A tagged union (a source over values already read takes it as any other type).
    mutating func read<U: _VettedUnion>(_ type: U.Type, _ field: Int) throws -> U
    /// Any other type.
    mutating func read<T: Decodable>(_ type: T.Type, _ field: Int) throws -> T

    /// An optional field: `nil` when absent or null, then unchecked (as `decodeIfPresent`).
    mutating func readIfPresent(_ type: String.Type, _ field: Int) throws -> String?
    mutating func readIfPresent(_ type: Int.Type, _ field: Int) throws -> Int?
    mutating func readIfPresent(_ type: Double.Type, _ field: Int) throws -> Double?
    mutating func readIfPresent(_ type: Bool.Type, _ field: Int) throws -> Bool?
    mutating func readIfPresent(_ type: Date.Type, _ field: Int) throws -> Date?
    mutating func readIfPresent<E: _VettedStringEnum>(_ type: E.Type, _ field: Int) throws -> E?
    mutating func readIfPresent<E: _VettedIntEnum>(_ type: E.Type, _ field: Int) throws -> E?
    mutating func readIfPresent<G: _VettedDecodable>(_ type: G.Type, _ field: Int) throws -> G?
    mutating func readIfPresent<U: _VettedUnion>(_ type: U.Type, _ field: Int) throws -> U?
    mutating func readIfPresent<T: Decodable>(_ type: T.Type, _ field: Int) throws -> T?

    /// An array field, by its element type.
    mutating func readArray(_ type: String.Type, _ field: Int) throws -> [String]
    mutating func readArray(_ type: Int.Type, _ field: Int) throws -> [Int]
    mutating func readArray(_ type: Double.Type, _ field: Int) throws -> [Double]
    mutating func readArray(_ type: Bool.Type, _ field: Int) throws -> [Bool]
    mutating func readArray<E: _VettedStringEnum>(_ type: E.Type, _ field: Int) throws -> [E]
    mutating func readArray<E: _VettedIntEnum>(_ type: E.Type, _ field: Int) throws -> [E]
    mutating func readArray<G: _VettedDecodable>(_ type: G.Type, _ field: Int) throws -> [G]
    mutating func readArray<U: _VettedUnion>(_ type: U.Type, _ field: Int) throws -> [U]
    mutating func readArray<T: Decodable>(_ type: T.Type, _ field: Int) throws -> [T]

    /// What the body does with an error one field threw: a source that collects
    /// structural errors records it and returns, and the body goes on with the next
    /// field, then throws ``recorded()``; any other source throws it again.
    mutating func recover(_ error: any Error) throws
    /// What the body throws after it recovered from some field's error.
    mutating func recorded() -> any Error
}

extension _VettedFieldSource {
    /// A union read as any other type is (the general call, reached through a generic context).
    public mutating func read<U: _VettedUnion>(_ type: U.Type, _ field: Int) throws -> U { try readAny(type, field) }
    public mutating func readIfPresent<U: _VettedUnion>(_ type: U.Type, _ field: Int) throws -> U? { try readAnyIfPresent(type, field) }
    public mutating func readArray<U: _VettedUnion>(_ type: U.Type, _ field: Int) throws -> [U] { try readAnyArray(type, field) }

    private mutating func readAny<T: Decodable>(_ type: T.Type, _ field: Int) throws -> T { try read(type, field) }
    private mutating func readAnyIfPresent<T: Decodable>(_ type: T.Type, _ field: Int) throws -> T? { try readIfPresent(type, field) }
    private mutating func readAnyArray<T: Decodable>(_ type: T.Type, _ field: Int) throws -> [T] { try readArray(type, field) }

    /// A source that does not collect: the error is the body's.
    public mutating func recover(_ error: any Error) throws { throw error }
    /// Not reached by a source that does not collect.
    public mutating func recorded() -> any Error { RecordedErrors() }
}

/// A source over values already read: it offers every field in declaration
/// order and reads each one as a keyed container would for `init(from:)`.
/// Such a source implements the general calls (``readValue(_:_:)`` and its
/// siblings, and the scalar ones it has faster); the calls for `@Vetted`
/// enums and structs go to the general ones here.
package protocol _VettedDeclarationOrderSource: _VettedFieldSource {
    /// How many fields were offered so far.
    var offered: Int { get set }
    /// The number of fields.
    var fieldCount: Int { get }
    /// The field's key, for `keyNotFound`.
    func missingKey(_ field: Int) -> any Error
    mutating func readValue<T: Decodable>(_ type: T.Type, _ field: Int) throws -> T
    mutating func readValueIfPresent<T: Decodable>(_ type: T.Type, _ field: Int) throws -> T?
    mutating func readValues<T: Decodable>(_ type: T.Type, _ field: Int) throws -> [T]
}

extension _VettedDeclarationOrderSource {
    package mutating func beginObject<G: _VettedDecodable>(_ type: G.Type) throws {}

    package mutating func nextField() throws -> Int? {
        guard offered < fieldCount else { return nil }
        offered += 1
        return offered - 1
    }

    /// Every field offered is a field, so no body asks this: a call is a defect, said loudly.
    package mutating func skipValue() throws {
        throw VettedError(code: .internalInvariantViolated, message: "a source that offers fields in declaration order was asked to skip a member")
    }

    /// Not reached: `read` of an absent required field throws `keyNotFound` itself.
    package mutating func missing(_ field: Int) -> any Error { missingKey(field) }

    /// The rule engine runs the relations when the type's scope ends.
    package mutating func endObject(_ value: (Int) -> Any?) throws {}

    package mutating func read<T: Decodable>(_ type: T.Type, _ field: Int) throws -> T { try readValue(type, field) }
    package mutating func read(_ type: Double.Type, _ field: Int) throws -> Double { try readValue(type, field) }
    package mutating func read(_ type: Bool.Type, _ field: Int) throws -> Bool { try readValue(type, field) }
    package mutating func read<E: _VettedStringEnum>(_ type: E.Type, _ field: Int) throws -> E { try readValue(type, field) }
    package mutating func read<E: _VettedIntEnum>(_ type: E.Type, _ field: Int) throws -> E { try readValue(type, field) }
    package mutating func read<G: _VettedDecodable>(_ type: G.Type, _ field: Int) throws -> G { try readValue(type, field) }

    package mutating func readIfPresent<T: Decodable>(_ type: T.Type, _ field: Int) throws -> T? { try readValueIfPresent(type, field) }
    package mutating func readIfPresent(_ type: Double.Type, _ field: Int) throws -> Double? { try readValueIfPresent(type, field) }
    package mutating func readIfPresent(_ type: Bool.Type, _ field: Int) throws -> Bool? { try readValueIfPresent(type, field) }
    package mutating func readIfPresent(_ type: Date.Type, _ field: Int) throws -> Date? { try readValueIfPresent(type, field) }
    package mutating func readIfPresent<E: _VettedStringEnum>(_ type: E.Type, _ field: Int) throws -> E? { try readValueIfPresent(type, field) }
    package mutating func readIfPresent<E: _VettedIntEnum>(_ type: E.Type, _ field: Int) throws -> E? { try readValueIfPresent(type, field) }
    package mutating func readIfPresent<G: _VettedDecodable>(_ type: G.Type, _ field: Int) throws -> G? { try readValueIfPresent(type, field) }

    package mutating func readArray<T: Decodable>(_ type: T.Type, _ field: Int) throws -> [T] { try readValues(type, field) }
    package mutating func readArray(_ type: String.Type, _ field: Int) throws -> [String] { try readValues(type, field) }
    package mutating func readArray(_ type: Int.Type, _ field: Int) throws -> [Int] { try readValues(type, field) }
    package mutating func readArray(_ type: Double.Type, _ field: Int) throws -> [Double] { try readValues(type, field) }
    package mutating func readArray(_ type: Bool.Type, _ field: Int) throws -> [Bool] { try readValues(type, field) }
    package mutating func readArray<E: _VettedStringEnum>(_ type: E.Type, _ field: Int) throws -> [E] { try readValues(type, field) }
    package mutating func readArray<E: _VettedIntEnum>(_ type: E.Type, _ field: Int) throws -> [E] { try readValues(type, field) }
    package mutating func readArray<G: _VettedDecodable>(_ type: G.Type, _ field: Int) throws -> [G] { try readValues(type, field) }
}
