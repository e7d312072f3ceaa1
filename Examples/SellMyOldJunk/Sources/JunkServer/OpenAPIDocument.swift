import JunkModel
import Vetted
import VettedMacros

/// `GET /openapi.json`: the server's routes as an OpenAPI 3.1 document. The
/// body schemas are the model types' own (their `@Check` rules, written out
/// by Vetted); every refusal is RFC 9457 problem details.
enum OpenAPIDocument {
    /// The document, written once.
    static let bytes: [UInt8] = JSONWriter().bytes(document)

    static var document: JSONValue {
        let decoder = ListingsAPI.makeDecoder()
        var schemas = VettedSchema.openAPIComponents([Listing.self, PriceUpdate.self, ListingEvent.self], decoder: decoder).objectValue ?? [:]
        schemas["ProblemDetails"] = problemDetails
        let components: JSONObject = ["schemas": .object(schemas), "responses": .object(problemResponses)]
        return [
            "openapi": "3.1.0",
            "jsonSchemaDialect": .string(VettedSchema.dialect),
            "info": [
                "title": "Sell My Old Junk", "version": "1.0.0",
                "description": "Listings of things for sale. Responses are digested (Content-Digest) and signed (RFC 9421).",
            ],
            "paths": [
                "/listings": [
                    "get": [
                        "summary": "One page of the listings by id, optionally with one tag",
                        "parameters": [
                            [
                                "name": "tag", "in": "query", "required": false,
                                "schema": VettedSchema.openAPISchema(Listing.Tag.self, decoder: decoder),
                            ],
                            pageParameter("after", "The listings whose id is over this one (the last id of the previous page)"),
                            limitParameter,
                        ],
                        "responses": [
                            "200": json("The listings", VettedSchema.openAPISchema([Listing].self, decoder: decoder)),
                            "400": reference("BadRequest"), "500": reference("ServerError"),
                        ],
                    ],
                    "post": [
                        "summary": "Adds a listing",
                        "requestBody": ["required": true, "content": ["application/json": ["schema": VettedSchema.openAPISchema(Listing.self, decoder: decoder)]]],
                        "responses": bodyResponses([
                            "201": ["description": "Added"],
                            "409": problem("A listing with this id exists"),
                        ]),
                    ],
                ],
                "/listings/import": [
                    "post": [
                        "summary": "Imports a stream of listings, each stored or refused as it arrives",
                        "requestBody": [
                            "required": true,
                            "content": .object(
                                // A stream's schema is its record's (OpenAPI 3.1 has no item schema); JSON is one array.
                                JSONObject(
                                    ["application/x-ndjson", "application/jsonl", "application/json-seq"].map {
                                        JSONObject.Member(key: $0, value: ["schema": VettedSchema.openAPISchema(Listing.self, decoder: decoder)])
                                    } + [JSONObject.Member(key: "application/json", value: ["schema": VettedSchema.openAPISchema([Listing].self, decoder: decoder)])])),
                        ],
                        "responses": bodyResponses([
                            "200": ["description": "Every listing was stored", "content": ["application/json": ["schema": importReport]]],
                            "409": problem("Only ids in use were refused; the other listings were stored"),
                        ]),
                    ]
                ],
                "/listings/{id}/price": [
                    "post": [
                        "summary": "Changes a listing's price",
                        "parameters": [["name": "id", "in": "path", "required": true, "schema": ["type": "integer"]]],
                        "requestBody": [
                            "required": true, "content": ["application/json": ["schema": VettedSchema.openAPISchema(PriceUpdate.self, decoder: decoder)]],
                        ],
                        "responses": bodyResponses([
                            "200": ["description": "Changed"],
                            "404": problem("No listing has this id"),
                        ]),
                    ]
                ],
                "/events": [
                    "get": [
                        "summary": "One page of the event feed, oldest first",
                        "parameters": [
                            pageParameter("after", "The events after the first this many (the count already read)"),
                            limitParameter,
                        ],
                        "responses": [
                            "200": json("The events", VettedSchema.openAPISchema([ListingEvent].self, decoder: decoder)),
                            "400": reference("BadRequest"), "500": reference("ServerError"),
                        ],
                    ]
                ],
            ],
            "components": .object(components),
        ]
    }

    /// What a route with a request body answers besides `success`: each stage's refusal.
    static func bodyResponses(_ success: JSONObject) -> JSONValue {
        var responses = success
        responses["400"] = reference("BadRequest")
        responses["408"] = problem("The body did not arrive in time")
        responses["413"] = problem("The body is larger than allowed")
        responses["415"] = problem("The body is not JSON")
        responses["422"] = problem("The body breaks the rules: each error has its code, path and the rule's parameters")
        responses["500"] = reference("ServerError")
        return .object(responses)
    }

    static func json(_ description: String, _ schema: JSONValue) -> JSONValue {
        ["description": .string(description), "content": ["application/json": ["schema": schema]]]
    }

    static func problem(_ description: String) -> JSONValue {
        ["description": .string(description), "content": [.init(stringLiteral: ProblemDetails.mediaType): ["schema": ["$ref": "#/components/schemas/ProblemDetails"]]]]
    }

    static func reference(_ name: String) -> JSONValue { ["$ref": .string("#/components/responses/" + name)] }

    /// A page's start: a non-negative integer query parameter.
    static func pageParameter(_ name: String, _ description: String) -> JSONValue {
        [
            "name": .string(name), "in": "query", "required": false, "description": .string(description),
            // The server's integers are 64-bit: the document says so, rather than refusing a larger one unannounced.
            "schema": ["type": "integer", "minimum": 0, "maximum": .number(JSONNumber(Int.max))],
        ]
    }

    /// A page's size, `ListingsAPI.pageSize` when absent.
    static var limitParameter: JSONValue {
        [
            "name": "limit", "in": "query", "required": false,
            "description": .string("At most this many (\(ListingsAPI.pageSize) when absent); a page also stops before \(ListingsAPI.maximumPageBytes) bytes"),
            "schema": ["type": "integer", "minimum": 1, "maximum": .number(JSONNumber(ListingsAPI.maximumPageSize)), "default": .number(JSONNumber(ListingsAPI.pageSize))],
        ]
    }

    static var problemResponses: JSONObject {
        [
            "BadRequest": problem("The body is not JSON, or not the model's shape"),
            "ServerError": problem("The server could not answer"),
        ]
    }

    /// What an import answers: counts, and problem entries (RFC 9457's, as in ``problemDetails``).
    static var importReport: JSONValue {
        [
            "type": "object",
            "properties": [
                "imported": ["type": "integer", "minimum": 0], "refused": ["type": "integer", "minimum": 0],
                "errors": ["type": "array", "maxItems": .number(JSONNumber(ImportReport.maximumEntries)), "items": problemEntry],
                "omittedEntries": ["type": "integer", "minimum": 0],
            ],
            "required": ["imported", "refused", "errors", "omittedEntries"],
        ]
    }

    /// One entry of a problem's `errors`.
    static var problemEntry: JSONValue {
        [
            "type": "object",
            "properties": [
                "pointer": ["type": "string"], "path": ["type": "string"], "code": ["type": "string"],
                "stage": ["type": "string", "description": "input, syntax, structure, rules or declaration (Vetted's stages), request or store"],
                "detail": ["type": "string"], "parameters": ["type": "object"],
            ],
            "required": ["pointer", "path", "code", "stage", "detail"],
        ]
    }

    /// RFC 9457 problem details as Vetted writes them.
    static var problemDetails: JSONValue {
        [
            "type": "object",
            "properties": [
                "type": ["type": "string"], "title": ["type": "string"], "status": ["type": "integer"], "detail": ["type": "string"],
                "errors": ["type": "array", "items": problemEntry],
            ],
            "required": ["type", "title", "status", "detail", "errors"],
        ]
    }
}
