import Foundation

extension VettedModel {
    /// This type as a JSON Schema (Draft 2020-12) document, as a default
    /// ``VettedJSONDecoder`` reads it: see ``jsonSchema(for:)``.
    public static func jsonSchema() -> JSONValue { VettedSchema.document(for: Self.self, decoder: VettedJSONDecoder()) }

    /// This type as a JSON Schema (Draft 2020-12) document, as `decoder` reads it
    /// (its date, data, key and non-conforming float strategies).
    ///
    /// The document refers to the type's definition in `$defs`, beside one for
    /// every `@Vetted` type it holds. `required` lists the fields a document must
    /// have (not optionals, not `@Default`s); an optional also takes `null`. Each
    /// rule JSON Schema states exactly is its keyword (`minimum`, `maxLength` for
    /// ``Rule/scalarLength(_:)``, `pattern`, `enum`, `minItems`, `uniqueItems`, …);
    /// every other rule is an `x-vetted-<kind>` annotation with its parameters,
    /// so that a reader knows it is there: lengths in characters or UTF-8 bytes,
    /// URL policies, display safety, date windows, relations, and rules that do
    /// not describe themselves (`x-vetted-undescribed`), never guessed.
    public static func jsonSchema(for decoder: VettedJSONDecoder) -> JSONValue {
        VettedSchema.document(for: Self.self, decoder: decoder)
    }
}

extension _VettedRawValueEnum {
    /// This enum as a JSON Schema (Draft 2020-12) document: its raw values as `enum`.
    public static func jsonSchema() -> JSONValue { VettedSchema.document(for: Self.self, decoder: VettedJSONDecoder()) }
}

/// JSON Schema and OpenAPI documents of `@Vetted` types.
public enum VettedSchema {
    /// The JSON Schema dialect written: Draft 2020-12 (OpenAPI 3.1's too).
    public static let dialect = "https://json-schema.org/draft/2020-12/schema"

    /// `type` as a JSON Schema (Draft 2020-12) document, as `decoder` reads it:
    /// `$ref` to its definition, and `$defs` with every named type it holds.
    public static func document(for type: Any.Type, decoder: VettedJSONDecoder = VettedJSONDecoder()) -> JSONValue {
        var writer = SchemaWriter(decoder: decoder, referencePrefix: "#/$defs/")
        let root = writer.schema(for: type)
        var document: JSONObject = ["$schema": .string(dialect)]
        for member in root { document[member.key] = member.value }
        if !writer.definitions.isEmpty { document["$defs"] = .object(writer.definitions) }
        return .object(document)
    }

    /// The `components.schemas` object of an OpenAPI 3.1 document for `types`:
    /// one schema per named type they hold (by name), referring to each other as
    /// `#/components/schemas/<name>`. A type's name is its Swift name
    /// (`Listing`); two types of one name get `_2`, `_3`, … in the order met.
    public static func openAPIComponents(_ types: [Any.Type], decoder: VettedJSONDecoder = VettedJSONDecoder()) -> JSONValue {
        var writer = SchemaWriter(decoder: decoder, referencePrefix: "#/components/schemas/")
        for type in types { _ = writer.schema(for: type) }
        return .object(writer.definitions)
    }

    /// The reference to `type`'s schema among ``openAPIComponents(_:decoder:)``'s
    /// (or, for a scalar or container type, its schema itself).
    public static func openAPISchema(_ type: Any.Type, decoder: VettedJSONDecoder = VettedJSONDecoder()) -> JSONValue {
        var writer = SchemaWriter(decoder: decoder, referencePrefix: "#/components/schemas/")
        return .object(writer.schema(for: type))
    }
}

/// The `components.schemas` object of an OpenAPI 3.1 document for `types`: each
/// named type's schema by name (see ``VettedSchema/openAPIComponents(_:decoder:)``).
public func openAPIComponents(_ types: Any.Type..., decoder: VettedJSONDecoder = VettedJSONDecoder()) -> JSONValue {
    VettedSchema.openAPIComponents(types, decoder: decoder)
}

/// The `components.schemas` object of an OpenAPI 3.1 document for `types`, given as an array.
public func openAPIComponents(_ types: [Any.Type], decoder: VettedJSONDecoder = VettedJSONDecoder()) -> JSONValue {
    VettedSchema.openAPIComponents(types, decoder: decoder)
}
