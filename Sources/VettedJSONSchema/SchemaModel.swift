import VettedCore
import VettedJSON
import VettedRules

/// The JSON Schema dialects a schema may declare with `$schema`.
public enum JSONSchemaDraft: String, Sendable, Hashable, CaseIterable {
    case draft2020_12 = "https://json-schema.org/draft/2020-12/schema"
    case draft7 = "http://json-schema.org/draft-07/schema"

    init?(metaschema: String) {
        var text = metaschema
        if text.hasSuffix("#") { text.removeLast() }
        switch text {
        case Self.draft2020_12.rawValue, "http://json-schema.org/draft/2020-12/schema": self = .draft2020_12
        case Self.draft7.rawValue, "https://json-schema.org/draft-07/schema": self = .draft7
        default: return nil
        }
    }
}

/// The JSON types of the `type` keyword, as bits.
struct TypeSet: OptionSet, Sendable, Hashable {
    let rawValue: UInt8
    static let null = TypeSet(rawValue: 1)
    static let boolean = TypeSet(rawValue: 2)
    static let object = TypeSet(rawValue: 4)
    static let array = TypeSet(rawValue: 8)
    static let number = TypeSet(rawValue: 16)
    static let string = TypeSet(rawValue: 32)
    static let integer = TypeSet(rawValue: 64)

    init(rawValue: UInt8) { self.rawValue = rawValue }

    init?(name: String) {
        switch name {
        case "null": self = .null
        case "boolean": self = .boolean
        case "object": self = .object
        case "array": self = .array
        case "number": self = .number
        case "string": self = .string
        case "integer": self = .integer
        default: return nil
        }
    }

    var names: [String] {
        let all: [(TypeSet, String)] = [
            (.null, "null"), (.boolean, "boolean"), (.object, "object"), (.array, "array"), (.number, "number"),
            (.string, "string"), (.integer, "integer"),
        ]
        return all.filter { contains($0.0) }.map(\.1)
    }
}

/// One compiled keyword of a schema object. Subschemas are node indexes.
/// Indirect: a keyword is one reference, so reading one from a node is a single retain.
indirect enum Keyword: Sendable {
    case type(TypeSet)
    /// The canonical texts of the allowed values, and the allowed strings as they are (a string instance's fast path).
    case enumeration(Set<CodePoints>, strings: Set<CodePoints>, count: Int)
    case constant(CodePoints)
    case multipleOf(ExactNumber, literal: String)
    case maximum(ExactNumber, literal: String, exclusive: Bool)
    case minimum(ExactNumber, literal: String, exclusive: Bool)
    case maxLength(Int)
    case minLength(Int)
    /// The pattern, and its source as an error shows it (escaped once, when the schema is compiled).
    case pattern(LinearPattern, escaped: String)
    case format(String)
    case maxItems(Int)
    case minItems(Int)
    case uniqueItems
    case maxProperties(Int)
    case minProperties(Int)
    case required([String])
    case dependentRequired([(String, [String])])

    case reference(target: Int, uri: String)
    case dynamicReference(target: Int, anchor: String?, uri: String)
    case allOf([Int])
    case anyOf([Int])
    case oneOf([Int])
    case not(Int)
    case conditional(condition: Int, then: Int?, otherwise: Int?)
    case dependentSchemas([(String, Int)])
    /// `properties`, `patternProperties` and `additionalProperties` together: the last depends on the first two.
    case objectShape(properties: [String: Int], patterns: [(LinearPattern, String, Int)], additional: Int?)
    case propertyNames(Int)
    /// `prefixItems` and `items` (draft 7: `items` as an array, then `additionalItems`).
    case arrayShape(prefix: [Int], rest: Int?, restKeyword: String)
    case contains(Int, minimum: Int, maximum: Int?)
    case unevaluatedProperties(Int)
    case unevaluatedItems(Int)
}

extension Keyword {
    /// When a keyword is evaluated among its node's: what looks at the value itself, then
    /// what applies subschemas, then what counts the members or elements, then `contains`,
    /// and `unevaluated*` last (they read what the others evaluated). A stream meets them in
    /// this order too — the value's first byte, its members, its end — so a document
    /// validated from its bytes reports its errors in the order a parsed value does.
    var rank: Int {
        switch self {
        case .reference, .dynamicReference, .type, .enumeration, .constant, .multipleOf, .maximum, .minimum, .maxLength, .minLength,
            .pattern, .format:
            0
        case .allOf, .anyOf, .oneOf, .not, .conditional, .dependentSchemas, .objectShape, .propertyNames, .arrayShape: 1
        case .maxItems, .minItems, .uniqueItems, .maxProperties, .minProperties, .required, .dependentRequired: 2
        case .contains: 3
        case .unevaluatedItems, .unevaluatedProperties: 4
        }
    }

    /// `keywords` by ``rank``, in their order within a rank (a `$ref`'s index does not move: its rank is the first).
    static func inEvaluationOrder(_ keywords: [Keyword]) -> [Keyword] {
        keywords.enumerated().sorted { ($0.element.rank, $0.offset) < ($1.element.rank, $1.offset) }.map(\.element)
    }
}

/// A compiled schema object or Boolean schema.
struct SchemaNode: Sendable {
    /// `true` or `false` for a Boolean schema; `nil` for an object.
    var constant: Bool?
    var keywords: [Keyword] = []
    /// Where the schema is: its document's URI (empty for the root document) and the JSON Pointer inside it.
    var document: String
    var pointer: String
    /// The schema resource it belongs to (for the dynamic scope).
    var resource: Int
    /// The `$dynamicAnchor` this object declares, if any.
    var dynamicAnchor: String?
    /// Whether it holds `unevaluatedProperties` or `unevaluatedItems`: then the schemas applied
    /// in place report what they evaluated.
    var needsAnnotations = false
    /// Reached through more than one applicator: its outcomes are remembered per instance
    /// location, so that shared subschemas never cost more than once each.
    var memoized = false

    /// The most UTF-8 bytes of an error's `schemaLocation` parameter.
    static let locationBytes = 200

    /// ``schemaLocation`` escaped for an error's parameters, made once when the schema is
    /// compiled; `nil` when escaping it would cut it (then each error escapes its own).
    var escapedLocation: String?

    var schemaLocation: String { document.isEmpty ? pointer : document + "#" + pointer }

    /// The `schemaLocation` an error under `keyword` reports: escaped, at most `maximumBytes`.
    /// Static, with the node's parts as arguments, so that an error does not copy its node.
    static func reportedLocation(
        _ escapedLocation: String?, _ keyword: String, maximumBytes: Int, whole schemaLocation: @autoclosure () -> String
    ) -> String {
        // Escaping goes character by character and a keyword needs none: when nothing is cut,
        // the escaped location and the keyword put together are the escaped whole. (No byte
        // escapes to more than four: a cut is seen by the length.)
        if let escapedLocation, escapedLocation.utf8.count + 1 + keyword.utf8.count <= maximumBytes {
            if keyword.isEmpty { return escapedLocation }
            var location = ""
            location.reserveCapacity(escapedLocation.utf8.count + 1 + keyword.utf8.count)
            location += escapedLocation
            location += "/"
            location += keyword
            return location
        }
        return Excerpt.escape(schemaLocation() + (keyword.isEmpty ? "" : "/" + keyword), maximumBytes: maximumBytes)
    }

    /// Sets ``escapedLocation``.
    mutating func escapeLocation(maximumBytes: Int) {
        let location = schemaLocation
        let escaped = Excerpt.escape(location, maximumBytes: Swift.max(maximumBytes, SchemaEvaluator.quadruple(location.utf8.count)))
        escapedLocation = escaped.utf8.count <= maximumBytes ? escaped : nil
    }
}

/// A schema resource: a document or a subschema with its own `$id`.
struct SchemaResource: Sendable {
    var uri: String
    var dynamicAnchors: [String: Int] = [:]
}
