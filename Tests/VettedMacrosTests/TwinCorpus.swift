// Hand-written twins of the generated corpus's types, shared by TwinDifferentialTests and
// the fuzz target Fuzz/Generated: plain `Decodable` types that declare the same fields, keys
// and rules by hand (`init(from:)` and `Validatable`), decoded on the tape. The byte reader
// (and the tape's generated body) on the `@Vetted` type must give the same value, or the same
// errors: code, path and offset, in the same order.

import Foundation
import VettedCore
@_spi(Testing) import VettedJSON
import VettedMacros
import VettedRules

/// `GenChild` by hand.
struct GenChildTwin: Codable, Validatable {
    var name: String
    var start: Double
    var end: Double
    static let validation = Validation<GenChildTwin> {
        Field("name", Rule<String>.nonBlank)
        Relation("end", after: "start", as: Double.self)
    }
}

/// `DirectItem` by hand: the same coding keys (a `var` with an initial value is still decoded, as Swift's synthesized `init(from:)` does).
struct DirectItemTwin: Codable, Validatable {
    enum Kind: String, Codable { case a, b }
    enum Level: Int, Codable { case low = 1, high = 2 }
    var count: Int
    var label: String
    var flag: Bool
    var ratio: Double
    var kind: Kind
    var kinds: [Kind]
    var level: Level?
    var levels: [Level]
    var note: String?
    var maybe: Int?
    var when: Date
    var until: Date
    var tags: [String]
    var numbers: [Int]
    var ratios: [Double]
    var flags: [Bool]
    var child: GenChildTwin
    var spare: GenChildTwin?
    var children: [GenChildTwin]
    var defaulted: Int

    enum CodingKeys: String, CodingKey {
        case count, label, flag, ratio, kind, kinds, level, levels, note, maybe, when
        case until = "until_date"
        case tags, numbers, ratios, flags, child, spare, children
        case defaulted = "default_value"
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        count = try container.decode(Int.self, forKey: .count)
        label = try container.decode(String.self, forKey: .label)
        flag = try container.decode(Bool.self, forKey: .flag)
        ratio = try container.decode(Double.self, forKey: .ratio)
        kind = try container.decode(Kind.self, forKey: .kind)
        kinds = try container.decode([Kind].self, forKey: .kinds)
        level = try container.decodeIfPresent(Level.self, forKey: .level)
        levels = try container.decode([Level].self, forKey: .levels)
        note = try container.decodeIfPresent(String.self, forKey: .note)
        maybe = try container.decodeIfPresent(Int.self, forKey: .maybe)
        when = try container.decode(Date.self, forKey: .when)
        until = try container.decode(Date.self, forKey: .until)
        tags = try container.decode([String].self, forKey: .tags)
        numbers = try container.decode([Int].self, forKey: .numbers)
        ratios = try container.decode([Double].self, forKey: .ratios)
        flags = try container.decode([Bool].self, forKey: .flags)
        child = try container.decode(GenChildTwin.self, forKey: .child)
        spare = try container.decodeIfPresent(GenChildTwin.self, forKey: .spare)
        children = try container.decode([GenChildTwin].self, forKey: .children)
        defaulted = try container.decode(Int.self, forKey: .defaulted)
    }

    static let validation = Validation<DirectItemTwin> {
        Field("count", Rule<Int>.range(0...100))
        Field("label", Rule<String>.length(1...5))
        Field("label", Rule<String>.displaySafe())
        Field("levels", Rule<[Level]>.count(0...3))
        Field("note", Rule<String>.length(1...3))
        Relation("until_date", after: "when", as: Date.self)
        Field("tags", Rule<[String]>.each(.length(1...3)))
        Field("children", Rule<[GenChildTwin]>.count(0...2))
    }
}

/// What one side gave, as the twin comparison sees it: the value encoded (sorted keys,
/// non-finite numbers as strings), or each error's code, path and offset in order.
enum TwinOutcome: Equatable, CustomStringConvertible {
    case value(String)
    case errors([String])
    case other(String)

    init(_ body: () throws -> some Encodable) {
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
            self = .value(Self.canonical(try encoder.encode(body())))
        } catch let error as ValidationErrors {
            self = .errors(error.errors.map(Self.line) + ["omitted \(error.omitted)"])
        } catch let error as VettedError {
            self = .errors([Self.line(error)])
        } catch let error as DecodingError {
            self = error.vettedError.map { .errors([Self.line($0)]) } ?? .other(Outcome.describe(error))
        } catch {
            self = .other(String(describing: error))
        }
    }

    /// The encoded value with each `numbers` set in ascending order (a set encodes in its own order).
    static func canonical(_ data: Data) -> String {
        func sorted(_ value: Any) -> Any {
            if let array = value as? [Any] { return array.map(sorted) }
            guard var object = value as? [String: Any] else { return value }
            if let numbers = object["numbers"] as? [Int] { object["numbers"] = numbers.sorted() }
            return object
        }
        guard let value = try? JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed),
            let text = try? JSONSerialization.data(withJSONObject: sorted(value), options: [.sortedKeys, .fragmentsAllowed])
        else { return String(decoding: data, as: UTF8.self) }
        return String(decoding: text, as: UTF8.self)
    }

    static func line(_ error: VettedError) -> String { "\(error.code) \(error.path) @\(error.offset ?? -1)" }

    var description: String {
        switch self {
        case .value(let text): "value \(text)"
        case .errors(let lines): "errors \(lines)"
        case .other(let text): "other \(text)"
        }
    }
}

/// `GenItem` by hand: every field type the tape reads (`Data`, `URL`, `Decimal`, sets, dictionaries, narrow numbers).
struct GenItemTwin: Codable, Validatable {
    var count: Int
    var label: String
    var flag: Bool
    var ratio: Double
    var small: Float
    var tiny: Int8
    var big: UInt64
    var kind: DirectItemTwin.Kind
    var kinds: [DirectItemTwin.Kind]
    var level: DirectItemTwin.Level?
    var levels: [DirectItemTwin.Level]
    var note: String?
    var maybe: Int?
    var when: Date
    var blob: Data
    var link: URL
    var amount: Decimal
    var tags: [String]
    var numbers: Set<Int>
    var map: [String: Int]
    var child: GenChildTwin?
    var children: [GenChildTwin]
    var defaulted: Int

    enum CodingKeys: String, CodingKey {
        case count, label, flag, ratio, small, tiny, big, kind, kinds, level, levels, note, maybe, when, blob, link, amount, tags, numbers, map, child, children
        case defaulted = "default_value"
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        count = try container.decode(Int.self, forKey: .count)
        label = try container.decode(String.self, forKey: .label)
        flag = try container.decode(Bool.self, forKey: .flag)
        ratio = try container.decode(Double.self, forKey: .ratio)
        small = try container.decode(Float.self, forKey: .small)
        tiny = try container.decode(Int8.self, forKey: .tiny)
        big = try container.decode(UInt64.self, forKey: .big)
        kind = try container.decode(DirectItemTwin.Kind.self, forKey: .kind)
        kinds = try container.decode([DirectItemTwin.Kind].self, forKey: .kinds)
        level = try container.decodeIfPresent(DirectItemTwin.Level.self, forKey: .level)
        levels = try container.decode([DirectItemTwin.Level].self, forKey: .levels)
        note = try container.decodeIfPresent(String.self, forKey: .note)
        maybe = try container.decodeIfPresent(Int.self, forKey: .maybe)
        when = try container.decode(Date.self, forKey: .when)
        blob = try container.decode(Data.self, forKey: .blob)
        link = try container.decode(URL.self, forKey: .link)
        amount = try container.decode(Decimal.self, forKey: .amount)
        tags = try container.decode([String].self, forKey: .tags)
        numbers = try container.decode(Set<Int>.self, forKey: .numbers)
        map = try container.decode([String: Int].self, forKey: .map)
        child = try container.decodeIfPresent(GenChildTwin.self, forKey: .child)
        children = try container.decode([GenChildTwin].self, forKey: .children)
        defaulted = try container.decode(Int.self, forKey: .defaulted)
    }

    static let validation = Validation<GenItemTwin> {
        Field("count", Rule<Int>.range(0...100))
        Field("label", Rule<String>.length(1...5))
        Field("label", Rule<String>.displaySafe())
        Field("note", Rule<String>.length(1...3))
        Field("tags", Rule<[String]>.each(.length(1...3)))
        Field("children", Rule<[GenChildTwin]>.count(0...2))
    }
}


/// The byte reader and the tape's generated body on `Model`, and `Twin`'s `init(from:)` on the
/// tape: `nil` when all three agree, otherwise what each gave.
func twinDifference<Model: Codable, Twin: Codable>(_ model: Model.Type, _ twin: Twin.Type, _ bytes: [UInt8], _ options: DecoderOptions) -> String? {
    let bytesSide = TwinOutcome { try options.decoder(generated: true).decode(Model.self, from: bytes) }
    let tape = TwinOutcome { try options.decoder(generated: true, direct: false).decode(Model.self, from: bytes) }
    let handWritten = TwinOutcome { try options.decoder(generated: true).decode(Twin.self, from: bytes) }
    guard bytesSide != handWritten || tape != handWritten else { return nil }
    return "\(Model.self) under \(options):\n  bytes: \(bytesSide)\n  tape: \(tape)\n  twin: \(handWritten)"
}
