import Foundation
@_spi(Scanning) import VettedCore
import VettedRules
import VettedDecoding

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
        case generated(any _VettedDecodable.Type)
        /// An optional: a generated field of it decodes as `decodeIfPresent`.
        case optional(any AbsentOptional.Type)
        /// A `@Vetted` enum (no rules): a raw value naming a case is that case;
        /// anything else goes through its (standard) `init(from:)`.
        case stringEnum(any _VettedStringEnum.Type)
        case intEnum(any _VettedIntEnum.Type)
        /// A `@Vetted(tag:)` union: its generated `init(from:)` reads the tag and hands the
        /// payload on without catching anything, so a payload's errors are collected as a
        /// struct's are. (A case, not a stored flag: the struct is on every level's stack.)
        case union
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
        // Under collection an element that fails is recorded and the next one read (in this
        // frame: a model's recursion keeps the stack of every level as it was).
        let collecting = engine.collectsStructure
        var failed = false
        var elements: [Element] = []
        elements.reserveCapacity(entry.first)
        var index = 0
        while position < entry.payload {
            do {
                elements.append(try child(Element.self, at: position, base: base, .index(index), info: info))
            } catch {
                guard collecting else { throw error }
                try engine.recover(error)
                failed = true
            }
            position = document.next(after: position)
            index += 1
        }
        if failed { throw RecordedErrors() }
        return elements
    }
}

extension TapeDecoder {
    /// ``arrayElements(_:)`` when the call collects structural errors: an element that
    /// fails is recorded (``RuleEngine/recover(_:)``) and the next one read; once the
    /// array ends, ``RecordedErrors`` if any failed.
    @inline(never)
    fileprivate func collectingElements<Element: Decodable>(
        _ type: Element.Type, start: Int, end: Int, count: Int, base: PathBase, info: TypeInfo?
    ) throws -> [Element] {
        var elements: [Element] = []
        elements.reserveCapacity(count)
        var failed = false
        var position = start
        var index = 0
        while position < end {
            do {
                elements.append(try child(Element.self, at: position, base: base, .index(index), info: info))
            } catch {
                try engine.recover(error)
                failed = true
            }
            position = document.next(after: position)
            index += 1
        }
        if failed { throw RecordedErrors() }
        return elements
    }

    /// The elements of an array of a `@Vetted` enum: each one that `fast`
    /// reads (a raw value naming a case) is that case; any other goes through
    /// `child`, to its standard `init(from:)`, which gives its own value or
    /// error. The array is built in the enum's module (`__vettedArray`).
    fileprivate func stringEnums<E: _VettedStringEnum, Element: Decodable>(
        _ type: E.Type, as: Element.Type, start: Int, end: Int, count: Int, base: PathBase, info: TypeInfo?
    ) throws -> [Element] {
        let document = document
        do {
            return try enumElements(type, as: Element.self, start: start, end: end, count: count, base: base, info: info) {
                let element = document.entry($0)
                guard element.kind == .string else { throw _VettedRawValueMiss() }
                return try E(__vettedRawValue: document.string(element))
            }
        } catch where engine.collectsStructure && error is DecodingError {
            // Read again element by element, each error recorded (a cheap array: its cases once more).
            return try collectingElements(Element.self, start: start, end: end, count: count, base: base, info: info)
        }
    }

    fileprivate func intEnums<E: _VettedIntEnum, Element: Decodable>(
        _ type: E.Type, as: Element.Type, start: Int, end: Int, count: Int, base: PathBase, info: TypeInfo?
    ) throws -> [Element] {
        do {
            return try enumElements(type, as: Element.self, start: start, end: end, count: count, base: base, info: info) {
                try E(__vettedRawValue: try self.integer(Int.self, at: $0, []))
            }
        } catch where engine.collectsStructure && error is DecodingError {
            return try collectingElements(Element.self, start: start, end: end, count: count, base: base, info: info)
        }
    }

    private func enumElements<E: _VettedRawValueEnum, Element>(
        _ type: E.Type, as: Element.Type, start: Int, end: Int, count: Int, base: PathBase, info: TypeInfo?,
        fast: (Int) throws -> E
    ) throws -> [Element] {
        let document = document
        // The depth of every element: without room there, each one goes to `child`, which throws tooDeep.
        let room = document.stack.hasRoom(atDepth: path.count + 1)
        var position = start
        let cases = try E._elements(
            count: count, fastAllowed: room,
            locate: { index in
                let at = position
                if at >= end { document.invariantFailed("array element \(index) past the array's end") }
                position = document.next(after: at)
                return at
            },
            fast: fast, standard: { at, index in try self.child(E.self, at: at, base: base, .index(index), info: info) })
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
