#if OpenAPI  // the trait that brings in swift-openapi-runtime and Yams (Package.swift)
import Foundation
import VettedCore
import VettedJSON

/// An OpenAPI document read as JSON, its schemas in JSON Schema 2020-12's terms, and the
/// walk over its operations.
struct OpenAPIDocument: Sendable {
    enum Version: Sendable { case v3_0, v3_1 }

    /// The address the document is known by while its schemas compile: `$ref`s inside it resolve against it.
    static let base = "https://vetted.invalid/openapi.json"
    static let methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]
    /// `$ref`s followed in a row before the chain counts as a cycle.
    static let maximumReferenceHops = 64

    let version: Version
    /// The document, with OpenAPI 3.0's schemas rewritten to 2020-12: as requests read it.
    let json: JSONValue
    /// The document as responses read it. The same as ``json`` but for 3.0, where a property
    /// that is `readOnly` is required of responses only, and one that is `writeOnly` of requests only.
    let responseJSON: JSONValue

    init(_ json: JSONValue) throws(VettedError) {
        guard case .object(let root) = json else {
            throw VettedError(code: .invalidOpenAPIDocument, message: "the document is \(json.kindName), not an object")
        }
        guard case .string(let declared)? = root["openapi"] else {
            throw VettedError(code: .invalidOpenAPIDocument, message: "the document has no \"openapi\" version (Swagger 2.0 is not read)")
        }
        if declared.hasPrefix("3.0.") || declared == "3.0" {
            version = .v3_0
            self.json = try Self.rewritten30(json, requiredOf: .request)
            responseJSON = try Self.rewritten30(json, requiredOf: .response)
        } else if declared.hasPrefix("3.1.") || declared == "3.1" {
            version = .v3_1
            self.json = json
            responseJSON = json
        } else {
            throw VettedError(code: .invalidOpenAPIDocument, message: "OpenAPI \(Excerpt.escape(declared)) is not read; Vetted reads 3.0 and 3.1")
        }
    }

    // MARK: References

    /// The value at a JSON Pointer into the document.
    func value(at pointer: String) -> JSONValue? { Self.value(at: pointer, in: json) }

    static func value(at pointer: String, in json: JSONValue) -> JSONValue? {
        guard let tokens = Self.tokens(pointer) else { return nil }
        var value = json
        for token in tokens {
            switch value {
            case .object(let object):
                guard let member = object[token] else { return nil }
                value = member
            case .array(let elements):
                guard let index = Int(token), elements.indices.contains(index) else { return nil }
                value = elements[index]
            default:
                return nil
            }
        }
        return value
    }

    /// `value` with its `$ref` chain followed (a Reference Object), and the pointer it ends at.
    func resolved(_ value: JSONValue, at pointer: String, what: String) throws(VettedError) -> (JSONValue, String) {
        var value = value
        var pointer = pointer
        var hops = 0
        while case .object(let object) = value, case .string(let reference)? = object["$ref"] {
            hops += 1
            guard hops <= Self.maximumReferenceHops else {
                throw VettedError(code: .unresolvableReference, message: "\(what): its $ref chain is a cycle or longer than \(Self.maximumReferenceHops)")
            }
            guard reference.hasPrefix("#"), let target = Self.fragmentPointer(reference), let next = self.value(at: target) else {
                throw VettedError(
                    code: .unresolvableReference,
                    message: "\(what): \(Excerpt.escape(reference, maximumBytes: 120)) names nothing in this document (other documents are not fetched: bundle them)")
            }
            value = next
            pointer = target
        }
        return (value, pointer)
    }

    /// `#/a/b%20c` as the JSON Pointer `/a/b c`; `nil` if it is not one.
    static func fragmentPointer(_ reference: String) -> String? {
        guard let decoded = String(reference.dropFirst()).removingPercentEncoding else { return nil }
        return decoded.isEmpty || decoded.hasPrefix("/") ? decoded : nil
    }

    static func tokens(_ pointer: String) -> [String]? {
        if pointer.isEmpty { return [] }
        guard pointer.hasPrefix("/") else { return nil }
        return pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map {
            $0.contains("~") ? $0.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~") : String($0)
        }
    }

    static func escape(_ token: String) -> String {
        token.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }

    /// A pointer as a URI fragment: every byte outside RFC 3986's fragment characters percent-encoded.
    static func fragment(_ pointer: String) -> String {
        var out = ""
        for byte in pointer.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".unicodeScalars)
                out += "%"
                out.unicodeScalars.append(hex[Int(byte >> 4)])
                out.unicodeScalars.append(hex[Int(byte & 0x0F)])
            }
        }
        return out
    }

    /// A schema of the document as a root of its own: a `$ref` to it, the document its resource.
    func schemaRoot(at pointer: String) -> JSONValue {
        .object(["$ref": .string(Self.base + "#" + Self.fragment(pointer))])
    }

    // MARK: OpenAPI 3.0's schemas in 2020-12's terms

    /// Which messages a 3.0 view of the document is for.
    enum Direction {
        case request, response

        /// The flag that takes a property out of `required` in this direction (OpenAPI 3.0.3,
        /// Schema Object: "the required will take effect on the response only", and the reverse).
        var exempting: String { self == .request ? "readOnly" : "writeOnly" }
    }

    /// Rewrites every Schema Object of a 3.0 document: `nullable: true` adds `"null"` to
    /// `type` (and `null` to `enum`); a boolean `exclusiveMinimum`/`exclusiveMaximum` becomes
    /// the number form; a `$ref`'s siblings are dropped, as 3.0 ignores them; a required property
    /// that is `readOnly` (for requests) or `writeOnly` (for responses) is not required.
    static func rewritten30(_ json: JSONValue, requiredOf direction: Direction) throws(VettedError) -> JSONValue {
        let schema30: (JSONValue) throws(VettedError) -> JSONValue = { (value) throws(VettedError) -> JSONValue in
            try Self.schema30(value, exempting: direction.exempting, in: json)
        }
        let parameter30: (JSONValue) throws(VettedError) -> JSONValue = { (value) throws(VettedError) -> JSONValue in
            try Self.parameter30(value, schema30)
        }
        let content30: (JSONValue) throws(VettedError) -> JSONValue = { (value) throws(VettedError) -> JSONValue in
            try Self.content30(value, schema30)
        }
        let response30: (JSONValue) throws(VettedError) -> JSONValue = { (value) throws(VettedError) -> JSONValue in
            try Self.response30(value, schema30)
        }
        guard case .object(var root) = json else { return json }
        if case .object(var components)? = root["components"] {
            if case .object(let schemas)? = components["schemas"] { components["schemas"] = .object(try map(schemas, schema30)) }
            for kind in ["parameters", "headers"] {
                if case .object(let items)? = components[kind] { components[kind] = .object(try map(items, parameter30)) }
            }
            if case .object(let bodies)? = components["requestBodies"] { components["requestBodies"] = .object(try map(bodies, content30)) }
            if case .object(let responses)? = components["responses"] { components["responses"] = .object(try map(responses, response30)) }
            root["components"] = .object(components)
        }
        if case .object(let paths)? = root["paths"] {
            root["paths"] = .object(
                try map(paths) { (item) throws(VettedError) -> JSONValue in
                    guard case .object(var item) = item else { return item }
                    if case .array(let parameters)? = item["parameters"] { item["parameters"] = .array(try parameters.map(parameter30)) }
                    for method in methods {
                        guard case .object(var operation)? = item[method] else { continue }
                        if case .array(let parameters)? = operation["parameters"] { operation["parameters"] = .array(try parameters.map(parameter30)) }
                        if let body = operation["requestBody"] { operation["requestBody"] = try content30(body) }
                        if case .object(let responses)? = operation["responses"] { operation["responses"] = .object(try map(responses, response30)) }
                        item[method] = .object(operation)
                    }
                    return .object(item)
                })
        }
        return .object(root)
    }

    private static func map(_ object: JSONObject, _ transform: (JSONValue) throws(VettedError) -> JSONValue) throws(VettedError) -> JSONObject {
        var out = JSONObject()
        for member in object { out[member.key] = try transform(member.value) }
        return out
    }

    typealias Rewrite = (JSONValue) throws(VettedError) -> JSONValue

    private static func parameter30(_ value: JSONValue, _ schema30: Rewrite) throws(VettedError) -> JSONValue {
        guard case .object(var parameter) = value, parameter["$ref"] == nil else { return value }
        if let schema = parameter["schema"] { parameter["schema"] = try schema30(schema) }
        if case .object(let content)? = parameter["content"] {
            parameter["content"] = .object(try map(content) { (media) throws(VettedError) -> JSONValue in try media30(media, schema30) })
        }
        return .object(parameter)
    }

    private static func content30(_ value: JSONValue, _ schema30: Rewrite) throws(VettedError) -> JSONValue {
        guard case .object(var body) = value, body["$ref"] == nil else { return value }
        if case .object(let content)? = body["content"] {
            body["content"] = .object(try map(content) { (media) throws(VettedError) -> JSONValue in try media30(media, schema30) })
        }
        return .object(body)
    }

    private static func response30(_ value: JSONValue, _ schema30: Rewrite) throws(VettedError) -> JSONValue {
        guard case .object(var response) = try content30(value, schema30), response["$ref"] == nil else { return value }
        if case .object(let headers)? = response["headers"] {
            response["headers"] = .object(try map(headers) { (header) throws(VettedError) -> JSONValue in try parameter30(header, schema30) })
        }
        return .object(response)
    }

    private static func media30(_ value: JSONValue, _ schema30: Rewrite) throws(VettedError) -> JSONValue {
        guard case .object(var media) = value, let schema = media["schema"] else { return value }
        media["schema"] = try schema30(schema)
        return .object(media)
    }

    /// One 3.0 Schema Object and the schemas inside it (the document's depth, already bounded by
    /// its limits, bounds the recursion). A name in `required` whose property is flagged
    /// `exempting` (through its `$ref`s in `root`) is dropped from it.
    static func schema30(_ value: JSONValue, exempting: String, in root: JSONValue) throws(VettedError) -> JSONValue {
        guard case .object(var schema) = value else { return value }
        if let reference = schema["$ref"] { return .object(["$ref": reference]) }
        let schema30: Rewrite = { (value) throws(VettedError) -> JSONValue in try Self.schema30(value, exempting: exempting, in: root) }
        if case .array(let required)? = schema["required"], case .object(let properties)? = schema["properties"] {
            schema["required"] = .array(
                required.filter { name in
                    guard case .string(let key) = name, let property = properties[key] else { return true }
                    return !flagged(property, exempting, in: root)
                })
        }
        for key in ["properties", "patternProperties"] {
            if case .object(let members)? = schema[key] { schema[key] = .object(try map(members, schema30)) }
        }
        for key in ["items", "additionalProperties", "not"] {
            if let member = schema[key] { schema[key] = try schema30(member) }
        }
        for key in ["allOf", "anyOf", "oneOf"] {
            if case .array(let members)? = schema[key] { schema[key] = .array(try members.map(schema30)) }
        }
        for (bound, exclusive) in [("minimum", "exclusiveMinimum"), ("maximum", "exclusiveMaximum")] {
            switch schema[exclusive] {
            case .bool(true)?:
                guard let limit = schema[bound] else {
                    throw VettedError(code: .invalidOpenAPIDocument, message: "\(exclusive): true without \(bound)")
                }
                schema[exclusive] = limit
                schema[bound] = nil
            case .bool(false)?:
                schema[exclusive] = nil
            default:
                break
            }
        }
        if case .bool(let nullable)? = schema["nullable"] {
            schema["nullable"] = nil
            if nullable {
                if case .string(let type)? = schema["type"] { schema["type"] = .array([.string(type), .string("null")]) }
                if case .array(var values)? = schema["enum"], !values.contains(.null) {
                    values.append(.null)
                    schema["enum"] = .array(values)
                }
            }
        }
        return .object(schema)
    }

    /// Whether `schema`, or the schema its `$ref` chain names in `root`, says `flag: true`. A
    /// chain that names nothing or loops is not flagged (compiling the schema reports it).
    private static func flagged(_ schema: JSONValue, _ flag: String, in root: JSONValue) -> Bool {
        var schema = schema
        for _ in 0...maximumReferenceHops {
            guard case .object(let object) = schema else { return false }
            guard case .string(let reference)? = object["$ref"] else { return object[flag] == .bool(true) }
            guard reference.hasPrefix("#"), let target = fragmentPointer(reference), let next = value(at: target, in: root) else { return false }
            schema = next
        }
        return false
    }
}
#endif
