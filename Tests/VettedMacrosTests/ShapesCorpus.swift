import Foundation
import VettedCore
@_spi(Testing) import VettedJSON
import VettedMacros
@_spi(Testing) import VettedPlist

// The types and paths of the shape tests (tagged unions, defaults, aliases),
// shared by the tests and the `generated` fuzz target (scripts/fuzz.sh).

@Vetted struct TestCreated: Codable, Equatable {
    @Check(.range(1...1_000_000)) var id: Int
    @Check(.length(1...200)) var name: String
}

@Vetted struct TestSold: Codable, Equatable {
    @Check(.range(1...1_000_000)) var id: Int
    @Check(.range(0...1_000_000)) var price: Int
}

@Vetted(tag: "type") enum TestEvent: Codable, Equatable {
    case created(TestCreated)
    @Tag("listing.sold") case sold(TestSold)
}

@Vetted(tag: "type", content: "data") enum WrappedEvent: Codable, Equatable {
    case created(TestCreated)
    @Tag("listing.sold") case sold(TestSold)
    @UnknownTag case other(String)
}

/// More cases than a small table holds: the byte reader finds the tag by hash.
@Vetted(tag: "type") enum WideEvent: Codable, Equatable {
    case c0(TestCreated)
    case c1(TestCreated)
    case c2(TestCreated)
    case c3(TestCreated)
    case c4(TestCreated)
    case c5(TestCreated)
    case c6(TestCreated)
    case c7(TestCreated)
    case c8(TestCreated)
    case c9(TestCreated)
    case c10(TestCreated)
    case c11(TestCreated)
    case c12(TestCreated)
    case c13(TestCreated)
    case c14(TestCreated)
    case c15(TestCreated)
    case c16(TestCreated)
    case c17(TestCreated)
    case c18(TestCreated)
    @Tag("listing.sold") case sold(TestSold)
    @Tag("é") case accented(TestSold)
}

/// Defaults and aliases: a page of results as an API that renamed its keys sends it.
@Vetted struct Page: Codable, Equatable {
    @Check(.range(1...100)) @Default(20) var limit: Int
    @Check(.range(1...1_000)) @Alias("productId", "product_id") var id: Int
    @Default("en") @Alias("lang") var language: String
    var note: String?
    @Default([]) var tags: [String]
}

/// A default the macro cannot check (its rule is made elsewhere): refused when first used.
@Vetted struct HiddenDefault: Codable, Equatable {
    static let positive = Rule<Int>.range(1...10)
    @Check(.rule(HiddenDefault.positive)) @Default(HiddenDefault.zero) var count: Int
    var name: String
    static var zero: Int { 0 }
}

/// One way to decode a document, and what it gave: a value, or each error's code and path.
enum ShapePath: String, CaseIterable, CustomStringConvertible {
    case bytes, tape, binaryPlist, xmlPlist
    var description: String { rawValue }

    /// The paths that can say the same of `json`: a property list has no repeated keys,
    /// so a JSON document with one (a `duplicateKey` there) is compared on the JSON paths only.
    /// So is one whose `at` member is not the shapes' date: a date is a string in JSON and
    /// a date in a property list, and each says in its own words that another value is none.
    static func comparable(for json: String) -> [ShapePath] {
        guard let value = try? JSONParser().parse(Data(json.utf8)) else { return [.bytes, .tape] }
        var pending = [value]
        while let next = pending.popLast() {
            switch next {
            case .array(let elements): pending += elements
            case .object(let object):
                for (key, member) in zip(object.keys, object.values) {
                    if key == "at", member != .string(shapeDateText) { return [.bytes, .tape] }
                    pending.append(member)
                }
            default: break
            }
        }
        return allCases
    }

    func decode<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
        switch self {
        case .bytes, .tape:
            let decoder = VettedJSONDecoder()
            decoder.directDecoding = self == .bytes
            decoder.dateDecodingStrategy = .iso8601
            return try decoder.decode(T.self, from: Data(json.utf8))
        case .binaryPlist, .xmlPlist:
            var parser = JSONParser()
            parser.options.duplicateKeys = .keepLast
            guard let parsed = try? parser.parse(Data(json.utf8)) else { throw VettedError(code: .unexpectedCharacter, message: "not JSON") }
            let value = Self.plist(parsed)
            let bytes = self == .binaryPlist ? PlistWriter.binary(value) : try PlistWriter.xml(value)
            return try VettedPropertyListDecoder().decode(T.self, from: bytes)
        }
    }

    /// A document as a property list: `null` is Foundation's `"$null"`, integers are
    /// integers, other numbers reals, the date string of an `at` member a date.
    static func plist(_ value: JSONValue, key: String? = nil) -> PlistValue {
        switch value {
        case .string(shapeDateText) where key == "at": return .date(shapeDate)
        case .array(let elements): return .array(elements.map { plist($0) })
        case .object(let object):
            return .dictionary(PlistDictionary(zip(object.keys, object.values).map { PlistDictionary.Entry(key: $0, value: plist($1, key: $0)) }))
        default: return plistScalar(value)
        }
    }

    /// A scalar as the JSON-to-plist differentials write it: `null` is Foundation's
    /// `"$null"`, integers are integers, other numbers reals (out of range: infinity);
    /// a container as ``plist(_:key:)`` writes it.
    static func plistScalar(_ value: JSONValue) -> PlistValue {
        switch value {
        case .bool(let bool): return .bool(bool)
        case .string(let string): return .string(string)
        case .number(let number):
            if let integer = try? number.int64Value { return .integer(PlistInteger(integer)) }
            if let unsigned = try? number.uint64Value { return .integer(PlistInteger(unsigned)) }
            return .real((try? number.doubleValue) ?? .infinity)
        case .null: return .string("$null")
        case .array, .object: return plist(value)
        }
    }

    /// The value, or the errors as `code path` (offsets differ between formats).
    func outcome<T: Decodable & Equatable>(_ type: T.Type, _ json: String) -> ShapeOutcome<T> {
        do {
            return .value(try decode(T.self, json))
        } catch let error as DecodingError {
            guard let vetted = error.vettedError else { return .errors(["\(error)"]) }
            return .errors(["\(vetted.code) \(vetted.path)"])
        } catch let error as ValidationErrors {
            return .errors(error.errors.map { "\($0.code) \($0.path)" })
        } catch {
            return .errors(["\(error)"])
        }
    }
}

/// The date of the shape tests' documents: an ISO 8601 string in JSON, a date in property lists.
let shapeDateText = "2020-01-01T00:00:00Z"
let shapeDate = Date(timeIntervalSince1970: 1_577_836_800)

enum ShapeOutcome<T: Equatable>: Equatable {
    case value(T)
    case errors([String])
}

