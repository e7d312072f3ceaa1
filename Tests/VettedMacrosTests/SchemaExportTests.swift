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
        // Characters are not code points: an annotation, with the parameters.
        #expect(property(listing, "name")?["x-vetted-length"] == ["maximum": 200, "minimum": 1, "unit": "characters"])
        #expect(property(listing, "name")?["x-vetted-displaySafe"] == ["allowing": []])
        #expect(property(listing, "price")?["pattern"] == #"^(?:[0-9]+(?:\.[0-9]{1,2})?)$(?![\s\S])"#)
        #expect(property(listing, "tags") == ["type": "array", "items": ["$ref": "#/$defs/Tag"], "minItems": 1, "maxItems": 10])
        #expect(definition(document, "Tag") == ["type": "string", "enum": ["music", "electric", "acoustic", "vintage", "books", "tools", "garden", "kids"]])
        #expect(property(listing, "created") == ["type": "number", "x-vetted-dateEncoding": "secondsSince2001"])
        #expect(property(listing, "last_updated")?["x-vetted-relation"] == ["direction": "notBefore", "other": "created"])
    }

    @Test func printAll() {
        for document in [Page.jsonSchema(), TestEvent.jsonSchema(), WrappedEvent.jsonSchema(), SchemaProbe.jsonSchema()] {
            print(JSONWriter().string(document))
        }
    }
}
