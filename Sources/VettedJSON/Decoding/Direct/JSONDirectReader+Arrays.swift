import Foundation
@_spi(Scanning) import VettedCore
import VettedDecoding
import VettedRules

// The byte reader's arrays and nested values: a field's array of scalars, enums or `@Vetted`
// types, a top-level array, a value handed to its type's generated body, enum raw values.

extension JSONDirectReader {
    // MARK: Arrays

    /// Opens an array (generated code reads its elements with ``nextElement(_:)``).
    mutating func beginArray() throws(_VettedDirectMiss) {
        try open(UInt8(ascii: "["))
    }

    /// Whether another element follows (moving past its comma), or `false` once the
    /// array is closed; `count` is the number of elements read so far.
    mutating func nextElement(_ count: Int) throws(_VettedDirectMiss) -> Bool {
        let byte = peek()
        if byte == UInt8(ascii: "]") {
            close()
            return false
        }
        if count > 0 {
            passBoundary(complete: count)
            guard byte == UInt8(ascii: ",") else { throw syntaxDoubt() }
            advance()
        }
        guard count < maxMembers else { throw syntaxDoubt() }
        if let last = containers.indices.last { containers[last].step = count }
        return true
    }

    /// A field's array of a type the reader builds itself, each element read by `element`, then its rules.
    mutating func scalars<E>(
        _ field: Int, _ element: (inout JSONDirectReader) throws(_VettedDirectMiss) -> E
    ) throws(_VettedDirectMiss) -> [E] {
        try expectArray()
        try beginArray()
        var result: [E] = []
        var count = 0
        var failed = false
        while try nextElement(count) {
            count += 1
            // An element's structural error, under `.collect`: recorded, and the next one read.
            do { result.append(try element(&self)) } catch {
                try recover(error)
                failed = true
            }
        }
        if failed { throw _VettedDirectMiss(recorded: true) }
        try check(result, field)
        return result
    }

    mutating func stringCase<E: _VettedStringEnum>(_ type: E.Type) throws(_VettedDirectMiss) -> E {
        guard peek() == UInt8(ascii: "\"") else { throw mismatch(String.self, found: kindAhead()) }
        let token = try stringTokenAtQuote()
        // The exact bytes of a raw value are its case; anything else (an escape, another
        // spelling of the same text) goes through `init(rawValue:)`.
        if !token.has(JSONTape.needsDecoding),
            let index = E.__vettedRawValueBytes.index(of: token.first..<Swift.max(token.first, token.payload), in: reader.scannerState),
            let value = E.__vettedCase(index)
        {
            return value
        }
        return try caseNamed(E.self, token)
    }

    /// The case of `E` whose raw value is the text of the string just read (`token`); a text no
    /// case has is recorded as `init(from:)` reports it.
    @inline(never)
    private mutating func caseNamed<E: _VettedStringEnum>(_ type: E.Type, _ token: JSONTape.Entry) throws(_VettedDirectMiss) -> E {
        let text = document.string(token)
        do { return try E(__vettedRawValue: text) } catch {
            throw notACase(E.self, text, at: token.first - 1, counted: reader.valueCount - 1, kind: "String")
        }
    }

    mutating func intCase<E: _VettedIntEnum>(_ type: E.Type) throws(_VettedDirectMiss) -> E {
        _ = peek()
        let start = reader.scannerState.offset
        let counted = reader.valueCount
        let value = try integer()
        do { return try E(__vettedRawValue: value) } catch { throw notACase(E.self, String(value), at: start, counted: counted, kind: "Int") }
    }

    /// A value of a `@Vetted` struct, read by its generated body (which reads from this reader).
    mutating func generated<G: _VettedDecodable>(_ type: G.Type) throws(_VettedDirectMiss) -> G {
        do { return try G(__vetted: &self) } catch { throw Self.miss(error) }
    }

    /// A tagged union, read by its generated body.
    mutating func union<U: _VettedUnion>(_ type: U.Type) throws(_VettedDirectMiss) -> U {
        do { return try U(__vettedUnion: &self) } catch { throw Self.miss(error) }
    }

    /// A top-level array of a `@Vetted` struct or union, read in its module.
    mutating func elements<E: _VettedArrayElement>(of type: E.Type) throws(_VettedDirectMiss) -> [E] {
        do { return try E.__vettedReadArray(from: &self, field: -1) } catch { throw Self.miss(error) }
    }


    /// An array of a `@Vetted` struct or enum, read in the element type's module
    /// (which runs the field's rules through ``checkField(_:_:)``).
    private mutating func generatedArray<E: _VettedArrayElement>(_ type: E.Type, _ field: Int) throws(_VettedDirectMiss) -> [E] {
        try expectArray()
        do { return try E.__vettedReadArray(from: &self, field: field) } catch { throw Self.miss(error) }
    }

    /// A field's array that is another kind of value (null included): the tape path's mismatch, recorded.
    private mutating func expectArray() throws(_VettedDirectMiss) {
        if let kind = kindAhead(), kind != .array { throw mismatch([Any].self, found: kind, expected: .array) }
    }

    /// What generated code threw, as this reader's error: a miss, or a value whose errors were
    /// recorded (``_VettedDirectMiss/recorded``), which the enclosing body or array goes on after.
    static func miss(_ error: any Error) -> _VettedDirectMiss {
        error as? _VettedDirectMiss ?? _VettedDirectMiss()
    }

    mutating func readArray<G: _VettedDecodable>(_ type: G.Type, _ field: Int) throws(_VettedDirectMiss) -> [G] {
        try generatedArray(G.self, field)
    }

    mutating func readArray<E: _VettedStringEnum>(_ type: E.Type, _ field: Int) throws(_VettedDirectMiss) -> [E] {
        try generatedArray(E.self, field)
    }

    mutating func readArray<U: _VettedUnion>(_ type: U.Type, _ field: Int) throws(_VettedDirectMiss) -> [U] {
        try generatedArray(U.self, field)
    }

    mutating func readArray<E: _VettedIntEnum>(_ type: E.Type, _ field: Int) throws(_VettedDirectMiss) -> [E] {
        try generatedArray(E.self, field)
    }

    /// A field's rules on a value whose type the caller knows.
    mutating func checkField<Value>(_ value: Value, _ field: Int) throws(_VettedDirectMiss) {
        try check(value, field)
    }

    /// Reads a string and gives the position of the raw value its bytes spell exactly, or -1
    /// (then ``rawValueCase(_:)`` makes the case from its text).
    mutating func rawValueIndex(_ rawValues: _VettedRawValueBytes) throws(_VettedDirectMiss) -> Int {
        guard peek() == UInt8(ascii: "\"") else { throw mismatch(String.self, found: kindAhead()) }
        let token = try stringTokenAtQuote()
        lastString = token
        guard !token.has(JSONTape.needsDecoding) else { return -1 }
        return rawValues.index(of: token.first..<Swift.max(token.first, token.payload), in: reader.scannerState) ?? -1
    }

    /// The case named by the text of the string ``rawValueIndex(_:)`` just read, by `init(rawValue:)`.
    mutating func rawValueCase<E: _VettedStringEnum>(_ type: E.Type) throws(_VettedDirectMiss) -> E {
        try caseNamed(E.self, lastString)
    }

    mutating func readArray(_ type: String.Type, _ field: Int) throws(_VettedDirectMiss) -> [String] {
        try scalars(field) { (reader) throws(_VettedDirectMiss) in try reader.string() }
    }

    mutating func readArray(_ type: Int.Type, _ field: Int) throws(_VettedDirectMiss) -> [Int] {
        try scalars(field) { (reader) throws(_VettedDirectMiss) in try reader.integer() }
    }

    mutating func readArray(_ type: Double.Type, _ field: Int) throws(_VettedDirectMiss) -> [Double] {
        try scalars(field) { (reader) throws(_VettedDirectMiss) in try reader.double() }
    }

    mutating func readArray(_ type: Bool.Type, _ field: Int) throws(_VettedDirectMiss) -> [Bool] {
        try scalars(field) { (reader) throws(_VettedDirectMiss) in try reader.bool() }
    }
}
