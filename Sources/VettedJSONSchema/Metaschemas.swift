import VettedCore
import VettedJSON

/// The metaschemas of draft 2020-12 (the dialect and its seven vocabularies) and of
/// draft 7, built in so that a schema may `$ref` them (validating a schema against
/// its metaschema, say) without anything being fetched. Parsed on first use.
enum Metaschemas {
    /// The document at `uri` (no fragment); `nil` when it is not one of these.
    static func document(_ uri: String) throws(VettedError) -> JSONValue? {
        guard let text = texts[uri] else { return nil }
        return try JSONParser().parse(text)
    }

    private static let dialect = "https://json-schema.org/draft/2020-12"

    private static func vocabulary(_ name: String, _ body: String) -> String {
        """
        {"$schema": "\(dialect)/schema", "$id": "\(dialect)/meta/\(name)",
         "$vocabulary": {"\(dialect)/vocab/\(name)": true}, "$dynamicAnchor": "meta",
         "type": ["object", "boolean"], \(body)}
        """
    }

    private static let texts: [String: String] = [
        "\(dialect)/schema": """
        {"$schema": "\(dialect)/schema", "$id": "\(dialect)/schema",
         "$vocabulary": {"\(dialect)/vocab/core": true, "\(dialect)/vocab/applicator": true, "\(dialect)/vocab/unevaluated": true,
           "\(dialect)/vocab/validation": true, "\(dialect)/vocab/meta-data": true, "\(dialect)/vocab/format-annotation": true,
           "\(dialect)/vocab/content": true},
         "$dynamicAnchor": "meta",
         "allOf": [{"$ref": "meta/core"}, {"$ref": "meta/applicator"}, {"$ref": "meta/unevaluated"}, {"$ref": "meta/validation"},
           {"$ref": "meta/meta-data"}, {"$ref": "meta/format-annotation"}, {"$ref": "meta/content"}],
         "type": ["object", "boolean"],
         "properties": {
           "definitions": {"type": "object", "additionalProperties": {"$dynamicRef": "#meta"}, "default": {}},
           "dependencies": {"type": "object", "additionalProperties": {"anyOf": [{"$dynamicRef": "#meta"}, {"$ref": "meta/validation#/$defs/stringArray"}]}},
           "$recursiveAnchor": {"$ref": "meta/core#/$defs/anchorString"},
           "$recursiveRef": {"$ref": "meta/core#/$defs/uriReferenceString"}}}
        """,
        "\(dialect)/meta/core": vocabulary(
            "core",
            """
            "properties": {
              "$id": {"$ref": "#/$defs/uriReferenceString", "pattern": "^[^#]*#?$"},
              "$schema": {"$ref": "#/$defs/uriString"},
              "$ref": {"$ref": "#/$defs/uriReferenceString"},
              "$anchor": {"$ref": "#/$defs/anchorString"},
              "$dynamicRef": {"$ref": "#/$defs/uriReferenceString"},
              "$dynamicAnchor": {"$ref": "#/$defs/anchorString"},
              "$vocabulary": {"type": "object", "propertyNames": {"$ref": "#/$defs/uriString"}, "additionalProperties": {"type": "boolean"}},
              "$comment": {"type": "string"},
              "$defs": {"type": "object", "additionalProperties": {"$dynamicRef": "#meta"}}},
            "$defs": {
              "anchorString": {"type": "string", "pattern": "^[A-Za-z_][-A-Za-z0-9._]*$"},
              "uriString": {"type": "string", "format": "uri"},
              "uriReferenceString": {"type": "string", "format": "uri-reference"}}
            """),
        "\(dialect)/meta/applicator": vocabulary(
            "applicator",
            """
            "properties": {
              "prefixItems": {"$ref": "#/$defs/schemaArray"},
              "items": {"$dynamicRef": "#meta"},
              "contains": {"$dynamicRef": "#meta"},
              "additionalProperties": {"$dynamicRef": "#meta"},
              "properties": {"type": "object", "additionalProperties": {"$dynamicRef": "#meta"}, "default": {}},
              "patternProperties": {"type": "object", "additionalProperties": {"$dynamicRef": "#meta"}, "propertyNames": {"format": "regex"}, "default": {}},
              "dependentSchemas": {"type": "object", "additionalProperties": {"$dynamicRef": "#meta"}, "default": {}},
              "propertyNames": {"$dynamicRef": "#meta"},
              "if": {"$dynamicRef": "#meta"},
              "then": {"$dynamicRef": "#meta"},
              "else": {"$dynamicRef": "#meta"},
              "allOf": {"$ref": "#/$defs/schemaArray"},
              "anyOf": {"$ref": "#/$defs/schemaArray"},
              "oneOf": {"$ref": "#/$defs/schemaArray"},
              "not": {"$dynamicRef": "#meta"}},
            "$defs": {"schemaArray": {"type": "array", "minItems": 1, "items": {"$dynamicRef": "#meta"}}}
            """),
        "\(dialect)/meta/unevaluated": vocabulary(
            "unevaluated",
            """
            "properties": {"unevaluatedItems": {"$dynamicRef": "#meta"}, "unevaluatedProperties": {"$dynamicRef": "#meta"}}
            """),
        "\(dialect)/meta/validation": vocabulary(
            "validation",
            """
            "properties": {
              "type": {"anyOf": [{"$ref": "#/$defs/simpleTypes"},
                {"type": "array", "items": {"$ref": "#/$defs/simpleTypes"}, "minItems": 1, "uniqueItems": true}]},
              "const": true,
              "enum": {"type": "array", "items": true},
              "multipleOf": {"type": "number", "exclusiveMinimum": 0},
              "maximum": {"type": "number"},
              "exclusiveMaximum": {"type": "number"},
              "minimum": {"type": "number"},
              "exclusiveMinimum": {"type": "number"},
              "maxLength": {"$ref": "#/$defs/nonNegativeInteger"},
              "minLength": {"$ref": "#/$defs/nonNegativeIntegerDefault0"},
              "pattern": {"type": "string", "format": "regex"},
              "maxItems": {"$ref": "#/$defs/nonNegativeInteger"},
              "minItems": {"$ref": "#/$defs/nonNegativeIntegerDefault0"},
              "uniqueItems": {"type": "boolean", "default": false},
              "maxContains": {"$ref": "#/$defs/nonNegativeInteger"},
              "minContains": {"$ref": "#/$defs/nonNegativeInteger", "default": 1},
              "maxProperties": {"$ref": "#/$defs/nonNegativeInteger"},
              "minProperties": {"$ref": "#/$defs/nonNegativeIntegerDefault0"},
              "required": {"$ref": "#/$defs/stringArray"},
              "dependentRequired": {"type": "object", "additionalProperties": {"$ref": "#/$defs/stringArray"}}},
            "$defs": {
              "nonNegativeInteger": {"type": "integer", "minimum": 0},
              "nonNegativeIntegerDefault0": {"$ref": "#/$defs/nonNegativeInteger", "default": 0},
              "simpleTypes": {"enum": ["array", "boolean", "integer", "null", "number", "object", "string"]},
              "stringArray": {"type": "array", "items": {"type": "string"}, "uniqueItems": true, "default": []}}
            """),
        "\(dialect)/meta/meta-data": vocabulary(
            "meta-data",
            """
            "properties": {
              "title": {"type": "string"},
              "description": {"type": "string"},
              "default": true,
              "deprecated": {"type": "boolean", "default": false},
              "readOnly": {"type": "boolean", "default": false},
              "writeOnly": {"type": "boolean", "default": false},
              "examples": {"type": "array", "items": true}}
            """),
        "\(dialect)/meta/format-annotation": vocabulary("format-annotation", #""properties": {"format": {"type": "string"}}"#),
        "\(dialect)/meta/content": vocabulary(
            "content",
            """
            "properties": {
              "contentEncoding": {"type": "string"},
              "contentMediaType": {"type": "string"},
              "contentSchema": {"$dynamicRef": "#meta"}}
            """),
        "http://json-schema.org/draft-07/schema": """
        {"$schema": "http://json-schema.org/draft-07/schema#", "$id": "http://json-schema.org/draft-07/schema#",
         "definitions": {
           "schemaArray": {"type": "array", "minItems": 1, "items": {"$ref": "#"}},
           "nonNegativeInteger": {"type": "integer", "minimum": 0},
           "nonNegativeIntegerDefault0": {"allOf": [{"$ref": "#/definitions/nonNegativeInteger"}, {"default": 0}]},
           "simpleTypes": {"enum": ["array", "boolean", "integer", "null", "number", "object", "string"]},
           "stringArray": {"type": "array", "items": {"type": "string"}, "uniqueItems": true, "default": []}},
         "type": ["object", "boolean"],
         "properties": {
           "$id": {"type": "string", "format": "uri-reference"},
           "$schema": {"type": "string", "format": "uri"},
           "$ref": {"type": "string", "format": "uri-reference"},
           "$comment": {"type": "string"},
           "title": {"type": "string"},
           "description": {"type": "string"},
           "default": true,
           "readOnly": {"type": "boolean", "default": false},
           "writeOnly": {"type": "boolean", "default": false},
           "examples": {"type": "array", "items": true},
           "multipleOf": {"type": "number", "exclusiveMinimum": 0},
           "maximum": {"type": "number"},
           "exclusiveMaximum": {"type": "number"},
           "minimum": {"type": "number"},
           "exclusiveMinimum": {"type": "number"},
           "maxLength": {"$ref": "#/definitions/nonNegativeInteger"},
           "minLength": {"$ref": "#/definitions/nonNegativeIntegerDefault0"},
           "pattern": {"type": "string", "format": "regex"},
           "additionalItems": {"$ref": "#"},
           "items": {"anyOf": [{"$ref": "#"}, {"$ref": "#/definitions/schemaArray"}], "default": true},
           "maxItems": {"$ref": "#/definitions/nonNegativeInteger"},
           "minItems": {"$ref": "#/definitions/nonNegativeIntegerDefault0"},
           "uniqueItems": {"type": "boolean", "default": false},
           "contains": {"$ref": "#"},
           "maxProperties": {"$ref": "#/definitions/nonNegativeInteger"},
           "minProperties": {"$ref": "#/definitions/nonNegativeIntegerDefault0"},
           "required": {"$ref": "#/definitions/stringArray"},
           "additionalProperties": {"$ref": "#"},
           "definitions": {"type": "object", "additionalProperties": {"$ref": "#"}, "default": {}},
           "properties": {"type": "object", "additionalProperties": {"$ref": "#"}, "default": {}},
           "patternProperties": {"type": "object", "additionalProperties": {"$ref": "#"}, "propertyNames": {"format": "regex"}, "default": {}},
           "dependencies": {"type": "object", "additionalProperties": {"anyOf": [{"$ref": "#"}, {"$ref": "#/definitions/stringArray"}]}},
           "propertyNames": {"$ref": "#"},
           "const": true,
           "enum": {"type": "array", "items": true},
           "type": {"anyOf": [{"$ref": "#/definitions/simpleTypes"},
             {"type": "array", "items": {"$ref": "#/definitions/simpleTypes"}, "minItems": 1, "uniqueItems": true}]},
           "format": {"type": "string"},
           "contentMediaType": {"type": "string"},
           "contentEncoding": {"type": "string"},
           "if": {"$ref": "#"},
           "then": {"$ref": "#"},
           "else": {"$ref": "#"},
           "allOf": {"$ref": "#/definitions/schemaArray"},
           "anyOf": {"$ref": "#/definitions/schemaArray"},
           "oneOf": {"$ref": "#/definitions/schemaArray"},
           "not": {"$ref": "#"}},
         "default": true}
        """,
    ]
}
