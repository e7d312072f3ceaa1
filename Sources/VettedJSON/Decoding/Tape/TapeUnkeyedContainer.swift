import Foundation
@_spi(Scanning) import VettedCore
import VettedDecoding
import VettedRules

extension TapeDecoder {
    /// The index whose entry reads as null (a missing value's decoder): never on a tape.
    static let nullIndex = -1
}

struct TapeUnkeyedContainer: UnkeyedDecodingContainer {
    let decoder: TapeDecoder
    let base: PathBase
    let end: Int
    let count: Int?
    private(set) var currentIndex = 0
    /// The tape index of the next element.
    private var position: Int

    init(decoder: TapeDecoder, array: Int, base: PathBase) {
        self.decoder = decoder
        self.base = base
        let entry = decoder.document.entry(array)
        self.end = entry.payload
        self.count = entry.first
        self.position = array + 1
    }

    var codingPath: [any CodingKey] { decoder.codingPath(base) }
    var isAtEnd: Bool { position >= end }

    private var indexPath: [any CodingKey] { codingPath + [PathKey(intValue: currentIndex)] }

    private func current(_ type: Any.Type) throws -> Int {
        guard !isAtEnd else {
            throw DecodingError.unkeyedAtEnd(type, at: indexPath)
        }
        return position
    }

    private mutating func advance() {
        position = decoder.document.next(after: position)
        currentIndex += 1
    }

    mutating func decodeNil() throws -> Bool {
        guard decoder.document.entry(try current(Any?.self)).kind == .null else { return false }
        advance()
        return true
    }

    @inline(__always)
    private mutating func next<T>(_ type: T.Type, _ body: (TapeDecoder, Int, @autoclosure () -> [any CodingKey]) throws -> T) throws -> T {
        let value = try body(decoder, try current(type), indexPath)
        advance()
        return value
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try next(type) { try $0.bool(at: $1, $2()) } }
    mutating func decode(_ type: String.Type) throws -> String { try next(type) { try $0.string(at: $1, $2()) } }
    mutating func decode(_ type: Double.Type) throws -> Double { try next(type) { try $0.double(at: $1, $2()) } }
    mutating func decode(_ type: Float.Type) throws -> Float { try next(type) { try $0.float(at: $1, $2()) } }
    mutating func decode(_ type: Int.Type) throws -> Int { try next(type) { try $0.integer(Int.self, at: $1, $2()) } }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try next(type) { try $0.integer(Int8.self, at: $1, $2()) } }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try next(type) { try $0.integer(Int16.self, at: $1, $2()) } }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try next(type) { try $0.integer(Int32.self, at: $1, $2()) } }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try next(type) { try $0.integer(Int64.self, at: $1, $2()) } }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try next(type) { try $0.integer(UInt.self, at: $1, $2()) } }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next(type) { try $0.integer(UInt8.self, at: $1, $2()) } }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next(type) { try $0.integer(UInt16.self, at: $1, $2()) } }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next(type) { try $0.integer(UInt32.self, at: $1, $2()) } }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next(type) { try $0.integer(UInt64.self, at: $1, $2()) } }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let index = currentIndex
        let base = base
        return try next(type) { decoder, position, _ in
            try decoder.child(T.self, at: position, base: base, .index(index))
        }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let index = try current(KeyedDecodingContainer<NestedKey>.self)
        let components = decoder.components(base) + [.index(currentIndex)]
        try decoder.expect(.object, at: index, components.map(\.codingKey))
        advance()
        return KeyedDecodingContainer(TapeKeyedContainer<NestedKey>(decoder: decoder, object: index, base: .snapshot(components), active: nil))
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let index = try current((any UnkeyedDecodingContainer).self)
        let components = decoder.components(base) + [.index(currentIndex)]
        try decoder.expect(.array, at: index, components.map(\.codingKey))
        advance()
        return TapeUnkeyedContainer(decoder: decoder, array: index, base: .snapshot(components))
    }

    mutating func superDecoder() throws -> any Decoder {
        let index = try current((any Decoder).self)
        let decoder = TapeDecoder(document: decoder.document, current: index, path: decoder.components(base) + [.index(currentIndex)])
        advance()
        return decoder
    }
}
