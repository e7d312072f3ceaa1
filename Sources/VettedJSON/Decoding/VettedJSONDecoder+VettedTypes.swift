public import Foundation
public import VettedDecoding
@_spi(Scanning) import VettedCore

// Where the type is known to be `@Vetted`, the compiler picks one of these over
// `decode(_:from:)` for any `Decodable`: the body that reads it straight from
// the bytes is fixed here, with no cast; the call makes one run-time lookup,
// of the decode plan (the types' information, and whether the options let the
// bytes be read at all). They decode exactly what `decode(_:from:)` decodes,
// with the same errors.
//
// `decode(_:from:)` is `open`, and these overloads are not: a subclass that
// overrides it would be skipped for `@Vetted` types. So on any subclass they
// call `decode(_:from:)` itself, through a function that knows `T` only as
// `Decodable` (and so reaches the override).
//
// Hidden from the documentation: to a reader they are `decode(_:from:)`.

extension VettedJSONDecoder {
    /// Decodes a `@Vetted` struct from JSON bytes: ``decode(_:from:)-(_,Data)``, its path chosen at compile time.
    ///
    /// - Throws: What ``decode(_:from:)-(_,Data)`` throws.
    @_documentation(visibility: private)
    public func decode<T: _VettedDecodable>(_ type: T.Type, from data: Data) throws -> T {
        guard isExactlyVettedJSONDecoder else { return try decodeOverridable(T.self, from: data) }
        return try decode(T.self, from: SourceText(data), read: .generated)
    }

    /// Decodes a `@Vetted` struct from JSON bytes: ``decode(_:from:)-(_,[UInt8])``, its path chosen at compile time.
    ///
    /// - Throws: What ``decode(_:from:)-(_,[UInt8])`` throws.
    @_documentation(visibility: private)
    public func decode<T: _VettedDecodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        guard isExactlyVettedJSONDecoder else { return try decodeOverridable(T.self, from: bytes) }
        return try decode(T.self, from: SourceText(bytes), read: .generated)
    }

    /// Decodes a `@Vetted(tag:)` union from JSON bytes: ``decode(_:from:)-(_,Data)``, its path chosen at compile time.
    ///
    /// - Throws: What ``decode(_:from:)-(_,Data)`` throws.
    @_documentation(visibility: private)
    public func decode<T: _VettedUnion>(_ type: T.Type, from data: Data) throws -> T {
        guard isExactlyVettedJSONDecoder else { return try decodeOverridable(T.self, from: data) }
        return try decode(T.self, from: SourceText(data), read: .union)
    }

    /// Decodes a `@Vetted(tag:)` union from JSON bytes: ``decode(_:from:)-(_,[UInt8])``, its path chosen at compile time.
    ///
    /// - Throws: What ``decode(_:from:)-(_,[UInt8])`` throws.
    @_documentation(visibility: private)
    public func decode<T: _VettedUnion>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        guard isExactlyVettedJSONDecoder else { return try decodeOverridable(T.self, from: bytes) }
        return try decode(T.self, from: SourceText(bytes), read: .union)
    }

    /// Decodes an array of a `@Vetted` type from JSON bytes: ``decode(_:from:)-(_,Data)``, its path chosen at compile time.
    ///
    /// - Throws: What ``decode(_:from:)-(_,Data)`` throws.
    @_documentation(visibility: private)
    public func decode<E: _VettedArrayElement>(_ type: [E].Type, from data: Data) throws -> [E] {
        guard isExactlyVettedJSONDecoder else { return try decodeOverridable([E].self, from: data) }
        return try decode([E].self, from: SourceText(data), read: .array(of: E.self))
    }

    /// Decodes an array of a `@Vetted` type from JSON bytes: ``decode(_:from:)-(_,[UInt8])``, its path chosen at compile time.
    ///
    /// - Throws: What ``decode(_:from:)-(_,[UInt8])`` throws.
    @_documentation(visibility: private)
    public func decode<E: _VettedArrayElement>(_ type: [E].Type, from bytes: [UInt8]) throws -> [E] {
        guard isExactlyVettedJSONDecoder else { return try decodeOverridable([E].self, from: bytes) }
        return try decode([E].self, from: SourceText(bytes), read: .array(of: E.self))
    }

    // MARK: The shared steps

    /// Whether this is a `VettedJSONDecoder` itself, not a subclass (which may override `decode(_:from:)`).
    private var isExactlyVettedJSONDecoder: Bool { type(of: self) == VettedJSONDecoder.self }

    /// `decode(_:from:)` as a subclass overrides it: `T` is only `Decodable` here.
    private func decodeOverridable<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        try decode(T.self, from: data)
    }

    private func decodeOverridable<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        try decode(T.self, from: bytes)
    }

    /// The call's options read once, then the one decode with the read fixed by the overload.
    private func decode<T: Decodable>(_ type: T.Type, from source: SourceText, read: DirectRead<T>) throws -> T {
        let options = options.current
        return try decode(T.self, from: source, parser: Self.parser(options), options: options, read: read)
    }
}
