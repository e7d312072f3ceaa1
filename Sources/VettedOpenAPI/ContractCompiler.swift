#if OpenAPI  // the trait that brings in swift-openapi-runtime and Yams (Package.swift)
import Vetted

/// Compiles each operation of a document: its parameters, request body and responses,
/// every schema of them through ``JSONSchema`` with the document as its one resource.
struct ContractCompiler {
    let document: OpenAPIDocument
    let options: OpenAPIContract.Options
    /// Property schemas whose `default` was already checked, by pointer.
    private var checkedDefaults: Set<String> = []

    init(document: OpenAPIDocument, options: OpenAPIContract.Options) {
        self.document = document
        self.options = options
    }

    mutating func operations() throws(VettedError) -> [String: Operation] {
        var operations: [String: Operation] = [:]
        guard case .object(let paths)? = document.json["paths"] else { return [:] }
        for entry in paths {
            let itemPointer = "/paths/" + OpenAPIDocument.escape(entry.key)
            let (item, resolvedItem) = try document.resolved(entry.value, at: itemPointer, what: "path \(Excerpt.escape(entry.key, maximumBytes: 80))")
            guard case .object(let pathItem) = item else { continue }
            for method in OpenAPIDocument.methods {
                guard let operationValue = pathItem[method] else { continue }
                guard case .object(let operation) = operationValue else {
                    throw VettedError(code: .invalidOpenAPIDocument, message: "\(method.uppercased()) \(Excerpt.escape(entry.key, maximumBytes: 80)) is not an object")
                }
                let id = operation["operationId"]?.stringValue ?? method + entry.key
                let label = "operation \(Excerpt.escape(id, maximumBytes: 80)) (\(method.uppercased()) \(Excerpt.escape(entry.key, maximumBytes: 80)))"
                guard operations[id] == nil else {
                    throw VettedError(code: .invalidOpenAPIDocument, message: "\(label): its operationId is used twice")
                }
                let pointer = resolvedItem + "/" + method
                do throws(VettedError) {
                    operations[id] = Operation(
                        id: id, method: method, path: entry.key,
                        parameters: try parameters(pathItem["parameters"], at: resolvedItem + "/parameters", operation["parameters"], at: pointer + "/parameters"),
                        body: try body(operation["requestBody"], at: pointer + "/requestBody"),
                        responses: try responses(operation["responses"], at: pointer + "/responses"))
                } catch {
                    var named = VettedError(code: error.code, path: error.path, message: "\(label): \(error.message)")
                    named.parameters = error.parameters
                    named.parameters["operation"] = .string(Excerpt.escape(id, maximumBytes: 200))
                    throw named
                }
            }
        }
        return operations
    }

    // MARK: Schemas

    /// The schema at `pointer` compiled on its own, the document its resource; its defaults checked.
    /// The schema at `pointer`, compiled as requests read the document, or as responses do
    /// (`forResponse`: they differ in a 3.0 document's `readOnly` and `writeOnly` properties).
    mutating func schema(at pointer: String, what: String, forResponse: Bool = false) throws(VettedError) -> JSONSchema {
        let compiled: JSONSchema
        do throws(VettedError) {
            compiled = try JSONSchema(
                document.schemaRoot(at: pointer), resources: [OpenAPIDocument.base: forResponse ? document.responseJSON : document.json],
                options: JSONSchema.Options(defaultDraft: .draft2020_12, assertFormats: options.assertFormats, limits: options.limits))
        } catch {
            var named = VettedError(code: error.code, message: "\(what): \(error.message)")
            named.parameters = error.parameters.mapValues(Self.shortLocation)
            throw named
        }
        try checkDefaults(at: pointer, depth: 0)
        return compiled
    }

    /// `schemaLocation` as a fragment of the document (`#/components/schemas/Listing/…`).
    static func shortLocation(_ parameter: RuleParameter) -> RuleParameter {
        guard case .string(let text) = parameter, text.hasPrefix(OpenAPIDocument.base) else { return parameter }
        let rest = text.dropFirst(OpenAPIDocument.base.count)
        return .string(String(rest.hasPrefix("#") ? rest : "#" + rest))
    }

    /// Every `default` of a property reachable from the schema at `pointer` (through
    /// properties, items, the applicators and `$ref`) validated against the property's own
    /// schema: one that breaks it is the document's error, found now rather than filled in later.
    private mutating func checkDefaults(at pointer: String, depth: Int) throws(VettedError) {
        guard depth < options.limits.effectiveMaxDepth, checkedDefaults.insert(pointer).inserted, let value = document.value(at: pointer) else { return }
        guard case .object(let schema) = value else { return }
        if case .string(let reference)? = schema["$ref"], reference.hasPrefix("#"), let target = OpenAPIDocument.fragmentPointer(reference) {
            try checkDefaults(at: target, depth: depth + 1)
        }
        if let value = schema["default"] {
            let own = try JSONSchema(
                document.schemaRoot(at: pointer), resources: [OpenAPIDocument.base: document.json],
                options: JSONSchema.Options(defaultDraft: .draft2020_12, assertFormats: options.assertFormats, limits: options.limits))
            let report = own.validate(value, mode: .failFast)
            if let first = report.errors.first {
                var error = VettedError(
                    code: .defaultBreaksRule,
                    message: "the default at #\(Excerpt.escape(pointer, maximumBytes: 120, quotes: false)) breaks its own schema: \(first.message)")
                error.parameters["schemaLocation"] = .string("#" + pointer)
                throw error
            }
        }
        if case .object(let properties)? = schema["properties"] {
            for property in properties { try checkDefaults(at: pointer + "/properties/" + OpenAPIDocument.escape(property.key), depth: depth + 1) }
        }
        for key in ["items", "additionalProperties"] where schema[key] != nil { try checkDefaults(at: pointer + "/" + key, depth: depth + 1) }
        for key in ["allOf", "anyOf", "oneOf", "prefixItems"] {
            guard case .array(let members)? = schema[key] else { continue }
            for index in members.indices { try checkDefaults(at: pointer + "/\(key)/\(index)", depth: depth + 1) }
        }
    }

    // MARK: Parameters

    /// The path item's parameters with the operation's (which win by name and location).
    private mutating func parameters(_ shared: JSONValue?, at sharedPointer: String, _ own: JSONValue?, at ownPointer: String) throws(VettedError)
        -> [CompiledParameter]
    {
        var byKey: [String: Int] = [:]
        var compiled: [CompiledParameter] = []
        for (list, pointer) in [(shared, sharedPointer), (own, ownPointer)] {
            guard let list else { continue }
            guard case .array(let elements) = list else {
                throw VettedError(code: .invalidOpenAPIDocument, message: "\"parameters\" is not an array")
            }
            for index in elements.indices {
                let parameter = try self.parameter(elements[index], at: pointer + "/\(index)")
                let key = parameter.location.rawValue + "\u{0}" + (parameter.location == .header ? parameter.name.lowercased() : parameter.name)
                if let existing = byKey[key] {
                    compiled[existing] = parameter
                } else {
                    byKey[key] = compiled.count
                    compiled.append(parameter)
                }
            }
        }
        return compiled
    }

    private mutating func parameter(_ value: JSONValue, at pointer: String) throws(VettedError) -> CompiledParameter {
        let (resolved, at) = try document.resolved(value, at: pointer, what: "a parameter")
        guard case .object(let object) = resolved, case .string(let name)? = object["name"], case .string(let place)? = object["in"],
            let location = ParameterLocation(rawValue: place)
        else {
            throw VettedError(code: .invalidOpenAPIDocument, message: "the parameter at #\(Excerpt.escape(at, maximumBytes: 120, quotes: false)) has no name or no known \"in\"")
        }
        let what = "\(place) parameter \(Excerpt.escape(name, maximumBytes: 80))"
        guard object["content"] == nil else {
            throw VettedError(code: .invalidOpenAPIDocument, message: "\(what) is described by \"content\", which Vetted does not check yet; describe it by \"schema\"")
        }
        let required = location == .path || object["required"] == .bool(true)
        guard object["schema"] != nil else {
            return CompiledParameter(name: name, location: location, required: required, schema: nil, kind: .string, elements: nil, explode: false)
        }
        let schemaPointer = at + "/schema"
        let style = object["style"]?.stringValue ?? (location == .query || location == .cookie ? "form" : "simple")
        let explode = object["explode"]?.boolValue ?? (style == "form")
        let type = try shapeType(at: schemaPointer, what: what)
        var kind = ParameterKind.string
        var elements: ParameterKind?
        switch type {
        case "array":
            guard style == "form" || style == "simple" else {
                throw VettedError(code: .invalidOpenAPIDocument, message: "\(what) has style \(Excerpt.escape(style)), which Vetted does not read; use form or simple")
            }
            elements = Self.kind(try shapeType(at: schemaPointer + "/items", what: what))
        case "object":
            throw VettedError(code: .invalidOpenAPIDocument, message: "\(what) is an object, which Vetted does not check yet")
        default:
            kind = Self.kind(type)
        }
        return CompiledParameter(
            name: name, location: location, required: required, schema: try schema(at: schemaPointer, what: what), kind: kind, elements: elements,
            explode: explode)
    }

    static func kind(_ type: String?) -> ParameterKind {
        switch type {
        case "integer": .integer
        case "number": .number
        case "boolean": .boolean
        default: .string
        }
    }

    /// The JSON type a parameter's schema names (through `$ref`s and a nullable type list): what its text is read as.
    private func shapeType(at pointer: String, what: String) throws(VettedError) -> String? {
        guard let value = document.value(at: pointer) else { return nil }
        let (schema, _) = try document.resolved(value, at: pointer, what: what)
        guard case .object(let object) = schema else { return nil }
        switch object["type"] {
        case .string(let type)?: return type
        case .array(let types)?: return types.compactMap(\.stringValue).first { $0 != "null" }
        default:
            if object["items"] != nil { return "array" }
            if object["properties"] != nil { return "object" }
            return nil
        }
    }

    // MARK: Bodies and responses

    private mutating func body(_ value: JSONValue?, at pointer: String) throws(VettedError) -> CompiledBody? {
        guard let value else { return nil }
        let (resolved, at) = try document.resolved(value, at: pointer, what: "the request body")
        guard case .object(let object) = resolved else {
            throw VettedError(code: .invalidOpenAPIDocument, message: "the request body is not an object")
        }
        let media = try content(object["content"], at: at + "/content", what: "the request body", checked: true)
        return CompiledBody(required: object["required"] == .bool(true), media: media)
    }

    private mutating func responses(_ value: JSONValue?, at pointer: String) throws(VettedError) -> [String: [CompiledMedia]] {
        guard case .object(let responses)? = value else { return [:] }
        var compiled: [String: [CompiledMedia]] = [:]
        for entry in responses {
            let what = "response \(Excerpt.escape(entry.key, maximumBytes: 20))"
            let (resolved, at) = try document.resolved(entry.value, at: pointer + "/" + OpenAPIDocument.escape(entry.key), what: what)
            guard case .object(let response) = resolved else { continue }
            compiled[entry.key.uppercased() == entry.key ? entry.key : entry.key.lowercased()] = try content(
                response["content"], at: at + "/content", what: what, checked: false)
        }
        return compiled
    }

    /// A `content` map's media types, their schemas and, for a request (`checked`), where a body's
    /// defaults come from. For a request, a schema on a media type other than JSON must say no
    /// more than "bytes", unless the options name it.
    private mutating func content(_ value: JSONValue?, at pointer: String, what: String, checked: Bool) throws(VettedError) -> [CompiledMedia] {
        guard case .object(let content)? = value else { return [] }
        var media: [CompiledMedia] = []
        for entry in content {
            let range = entry.key.lowercased()
            let isJSON = VettedMediaType.isJSON(range)
            let schemaPointer = pointer + "/" + OpenAPIDocument.escape(entry.key) + "/schema"
            guard case .object(let object) = entry.value, object["schema"] != nil else {
                media.append(CompiledMedia(range: range, schema: nil, defaults: nil, isJSON: isJSON))
                continue
            }
            let name = "\(what), \(Excerpt.escape(entry.key, maximumBytes: 80))"
            if !isJSON {
                if checked, !options.uncheckedMediaTypes.contains(range), !saysOnlyBytes(at: schemaPointer) {
                    throw VettedError(
                        code: .invalidOpenAPIDocument,
                        message: "\(name): only JSON bodies are checked, and this schema has constraints; name the media type in Options.uncheckedMediaTypes to pass it on unchecked")
                }
                media.append(CompiledMedia(range: range, schema: nil, defaults: nil, isJSON: false))
                continue
            }
            let compiled = try schema(at: schemaPointer, what: name, forResponse: !checked)
            media.append(
                CompiledMedia(range: range, schema: compiled, defaults: checked ? DefaultPlan(document: document, pointer: schemaPointer) : nil, isJSON: true))
        }
        return media
    }

    /// Whether a schema describes opaque bytes only: `type: string` with annotations (`format: binary`).
    private func saysOnlyBytes(at pointer: String) -> Bool {
        guard case .object(let object)? = document.value(at: pointer) else { return document.value(at: pointer) == .bool(true) }
        let annotations: Set<String> = ["format", "description", "title", "example", "examples", "contentMediaType", "contentEncoding"]
        return object.allSatisfy { member in
            member.key == "type" ? member.value == .string("string") : annotations.contains(member.key)
        }
    }
}
#endif
