import Foundation
import Testing
import VettedMacros
import VettedTestSupport

/// `jsonSchema()` and `openAPIComponents`: each rule as its keyword, or as an `x-vetted-…` annotation.
@Suite struct SchemaExportTests {
    static let pretty = JSONWriter(style: .pretty)

    func definition(_ document: JSONValue, _ name: String) -> JSONObject? {
        document.objectValue?["$defs"]?.objectValue?[name]?.objectValue
    }

    func property(_ definition: JSONObject?, _ name: String) -> JSONObject? {
        definition?["properties"]?.objectValue?[name]?.objectValue
    }

    @Test func theTalksListing() throws {
        let document = Listing.jsonSchema()
        let listing = try #require(definition(document, "Listing"))
        #expect(document.objectValue?["$schema"] == "https://json-schema.org/draft/2020-12/schema")
        #expect(document.objectValue?["$ref"] == "#/$defs/Listing")
        #expect(listing["type"] == "object")
        #expect(
            listing["required"]
                == ["id", "name", "description", "price", "sold", "url", "tags", "created", "last_updated"])
        #expect(property(listing, "id") == ["type": "integer", "minimum": 1, "maximum": 2_147_483_647])
        // Characters are not code points: an annotation, with the parameters; k characters need at
        // least k code points, so the minimum is also `minLength` (before: no bound, "" passed the schema).
        #expect(property(listing, "name")?["x-vetted-length"] == ["maximum": 200, "minimum": 1, "unit": "characters"])
        #expect(property(listing, "name")?["minLength"] == 1 && property(listing, "name")?["maxLength"] == nil)
        #expect(property(listing, "description")?["minLength"] == 1)
        #expect(property(listing, "name")?["x-vetted-displaySafe"] == ["allowing": []])
        #expect(property(listing, "price")?["pattern"] == #"^([0-9]+(\.[0-9]{1,2})?)$"#)
        #expect(property(listing, "tags") == ["type": "array", "items": ["$ref": "#/$defs/Tag"], "minItems": 1, "maxItems": 10])
        #expect(definition(document, "Tag") == ["type": "string", "enum": ["music", "electric", "acoustic", "vintage", "books", "tools", "garden", "kids"]])
        #expect(property(listing, "created") == ["type": "number", "x-vetted-dateEncoding": "secondsSince2001"])
        #expect(property(listing, "last_updated")?["x-vetted-relation"] == ["direction": "notBefore", "other": "created"])
    }

    /// A range open on one side exports the bound it has (an `Int` keeps its type's own maximum).
    @Test func rangesOpenOnOneSide() throws {
        let bounds = try #require(definition(OneSided.jsonSchema(), "OneSided"))
        #expect(property(bounds, "id") == ["type": "integer", "minimum": 1, "maximum": .number(JSONNumber(Int.max))])
        #expect(property(bounds, "share") == ["type": "number", "maximum": .number(JSONNumber(100.0) ?? JSONNumber(0))])
        let error = try #require(throws: ValidationErrors.self) {
            try VettedJSONDecoder().decode(OneSided.self, from: Data(#"{"id": 0, "share": 100.5}"#.utf8))
        }
        #expect(error.errors.map { "\($0.code) \($0.path) \($0.offset ?? -1)" } == ["outOfRange $.id 7", "outOfRange $.share 19"])
    }

    /// Defaults are not required; aliases are one property per spelling, exactly one of them present.
    @Test func defaultsAndAliases() throws {
        let page = try #require(definition(Page.jsonSchema(), "Page"))
        #expect(page["required"] == nil)
        // A literal default is the schema's `default` (before: none was exported).
        #expect(property(page, "limit") == ["type": "integer", "minimum": 1, "maximum": 100, "default": 20])
        #expect(property(page, "language")?["default"] == "en" && property(page, "lang")?["default"] == "en")
        #expect(property(page, "tags")?["default"] == [])
        // A default that is no literal is not exported: it is never guessed.
        let hidden = try #require(definition(HiddenDefault.jsonSchema(), "HiddenDefault"))
        #expect(property(hidden, "count")?["default"] == nil)
        #expect(property(page, "productId") == property(page, "id"))
        #expect(property(page, "note") == ["type": ["string", "null"]])
        #expect(
            page["allOf"] == [
                ["oneOf": [["required": ["id"]], ["required": ["productId"]], ["required": ["product_id"]]]],
                ["oneOf": [["required": ["language"]], ["required": ["lang"]], ["not": ["anyOf": [["required": ["language"]], ["required": ["lang"]]]]]]],
            ])
    }

    @Test func internallyTaggedUnion() throws {
        let document = TestEvent.jsonSchema()
        let event = try #require(definition(document, "TestEvent"))
        #expect(
            event["oneOf"] == [
                ["allOf": [["$ref": "#/$defs/TestCreated"]], "properties": ["type": ["const": "created"]], "required": ["type"]],
                ["allOf": [["$ref": "#/$defs/TestSold"]], "properties": ["type": ["const": "listing.sold"]], "required": ["type"]],
            ])
        #expect(
            event["discriminator"]
                == ["propertyName": "type", "mapping": ["created": "#/$defs/TestCreated", "listing.sold": "#/$defs/TestSold"]])
        #expect(definition(document, "TestSold")?["required"] == ["id", "price"])
    }

    /// Adjacently tagged, with an `@UnknownTag` case: a branch for every other tag; no discriminator.
    @Test func adjacentlyTaggedUnionWithAFallback() throws {
        let event = try #require(definition(WrappedEvent.jsonSchema(), "WrappedEvent"))
        #expect(
            event["oneOf"] == [
                ["type": "object", "properties": ["type": ["const": "created"], "data": ["$ref": "#/$defs/TestCreated"]], "required": ["type", "data"]],
                ["type": "object", "properties": ["type": ["const": "listing.sold"], "data": ["$ref": "#/$defs/TestSold"]], "required": ["type", "data"]],
                ["type": "object", "properties": ["type": ["type": "string", "not": ["enum": ["created", "listing.sold"]]]], "required": ["type"]],
            ])
        #expect(event["discriminator"] == nil)
    }

    /// Every rule JSON Schema states exactly as its keyword; the rest as annotations.
    @Test func keywordsAndAnnotations() throws {
        let document = SchemaProbe.jsonSchema()
        let probe = try #require(definition(document, "SchemaProbe"))
        #expect(property(probe, "code") == ["type": "string", "minLength": 2, "maxLength": 8])
        #expect(property(probe, "color") == ["type": "string", "enum": ["green", "red"]])
        #expect(property(probe, "levels") == ["type": "array", "items": ["$ref": "#/$defs/Level"], "maxItems": 3, "uniqueItems": true])
        #expect(definition(document, "Level") == ["type": "integer", "enum": [1, 2, 3]])
        #expect(property(probe, "ratio")?["minimum"] == .number(JSONNumber(0.5) ?? JSONNumber(0)))
        #expect(property(probe, "labels")?["minProperties"] == 1)
        #expect(property(probe, "words") == ["type": "array", "items": ["type": "string", "minLength": 1, "maxLength": 3]])
        #expect(property(probe, "inner") == ["anyOf": [["$ref": "#/$defs/TestCreated"], ["type": "null"]]])
        #expect(property(probe, "title") == ["type": "string", "minLength": 1, "x-vetted-nonBlank": [:]])
        // At most 6 UTF-8 bytes is at most 6 code points: a sound maxLength beside the exact annotation.
        #expect(property(probe, "short") == ["type": ["string", "null"], "maxLength": 6, "x-vetted-length": ["maximum": 6, "minimum": 0, "unit": "utf8Bytes"]])
        #expect(property(probe, "even")?["x-vetted-undescribed"] == ["code": "odd"])
    }

    /// The decoder's strategies are the schema's: ISO 8601 dates, snake-case keys.
    @Test func theDecodersStrategies() throws {
        let decoder = VettedJSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let document = SchemaKeys.jsonSchema(for: decoder)
        let keys = try #require(definition(document, "SchemaKeys"))
        #expect(property(keys, "created_at") == ["type": "string", "format": "date-time"])
        #expect(keys["required"] == ["created_at"])
        // `URL` has no snake-case spelling that converts back to it: no document key reaches it,
        // so the decoder refuses every document, and so does the schema.
        #expect(keys["x-vetted-unreachableKey"] == ["key": "URL", "required": true])
        #expect(keys["not"] == [:])
        #expect(keys["x-vetted-keyDecoding"] == ["strategy": "convertFromSnakeCase"])
    }

    @Test func openAPIComponentsShareOneSetOfSchemas() throws {
        let components = openAPIComponents(Listing.self, TestEvent.self)
        let schemas = try #require(components.objectValue)
        #expect(schemas.keys == ["Listing", "Tag", "TestEvent", "TestCreated", "TestSold"])
        #expect(schemas["Listing"]?["properties"]?["tags"]?["items"] == ["$ref": "#/components/schemas/Tag"])
        #expect(openAPIComponents([Listing.self, TestEvent.self]) == components)
        #expect(VettedSchema.openAPISchema([Listing].self) == ["type": "array", "items": ["$ref": "#/components/schemas/Listing"]])
    }

    /// A type the writer does not know is said to be one, never guessed.
    @Test func undescribedTypes() {
        #expect(
            VettedSchema.document(for: NSObject.self)
                == ["$schema": "https://json-schema.org/draft/2020-12/schema", "x-vetted-undescribed": "NSObject is not a @Vetted type, and not one Vetted knows how to describe"])
    }
}

@Vetted struct SchemaKeys: Codable {
    var createdAt: Date
    var URL: String

    enum CodingKeys: String, CodingKey { case createdAt, URL }
}

/// JSON Schema's `integer` is any number with no fraction, `1.0` and `1e2` too; so is the decoder's `Int`.
@Suite struct SchemaIntegerTests {
    @Test func anIntegerWrittenWithAZeroFractionOrAnExponentIsAnInteger() throws {
        let created = try VettedJSONDecoder().decode(TestCreated.self, from: Data(#"{"id": 1.0, "name": "Lamp"}"#.utf8))
        #expect(created.id == 1)
        #expect(try VettedJSONDecoder().decode(TestCreated.self, from: Data(#"{"id": 1e2, "name": "Lamp"}"#.utf8)).id == 100)
    }
}

@Vetted struct OneSided: Codable {
    @Check(.range(1...)) var id: Int
    @Check(.range(...100)) var share: Double
}
