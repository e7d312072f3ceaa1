// Types and comparison shared by the generated-decoding differential tests and
// its fuzz target (Fuzz/Generated): every shape generated decoding handles,
// decoded both ways — through the generated code (the decoder's default) and
// through `init(from:)` (forced by an identity key strategy, under which
// generated code is never used).

import Foundation
import VettedCore
@_spi(Testing) import VettedJSON
import VettedMacros

typealias MaybeInt = Int?

@Vetted struct GenChild: Codable, Hashable {
    @Check(.nonBlank) var name: String
    var start: Double
    @Check(.notBefore(\GenChild.start)) var end: Double
}

@Vetted struct GenItem: Codable {
    @Vetted enum Kind: String, Codable { case a, b }
    @Vetted enum Level: Int, Codable { case low = 1, high = 2 }
    @Check(.range(0...100)) var count: Int
    @Check(.length(1...5), .displaySafe()) var label: String
    var flag: Bool
    var ratio: Double
    var small: Float
    var tiny: Int8
    var big: UInt64
    var kind: Kind
    var kinds: [Kind]
    var level: Level?
    var levels: [Level]
    @Check(.length(1...3)) var note: String?
    var maybe: MaybeInt
    var when: Date
    var blob: Data
    var link: URL
    var amount: Decimal
    @Check(.each(.length(1...3))) var tags: [String]
    var numbers: Set<Int>
    var map: [String: Int]
    var child: GenChild?
    @Check(.count(0...2)) var children: [GenChild]
    var defaulted: Int = 7
    let constant = "never decoded"
    enum CodingKeys: String, CodingKey {
        case count, label, flag, ratio, small, tiny, big, kind, kinds, level, levels, note, maybe, when, blob, link, amount, tags, numbers, map, child, children
        case defaulted = "default_value"
    }
}

/// Every shape that decodes straight from the bytes (GenItem has fields that
/// leave its documents to the tape path): scalars, optionals, raw-value enums,
/// arrays of them, nested generated types, rules, a relation, keys of its own.
@Vetted struct DirectItem: Codable {
    @Check(.range(0...100)) var count: Int
    @Check(.length(1...5), .displaySafe()) var label: String
    var flag: Bool
    var ratio: Double
    var kind: GenItem.Kind
    var kinds: [GenItem.Kind]
    var level: GenItem.Level?
    @Check(.count(0...3)) var levels: [GenItem.Level]
    @Check(.length(1...3)) var note: String?
    var maybe: Int?
    var when: Date
    @Check(.notBefore(\DirectItem.when)) var until: Date
    @Check(.each(.length(1...3))) var tags: [String]
    var numbers: [Int]
    var ratios: [Double]
    var flags: [Bool]
    var child: GenChild
    var spare: GenChild?
    @Check(.count(0...2)) var children: [GenChild]
    var defaulted: Int = 7
    enum CodingKeys: String, CodingKey {
        case count, label, flag, ratio, kind, kinds, level, levels, note, maybe, when
        case until = "until_date"
        case tags, numbers, ratios, flags, child, spare, children
        case defaulted = "default_value"
    }
}

/// Equal values; NaN equals NaN (bit for bit).
extension DirectItem: Equatable {
    static func == (a: DirectItem, b: DirectItem) -> Bool {
        var a = a
        var b = b
        // Dates by value (their description drops fractions of a second); the rest by its full description.
        guard a.ratio.bitPattern == b.ratio.bitPattern, a.ratios.map(\.bitPattern) == b.ratios.map(\.bitPattern),
            a.when == b.when, a.until == b.until
        else { return false }
        (a.ratio, b.ratio, a.ratios, b.ratios) = (0, 0, [], [])
        return String(reflecting: a) == String(reflecting: b)
    }
}

/// Equal values; NaN equals NaN (bit for bit), sets and dictionaries in any order.
extension GenItem: Equatable {
    static func == (a: GenItem, b: GenItem) -> Bool {
        a.count == b.count && a.label == b.label && a.flag == b.flag && a.ratio.bitPattern == b.ratio.bitPattern
            && a.small.bitPattern == b.small.bitPattern && a.tiny == b.tiny && a.big == b.big && a.kind == b.kind && a.kinds == b.kinds && a.level == b.level && a.levels == b.levels
            && a.note == b.note && a.maybe == b.maybe && a.when == b.when && a.blob == b.blob && a.link == b.link && a.amount == b.amount
            && a.tags == b.tags && a.numbers == b.numbers && a.map == b.map && a.child == b.child && a.children == b.children
            && a.defaulted == b.defaulted
    }
}

/// The same document and options, two ways; what each gave, as text to compare.
enum Outcome: Equatable, CustomStringConvertible {
    case value(Value)
    case decoding(String)
    case validation([String])
    case other(String)

    /// A decoded value: compared with `==`, shown as its description.
    struct Value: Equatable {
        let value: Any
        let equals: (Any) -> Bool
        static func == (a: Value, b: Value) -> Bool { a.equals(b.value) }
    }

    init<T: Equatable>(_ body: () throws -> T) {
        do {
            let value = try body()
            self = .value(Value(value: value, equals: { ($0 as? T) == value }))
        } catch let error as DecodingError {
            self = .decoding(Self.describe(error))
        } catch let error as ValidationErrors {
            var lines = error.errors.map { "\($0.code) \($0.path) @\($0.offset ?? -1) \($0.message) \($0.excerpt?.text ?? "")" }
            lines.append("omitted \(error.omitted)")
            self = .validation(lines)
        } catch {
            self = .other(String(describing: error))
        }
    }

    static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
                + " " + context.debugDescription + " " + String(describing: context.underlyingError.map { "\($0)" })
        }
        switch error {
        case .typeMismatch(let type, let context): return "typeMismatch \(type) \(path(context))"
        case .valueNotFound(let type, let context): return "valueNotFound \(type) \(path(context))"
        case .keyNotFound(let key, let context): return "keyNotFound \(key.stringValue) \(path(context))"
        case .dataCorrupted(let context): return "dataCorrupted \(path(context))"
        @unknown default: return "\(error)"
        }
    }

    var description: String {
        switch self {
        case .value(let value): "value \(String(reflecting: value.value))"
        case .decoding(let text): "decoding \(text)"
        case .validation(let lines): "validation \(lines)"
        case .other(let text): "other \(text)"
        }
    }
}

/// A decoder configuration of the differential.
struct DecoderOptions: CustomStringConvertible {
    var date: VettedJSONDecoder.DateDecodingStrategy = .deferredToDate
    var dateName = "deferred"
    var data: VettedJSONDecoder.DataDecodingStrategy = .base64
    var floats: VettedJSONDecoder.NonConformingFloatDecodingStrategy = .throw
    var duplicates: JSONParser.DuplicateKeyPolicy = .reject
    var mode: ValidationMode = .collect
    var limits = Limits()

    /// `generated` false: each type's `init(from:)`, on the tape (a key strategy keeps the tape
    /// path from generated code; the byte reader would convert the keys itself).
    func decoder(generated: Bool, direct: Bool = true) -> VettedJSONDecoder {
        let decoder = VettedJSONDecoder()
        decoder.directDecoding = direct && generated
        decoder.limits = limits
        decoder.duplicateKeyPolicy = duplicates
        decoder.dateDecodingStrategy = date
        decoder.dataDecodingStrategy = data
        decoder.nonConformingFloatDecodingStrategy = floats
        decoder.validationMode = mode
        if !generated { decoder.keyDecodingStrategy = Self.identityKeys }
        return decoder
    }

    /// The byte reader under a `custom` key strategy that keeps every key: each key goes through the closure.
    func convertingDecoder() -> VettedJSONDecoder {
        let decoder = self.decoder(generated: true)
        decoder.keyDecodingStrategy = Self.identityKeys
        return decoder
    }

    static let identityKeys = VettedJSONDecoder.KeyDecodingStrategy.custom { path in path.last ?? PathKey(stringValue: "") as any CodingKey }

    var description: String { "date \(dateName), data \(data), floats \(floats), duplicates \(duplicates), mode \(mode)" }
}
