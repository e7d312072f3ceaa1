import Foundation


/// The least any `Decoder` can cost for a model: a decoder that parses
/// nothing, looks up no key, makes no string and checks no rule. It replays,
/// from one flat array and a cursor, values decoded beforehand, in the order
/// the model's `init(from:)` asks for them; so what it measures is Codable's
/// own machinery (container boxes, existential dispatch, generic calls,
/// building the values) for that model. A real decoder does all of this and
/// more, so none can be faster through the `Decodable` protocol.
final class ReplayDecoder: Decoder, SingleValueDecodingContainer {
    /// A value as the model asked for it; an array is its count, then its elements.
    enum Value {
        case bool(Bool), int(Int), double(Double), string(String), count(Int)
    }

    struct Mismatch: Error {}

    /// Every value of the document in the order they are asked for.
    private let values: [Value]
    private var cursor = 0

    init(_ values: [Value]) { self.values = values }

    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// Decodes `T` from the whole replay.
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try T(from: self) }

    fileprivate func next() -> Value {
        guard cursor < values.count else { return .bool(false) }
        cursor += 1
        return values[cursor - 1]
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(ReplayKeyed<Key>(decoder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .count(let count) = next() else { throw Mismatch() }
        return ReplayUnkeyed(decoder: self, count: count)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func decodeNil() -> Bool { false }
    func decode(_ type: Bool.Type) throws -> Bool { if case .bool(let value) = next() { value } else { throw Mismatch() } }
    func decode(_ type: String.Type) throws -> String { if case .string(let value) = next() { value } else { throw Mismatch() } }
    func decode(_ type: Double.Type) throws -> Double { if case .double(let value) = next() { value } else { throw Mismatch() } }
    func decode(_ type: Float.Type) throws -> Float { throw Mismatch() }
    func decode(_ type: Int.Type) throws -> Int { if case .int(let value) = next() { value } else { throw Mismatch() } }
    func decode(_ type: Int8.Type) throws -> Int8 { throw Mismatch() }
    func decode(_ type: Int16.Type) throws -> Int16 { throw Mismatch() }
    func decode(_ type: Int32.Type) throws -> Int32 { throw Mismatch() }
    func decode(_ type: Int64.Type) throws -> Int64 { throw Mismatch() }
    func decode(_ type: UInt.Type) throws -> UInt { throw Mismatch() }
    func decode(_ type: UInt8.Type) throws -> UInt8 { throw Mismatch() }
    func decode(_ type: UInt16.Type) throws -> UInt16 { throw Mismatch() }
    func decode(_ type: UInt32.Type) throws -> UInt32 { throw Mismatch() }
    func decode(_ type: UInt64.Type) throws -> UInt64 { throw Mismatch() }
}

private struct ReplayKeyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: ReplayDecoder
    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { [] }
    func contains(_ key: Key) -> Bool { true }
    func decodeNil(forKey key: Key) throws -> Bool { false }
    private func value() -> ReplayDecoder.Value { decoder.next() }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        if case .bool(let value) = value() { value } else { throw ReplayDecoder.Mismatch() }
    }
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        if case .string(let value) = value() { value } else { throw ReplayDecoder.Mismatch() }
    }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { throw ReplayDecoder.Mismatch() }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { throw ReplayDecoder.Mismatch() }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
        if case .int(let value) = value() { value } else { throw ReplayDecoder.Mismatch() }
    }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { throw ReplayDecoder.Mismatch() }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { throw ReplayDecoder.Mismatch() }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { throw ReplayDecoder.Mismatch() }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { throw ReplayDecoder.Mismatch() }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { throw ReplayDecoder.Mismatch() }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { throw ReplayDecoder.Mismatch() }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { throw ReplayDecoder.Mismatch() }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { throw ReplayDecoder.Mismatch() }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { throw ReplayDecoder.Mismatch() }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try T(from: decoder) }
    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        throw ReplayDecoder.Mismatch()
    }
    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { throw ReplayDecoder.Mismatch() }
    func superDecoder() throws -> any Decoder { throw ReplayDecoder.Mismatch() }
    func superDecoder(forKey key: Key) throws -> any Decoder { throw ReplayDecoder.Mismatch() }
}

private struct ReplayUnkeyed: UnkeyedDecodingContainer {
    let decoder: ReplayDecoder
    var codingPath: [any CodingKey] { [] }
    let count: Int?
    var currentIndex = 0
    var isAtEnd: Bool { currentIndex >= (count ?? 0) }

    init(decoder: ReplayDecoder, count: Int) {
        self.decoder = decoder
        self.count = count
    }

    private mutating func value() -> ReplayDecoder.Value {
        currentIndex += 1
        return decoder.next()
    }
    mutating func decodeNil() throws -> Bool { false }
    mutating func decode(_ type: Bool.Type) throws -> Bool { throw ReplayDecoder.Mismatch() }
    mutating func decode(_ type: String.Type) throws -> String {
        if case .string(let value) = value() { value } else { throw ReplayDecoder.Mismatch() }
    }
    mutating func decode(_ type: Double.Type) throws -> Double { throw ReplayDecoder.Mismatch() }
    mutating func decode(_ type: Float.Type) throws -> Float { throw ReplayDecoder.Mismatch() }
    mutating func decode(_ type: Int.Type) throws -> Int { throw ReplayDecoder.Mismatch() }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { throw ReplayDecoder.Mismatch() }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { throw ReplayDecoder.Mismatch() }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { throw ReplayDecoder.Mismatch() }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { throw ReplayDecoder.Mismatch() }
    mutating func decode(_ type: UInt.Type) throws -> UInt { throw ReplayDecoder.Mismatch() }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { throw ReplayDecoder.Mismatch() }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { throw ReplayDecoder.Mismatch() }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { throw ReplayDecoder.Mismatch() }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { throw ReplayDecoder.Mismatch() }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        currentIndex += 1
        return try T(from: decoder)
    }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        throw ReplayDecoder.Mismatch()
    }
    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { throw ReplayDecoder.Mismatch() }
    mutating func superDecoder() throws -> any Decoder { throw ReplayDecoder.Mismatch() }
}

extension Listing {
    /// The values `init(from:)` asks for, in its order.
    var replayValues: [ReplayDecoder.Value] {
        [.int(id), .string(name), .string(description), .string(price), .bool(sold), .string(url), .count(tags.count)]
            + tags.map { .string($0.rawValue) }
            + [.double(created.timeIntervalSinceReferenceDate), .double(lastUpdated.timeIntervalSinceReferenceDate)]
    }

    /// The UTF-8 of every string a decoder makes for this listing (tags as
    /// their raw values), for timing the making alone.
    var stringBytes: [[UInt8]] {
        [Array(name.utf8), Array(description.utf8), Array(price.utf8), Array(url.utf8)] + tags.map { Array($0.rawValue.utf8) }
    }
}
