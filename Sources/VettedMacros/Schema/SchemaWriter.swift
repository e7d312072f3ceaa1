import Foundation

/// Writes JSON Schema 2020-12 for `@Vetted` types, as ``VettedJSONDecoder`` reads
/// them: one definition per named type (structs, raw-value enums, tagged unions),
/// referred to by `$ref`; each rule as its keyword where JSON Schema states it
/// exactly, else as an `x-vetted-<kind>` annotation with its parameters.
struct SchemaWriter {
    /// The decoder's strategies the schema describes.
    let dates: VettedJSONDecoder.DateDecodingStrategy
    let data: VettedJSONDecoder.DataDecodingStrategy
    let keys: VettedJSONDecoder.KeyDecodingStrategy
    let floats: VettedJSONDecoder.NonConformingFloatDecodingStrategy
    /// Where definitions live: `#/$defs/` or `#/components/schemas/`.
    let referencePrefix: String

    /// The named types' definitions, in the order they were first met.
    private(set) var definitions = JSONObject()
    /// Each named type's definition name.
    private var names: [ObjectIdentifier: String] = [:]
    private var taken: Set<String> = []

    init(decoder: VettedJSONDecoder, referencePrefix: String) {
        dates = decoder.dateDecodingStrategy
        data = decoder.dataDecodingStrategy
        keys = decoder.keyDecodingStrategy
        floats = decoder.nonConformingFloatDecodingStrategy
        self.referencePrefix = referencePrefix
    }

    // MARK: Types

    /// The schema of a value of `type`: inline for scalars and containers, a `$ref` for named types.
    mutating func schema(for type: Any.Type) -> JSONObject {
        if let scalar = scalarSchema(type) { return scalar }
        if let container = type as? any SchemaContainer.Type { return container.schema(in: &self) }
        if type is any VettedModel.Type || type is any _VettedRawValueEnum.Type {
            return ["$ref": .string(referencePrefix + define(type))]
        }
        return ["x-vetted-undescribed": .string("\(type) is not a @Vetted type, and not one Vetted knows how to describe")]
    }

    /// The definition name of a named type, writing its definition on first use.
    mutating func define(_ type: Any.Type) -> String {
        let id = ObjectIdentifier(type)
        if let name = names[id] { return name }
        let name = uniqueName(for: type)
        names[id] = name
        // Reserved before it is written, so that a recursive type refers to itself.
        definitions[name] = .object([:])
        definitions[name] = .object(namedSchema(type))
        return name
    }

    private mutating func uniqueName(for type: Any.Type) -> String {
        // Letters, digits, `.`, `_` and `-` only: the name sits in a URI fragment.
        let base = String(String(describing: type).map { $0.isLetter || $0.isNumber || "._-".contains($0) ? $0 : "_" })
        var name = base
        var suffix = 2
        while taken.contains(name) {
            name = "\(base)_\(suffix)"
            suffix += 1
        }
        taken.insert(name)
        return name
    }

    private mutating func namedSchema(_ type: Any.Type) -> JSONObject {
        if let strings = type as? any _VettedStringEnum.Type {
            return ["type": "string", "enum": .array(strings.__vettedRawValueBytes.rawValues.map(JSONValue.string))]
        }
        if let ints = type as? any _VettedIntEnum.Type {
            return ["type": "integer", "enum": .array(ints.__vettedRawValues.map { .number(JSONNumber($0)) })]
        }
        if let union = type as? any _VettedUnion.Type { return unionSchema(union.__vettedUnion) }
        if let model = type as? any _VettedDecodable.Type, let rules = type as? any VettedModel.Type {
            return objectSchema(model.__vettedFields, validation: ValidationView(rules))
        }
        return [
            "x-vetted-undescribed": .string(
                "\(type) decodes with its own init(from:): its fields are not known to the macro")
        ]
    }

    // MARK: Scalars

    private func scalarSchema(_ type: Any.Type) -> JSONObject? {
        if type == Bool.self { return ["type": "boolean"] }
        if type == String.self { return ["type": "string"] }
        if let bounds = integerBounds(type) {
            return ["type": "integer", "minimum": .number(bounds.minimum), "maximum": .number(bounds.maximum)]
        }
        if type == Double.self || type == Float.self || type == Decimal.self {
            var number: JSONObject = ["type": "number"]
            if case .convertFromString(let positive, let negative, let nan) = floats, type != Decimal.self {
                number = ["anyOf": [.object(number), ["enum": [.string(positive), .string(negative), .string(nan)]]]]
            }
            return number
        }
        if type == URL.self { return ["type": "string", "format": "uri-reference"] }
        if type == UUID.self { return ["type": "string", "format": "uuid"] }
        if type == Date.self { return dateSchema() }
        if type == Data.self { return dataSchema() }
        if type == JSONValue.self { return [:] }
        return nil
    }

    private func integerBounds(_ type: Any.Type) -> (minimum: JSONNumber, maximum: JSONNumber)? {
        func bounds<T: FixedWidthInteger>(_: T.Type) -> (JSONNumber, JSONNumber) { (JSONNumber(T.min), JSONNumber(T.max)) }
        switch ObjectIdentifier(type) {
        case ObjectIdentifier(Int.self): return bounds(Int.self)
        case ObjectIdentifier(Int8.self): return bounds(Int8.self)
        case ObjectIdentifier(Int16.self): return bounds(Int16.self)
        case ObjectIdentifier(Int32.self): return bounds(Int32.self)
        case ObjectIdentifier(Int64.self): return bounds(Int64.self)
        case ObjectIdentifier(UInt.self): return bounds(UInt.self)
        case ObjectIdentifier(UInt8.self): return bounds(UInt8.self)
        case ObjectIdentifier(UInt16.self): return bounds(UInt16.self)
        case ObjectIdentifier(UInt32.self): return bounds(UInt32.self)
        case ObjectIdentifier(UInt64.self): return bounds(UInt64.self)
        default: return nil
        }
    }

    private func dateSchema() -> JSONObject {
        switch dates {
        case .deferredToDate:
            ["type": "number", "x-vetted-dateEncoding": "secondsSince2001"]
        case .secondsSince1970:
            ["type": "number", "x-vetted-dateEncoding": "secondsSince1970"]
        case .millisecondsSince1970:
            ["type": "number", "x-vetted-dateEncoding": "millisecondsSince1970"]
        case .iso8601:
            ["type": "string", "format": "date-time"]
        case .formatted(let formatter):
            ["type": "string", "x-vetted-dateFormat": .string(formatter.dateFormat ?? "")]
        case .custom:
            ["x-vetted-undescribed": "dates decode by a custom strategy"]
        }
    }

    private func dataSchema() -> JSONObject {
        switch data {
        case .base64: ["type": "string", "contentEncoding": "base64"]
        case .deferredToData: ["type": "array", "items": ["type": "integer", "minimum": 0, "maximum": 255]]
        case .custom: ["x-vetted-undescribed": "data decodes by a custom strategy"]
        }
    }

    // MARK: Objects

    /// The key a document spells for a coding key, under the decoder's key strategy;
    /// `nil` when no document key reaches it.
    func documentKey(_ key: String) -> String? {
        switch keys {
        case .useDefaultKeys: return key
        case .convertFromSnakeCase:
            var snake = ""
            for character in key {
                if character.isUppercase, !snake.isEmpty { snake.append("_") }
                snake += character.lowercased()
            }
            return SnakeCase.toCamelCase(snake) == key ? snake : nil
        case .custom: return key
        }
    }

    private mutating func objectSchema(_ fields: _VettedFieldTable, validation: ValidationView) -> JSONObject {
        var properties = JSONObject()
        var required: [JSONValue] = []
        var choices: [JSONValue] = []
        var notes = Annotations()
        var unsatisfiable = false
        for index in fields.names.indices {
            let name = fields.names[index]
            var value = fieldSchema(fields, index, rules: validation.checks(for: name), relations: validation.relations(reportedAt: name))
            let isRequired = fields.isRequired.indices.contains(index) ? fields.isRequired[index] : true
            if fields.isOptional.indices.contains(index), fields.isOptional[index] { value = Self.nullable(value) }
            if fields.defaults.indices.contains(index), let text = fields.defaults[index],
                let literal = try? JSONParser().parse(Array(text.utf8))
            {
                // The value an absent key takes (the macro writes only literals; it was checked against the rules).
                value["default"] = literal
            }
            let spellings = ([name] + (fields.aliases.indices.contains(index) ? fields.aliases[index] : [])).map { (name: $0, key: documentKey($0)) }
            var present: [JSONValue] = []
            for spelling in spellings {
                guard let key = spelling.key else { continue }
                properties[key] = .object(value)
                present.append(["required": [.string(key)]])
            }
            if present.count == 1, isRequired, let key = spellings.compactMap(\.key).first {
                required.append(.string(key))
            } else if present.count > 1 {
                // Two spellings of one field in one object are `duplicateKey`: exactly one, or (optional) none.
                var options = present
                if !isRequired { options.append(["not": ["anyOf": .array(present)]]) }
                choices.append(["oneOf": .array(options)])
            } else if present.isEmpty {
                // No document key reaches the field. Required, the decoder refuses every document.
                notes.add("unreachableKey", ["key": .string(name), "required": .bool(isRequired)])
                unsatisfiable = unsatisfiable || isRequired
            }
        }
        var schema: JSONObject = ["type": "object", "properties": .object(properties)]
        if !required.isEmpty { schema["required"] = .array(required) }
        if !choices.isEmpty { schema["allOf"] = .array(choices) }
        if unsatisfiable { schema["not"] = [:] }
        switch keys {
        case .useDefaultKeys: break
        case .convertFromSnakeCase: notes.add("keyDecoding", ["strategy": "convertFromSnakeCase"])
        case .custom: notes.add("keyDecoding", ["strategy": "custom", "note": "document keys are mapped by code; the properties are the coding keys"])
        }
        notes.write(into: &schema)
        return schema
    }

    /// A field's schema with its rules, and the relations reported at it (annotations: JSON Schema compares no two fields).
    private mutating func fieldSchema(
        _ fields: _VettedFieldTable, _ index: Int, rules: [FieldCheck], relations: [RelationCheck]
    ) -> JSONObject {
        let type = fields.types.indices.contains(index) ? fields.types[index] : Any.self
        let isArray = fields.isArray.indices.contains(index) && fields.isArray[index]
        var schema = isArray ? ["type": "array", "items": .object(self.schema(for: type))] : self.schema(for: type)
        var notes = Annotations()
        for check in rules {
            for descriptor in check.descriptors { RuleKeywords.apply(descriptor, to: &schema, notes: &notes) }
        }
        for relation in relations { notes.add(relation.descriptor.kind, relation.descriptor.parameters) }
        notes.write(into: &schema)
        return schema
    }

    /// `schema`, or null.
    static func nullable(_ schema: JSONObject) -> JSONObject {
        if case .string(let type)? = schema["type"], schema["enum"] == nil, schema["$ref"] == nil, schema["anyOf"] == nil {
            var copy = schema
            copy["type"] = [.string(type), "null"]
            return copy
        }
        return ["anyOf": [.object(schema), ["type": "null"]]]
    }

    // MARK: Unions

    private mutating func unionSchema(_ union: _VettedUnionTable) -> JSONObject {
        var branches: [JSONValue] = []
        var mapping = JSONObject()
        for (position, tag) in union.tags.enumerated() where union.payloads.indices.contains(position) {
            let payload = schema(for: union.payloads[position])
            let tagSchema: JSONObject = ["const": .string(tag)]
            if let content = union.content {
                branches.append(
                    [
                        "type": "object", "properties": [union.tag: .object(tagSchema), content: .object(payload)],
                        "required": [.string(union.tag), .string(content)],
                    ])
            } else {
                branches.append(
                    ["allOf": [.object(payload)], "properties": [union.tag: .object(tagSchema)], "required": [.string(union.tag)]])
                if let reference = payload["$ref"] { mapping[tag] = reference }
            }
        }
        if union.hasFallback {
            let known = JSONValue.array(union.tags.map(JSONValue.string))
            branches.append(
                [
                    "type": "object", "properties": [union.tag: ["type": "string", "not": ["enum": known]]],
                    "required": [.string(union.tag)],
                ])
        }
        var schema: JSONObject = ["type": "object", "oneOf": .array(branches)]
        if union.content == nil { schema["discriminator"] = ["propertyName": .string(union.tag), "mapping": .object(mapping)] }
        return schema
    }
}

/// The `x-vetted-<kind>` annotations of one schema: a kind met twice holds a list.
struct Annotations {
    private var entries: [(kind: String, parameters: JSONObject)] = []

    mutating func add(_ kind: String, _ parameters: JSONObject) {
        entries.append((kind, parameters))
    }

    mutating func add(_ kind: String, _ parameters: [String: RuleParameter]) {
        add(kind, JSONValue(parameters).objectValue ?? [:])
    }

    func write(into schema: inout JSONObject) {
        var kinds: [String] = []
        for entry in entries where !kinds.contains(entry.kind) { kinds.append(entry.kind) }
        for kind in kinds {
            let all = entries.filter { $0.kind == kind }.map { JSONValue.object($0.parameters) }
            schema["x-vetted-" + kind] = all.count == 1 ? all[0] : .array(all)
        }
    }
}

/// A type's rules, read through its `Validatable` conformance.
struct ValidationView {
    let fields: [String: [FieldCheck]]
    let relations: [RelationCheck]

    init(_ type: any VettedModel.Type) {
        self = Self.view(type)
    }

    private init(fields: [String: [FieldCheck]], relations: [RelationCheck]) {
        self.fields = fields
        self.relations = relations
    }

    private static func view<Model: VettedModel>(_ type: Model.Type) -> ValidationView {
        let validation = Model.validation
        return ValidationView(fields: validation.fields, relations: validation.relations)
    }

    func checks(for key: String) -> [FieldCheck] { fields[key] ?? [] }
    func relations(reportedAt key: String) -> [RelationCheck] { relations.filter { $0.reportedKey == key } }
}

/// A generic container's schema, from its element types.
protocol SchemaContainer {
    static func schema(in writer: inout SchemaWriter) -> JSONObject
}

extension Array: SchemaContainer {
    static func schema(in writer: inout SchemaWriter) -> JSONObject {
        ["type": "array", "items": .object(writer.schema(for: Element.self))]
    }
}

extension ContiguousArray: SchemaContainer {
    static func schema(in writer: inout SchemaWriter) -> JSONObject {
        ["type": "array", "items": .object(writer.schema(for: Element.self))]
    }
}

extension Set: SchemaContainer {
    static func schema(in writer: inout SchemaWriter) -> JSONObject {
        ["type": "array", "items": .object(writer.schema(for: Element.self))]
    }
}

extension Optional: SchemaContainer {
    static func schema(in writer: inout SchemaWriter) -> JSONObject {
        SchemaWriter.nullable(writer.schema(for: Wrapped.self))
    }
}

extension Dictionary: SchemaContainer {
    static func schema(in writer: inout SchemaWriter) -> JSONObject {
        guard Key.self == String.self else {
            return ["x-vetted-undescribed": .string("a dictionary keyed by " + String(describing: Key.self) + ": its JSON shape is not an object")]
        }
        return ["type": "object", "additionalProperties": .object(writer.schema(for: Value.self))]
    }
}
