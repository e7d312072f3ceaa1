#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif
public import VettedDecoding
@_spi(Scanning) import VettedCore

// Where the type is known to be a `@Vetted` struct, the compiler picks these
// over `decode(_:from:)` for any `Decodable`: the top value is decoded by the
// type's generated body, fixed here, with none of the casts `decode(_:from:)`
// makes to find its path. They decode exactly what `decode(_:from:)` decodes,
// with the same errors.
//
// `decode(_:from:)` is `open`, and these overloads are not: on a subclass,
// which may override it, they call `decode(_:from:)` itself, through a
// function that knows `T` only as `Decodable` (and so reaches the override).
//
// Hidden from the documentation: to a reader they are `decode(_:from:)`.

extension VettedPropertyListDecoder {
    /// Decodes a `@Vetted` struct from a property list: ``decode(_:from:)-(_,Data)``, its path chosen at compile time.
    ///
    /// - Throws: What ``decode(_:from:)-(_,Data)`` throws.
    @_documentation(visibility: private)
    public func decode<T: _VettedDecodable>(_ type: T.Type, from data: Data) throws -> T {
        guard Swift.type(of: self) == VettedPropertyListDecoder.self else { return try decodeOverridable(T.self, from: data) }
        return try decodeGenerated(T.self, from: SourceText(data))
    }

    /// Decodes a `@Vetted` struct from a property list: ``decode(_:from:)-(_,[UInt8])``, its path chosen at compile time.
    ///
    /// - Throws: What ``decode(_:from:)-(_,[UInt8])`` throws.
    @_documentation(visibility: private)
    public func decode<T: _VettedDecodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        guard Swift.type(of: self) == VettedPropertyListDecoder.self else { return try decodeOverridable(T.self, from: bytes) }
        return try decodeGenerated(T.self, from: SourceText(bytes))
    }

    /// `decode(_:from:)` as a subclass overrides it: `T` is only `Decodable` here.
    private func decodeOverridable<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        try decode(T.self, from: data)
    }

    private func decodeOverridable<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        try decode(T.self, from: bytes)
    }

    private func decodeGenerated<T: _VettedDecodable>(_ type: T.Type, from source: SourceText) throws -> T {
        var format = PlistParser.Format.binary
        return try decode(T.self, from: source, format: &format, options: options.current, streams: false) { try $0.unwrapGenerated(T.self) }
    }
}
