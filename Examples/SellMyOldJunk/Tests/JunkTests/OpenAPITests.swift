import Foundation
import Hummingbird
import HummingbirdTesting
import JunkModel
import JunkServer
import Testing
import Vetted

/// `GET /openapi.json`: the routes, their bodies' schemas from the model types' rules, and the problems.
@Suite struct OpenAPITests {
    let service: ListingsService

    init() throws {
        service = try ListingsService(store: try ListingsStore(), identity: ServerIdentity(signingKey: .generate(.ed25519)))
    }

    func document() async throws -> JSONValue {
        let body = try await Application(router: service.router()).test(.router) { client in
            try await client.execute(uri: "/openapi.json", method: .get) { response in
                #expect(response.status == .ok)
                return Array(response.body.readableBytesView)
            }
        }
        return try JSONParser().parse(body)
    }

    @Test func theRoutesAndTheirSchemas() async throws {
        let document = try await document()
        #expect(document["openapi"] == "3.1.0")
        let paths = try #require(document["paths"]?.objectValue)
        #expect(paths.keys == ["/listings", "/listings/import", "/listings/{id}/price", "/events"])
        // The import takes each stream media type, a record at a time; JSON is one array of them.
        let imports = try #require(paths["/listings/import"]?["post"]?["requestBody"]?["content"])
        #expect(imports["application/x-ndjson"]?["schema"] == ["$ref": "#/components/schemas/Listing"])
        #expect(imports["application/json"]?["schema"]?["items"] == ["$ref": "#/components/schemas/Listing"])
        let post = try #require(paths["/listings"]?["post"])
        #expect(post["requestBody"]?["content"]?["application/json"]?["schema"] == ["$ref": "#/components/schemas/Listing"])
        #expect(
            post["responses"]?["422"]?["content"]?["application/problem+json"]?["schema"] == ["$ref": "#/components/schemas/ProblemDetails"])
        let schemas = try #require(document["components"]?["schemas"]?.objectValue)
        #expect(schemas.keys.contains("Listing") && schemas.keys.contains("ListingEvent") && schemas.keys.contains("PriceUpdate"))
        // The rules, as the server's decoder reads them: ISO 8601 dates, the talk's bounds.
        let listing = try #require(schemas["Listing"])
        #expect(listing["properties"]?["created"] == ["type": "string", "format": "date-time"])
        #expect(listing["properties"]?["id"]?["minimum"] == 1)
        #expect(listing["properties"]?["tags"]?["items"] == ["$ref": "#/components/schemas/Tag"])
    }

    /// Every schema in the document is Draft 2020-12, as an independent validator judges it.
    @Test(.enabled(if: SchemaPeer.available, "needs python3 with `pip install jsonschema`"))
    func everySchemaIsValid2020_12() async throws {
        let document = try await document()
        let schemas = try #require(document["components"]?["schemas"]?.objectValue)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("openapi-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(JSONWriter().bytes(.object(schemas))).write(to: file)
        let check = """
            import json, sys
            from jsonschema import Draft202012Validator
            for name, schema in json.load(open(sys.argv[1])).items():
                Draft202012Validator.check_schema(schema)
            print("ok")
            """
        let result = try await run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", check, file.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "ok\n")
    }
}

enum SchemaPeer {
    static let available: Bool = (try? runBlocking(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", "import jsonschema"]).status) == 0
}
