#if OpenAPI  // the trait that brings in swift-openapi-runtime and Yams (Package.swift)
import Foundation
import HTTPTypes
import Testing
import VettedOpenAPI
import VettedTestSupport

/// The error compiling `document` throws.
func compileError(_ document: String, options: OpenAPIContract.Options = .init()) -> VettedError? {
    do {
        _ = try OpenAPIContract(document, options: options)
        return nil
    } catch {
        return error
    }
}

/// The problem a POST of `body` to `operation` is refused with, or `nil` if it is accepted.
func refusal(_ contract: OpenAPIContract, _ operation: String, _ body: String) -> ProblemDetails? {
    var fields = HTTPFields()
    fields[.contentType] = "application/json"
    let request = HTTPRequest(method: .post, scheme: "http", authority: "localhost", path: "/", headerFields: fields)
    switch contract.check(operationID: operation, request: request, body: Array(body.utf8)) {
    case .success: return nil
    case .failure(let problem): return problem.details
    }
}

@Suite("OpenAPIContract: documents read as OpenAPI 3.0 and 3.1 mean them, refused loudly at start-up")
struct OpenAPIContractTests {
    static let document30 = """
        openapi: 3.0.3
        info: {title: t, version: '1'}
        paths:
          /items:
            post:
              requestBody:
                content:
                  application/json:
                    schema: {$ref: '#/components/schemas/Item'}
              responses:
                '200': {description: ok}
        components:
          schemas:
            Item:
              type: object
              properties:
                note: {type: string, nullable: true}
                price: {type: number, minimum: 0, exclusiveMinimum: true}
                size: {type: integer, maximum: 10, exclusiveMaximum: false}
                kind: {$ref: '#/components/schemas/Kind', description: ignored sibling, maxLength: 1}
                answer: {type: string, enum: [yes, no, on], example: yes}
            Kind: {type: string, enum: [small, large]}
        """

    /// The methods a path takes, for a 405's `Allow`; `nil` (404) for a path the document does not have.
    @Test func allowedMethodsAreTheDocumentsForTheMatchingPath() throws {
        let contract = try OpenAPIContract(
            """
            openapi: 3.1.0
            info: {title: t, version: '1'}
            paths:
              /items: {get: {responses: {'200': {description: ok}}}, post: {responses: {'201': {description: ok}}}}
              /items/{id}: {delete: {responses: {'204': {description: ok}}}}
              /items/{id}/tags: {put: {responses: {'200': {description: ok}}}}
              /files/{name}.json: {get: {responses: {'200': {description: ok}}}}
              /items/special: {patch: {responses: {'200': {description: ok}}}}
            """)
        #expect(contract.allowedMethods(forPath: "/items") == ["GET", "POST"])
        #expect(contract.allowedMethods(forPath: "/items/") == ["GET", "POST"])
        #expect(contract.allowedMethods(forPath: "/items/42") == ["DELETE"])
        #expect(contract.allowedMethods(forPath: "/items/42/tags") == ["PUT"])
        #expect(contract.allowedMethods(forPath: "/files/a.json") == ["GET"])
        // A concrete path and a template both match: the methods of both.
        #expect(contract.allowedMethods(forPath: "/items/special") == ["DELETE", "PATCH"])
        #expect(contract.allowedMethods(forPath: "/items/42/other") == nil)
        #expect(contract.allowedMethods(forPath: "/nowhere") == nil)
        #expect(contract.allowedMethods(forPath: "/") == nil)
    }

    /// OpenAPI 3.0: a required property that is `readOnly` is required of responses only, and one
    /// that is `writeOnly` of requests only (through a `$ref` too); 3.1 reads both as annotations.
    @Test func readOnlyAndWriteOnlyRequiredPropertiesAreRequiredOneWayIn30() throws {
        func document(_ version: String) -> String {
            """
            openapi: \(version)
            info: {title: t, version: '1'}
            paths:
              /users:
                post:
                  operationId: create
                  requestBody:
                    content:
                      application/json:
                        schema: {$ref: '#/components/schemas/User'}
                  responses:
                    '201':
                      description: ok
                      content:
                        application/json:
                          schema: {$ref: '#/components/schemas/User'}
            components:
              schemas:
                User:
                  type: object
                  required: [id, name, password]
                  properties:
                    id: {$ref: '#/components/schemas/Id'}
                    name: {type: string}
                    password: {type: string, writeOnly: true}
                Id: {type: integer, readOnly: true}
            """
        }
        func response(_ contract: OpenAPIContract, _ body: String) -> [String]? {
            var fields = HTTPFields()
            fields[.contentType] = "application/json"
            return contract.checkResponse(operationID: "create", response: HTTPResponse(status: .created, headerFields: fields), body: Array(body.utf8))?
                .errors.map { "\($0.code) \($0.path)" }
        }
        let contract30 = try OpenAPIContract(document("3.0.3"))
        #expect(refusal(contract30, "create", #"{"name": "a", "password": "p"}"#) == nil)
        #expect(refusal(contract30, "create", #"{"id": 1, "name": "a"}"#)?.errors.map(\.pointer) == [""])
        #expect(response(contract30, #"{"id": 1, "name": "a"}"#) == nil)
        #expect(response(contract30, #"{"name": "a", "password": "p"}"#) == ["required $"])
        let contract31 = try OpenAPIContract(document("3.1.0"))
        #expect(refusal(contract31, "create", #"{"name": "a", "password": "p"}"#)?.errors.map(\.code) == ["required"])
        #expect(response(contract31, #"{"id": 1, "name": "a"}"#) == ["required $"])
    }

    @Test func openAPI30SchemasAreReadAs30MeansThem() throws {
        let contract = try OpenAPIContract(Self.document30)
        #expect(contract.isOpenAPI30)
        #expect(contract.operationIDs == ["post/items"])
        #expect(refusal(contract, "post/items", #"{"note":null,"price":0.5,"size":10,"kind":"large","answer":"yes"}"#) == nil)
        let refused = try #require(refusal(contract, "post/items", #"{"price":0,"size":11,"kind":"medium","answer":true}"#))
        #expect(refused.status == 422)
        #expect(refused.errors.map(\.code) == ["exclusiveMinimum", "maximum", "enum", "type", "enum"])
        #expect(refused.errors.map(\.pointer) == ["/price", "/size", "/kind", "/answer", "/answer"])
        #expect(refused.errors.first?.parameters["schemaLocation"] == .string("#/components/schemas/Item/properties/price/exclusiveMinimum"))
    }

    @Test func yamlPlainScalarsAreReadByYAML12sCoreSchema() throws {
        let contract = try OpenAPIContract(
            """
            openapi: 3.1.0
            info: {title: t, version: '1'}
            paths:
              /x:
                post:
                  operationId: x
                  requestBody:
                    content:
                      application/json:
                        schema:
                          type: object
                          properties:
                            flag: {enum: [yes, off, 2024-01-01]}
                            count: {maximum: 0x10}
                            ratio: {minimum: .5, maximum: +1.}
                  responses: {}
            """)
        #expect(refusal(contract, "x", #"{"flag":"yes","count":16,"ratio":1}"#) == nil)
        #expect(refusal(contract, "x", #"{"flag":"2024-01-01","ratio":0.5}"#) == nil)
        let refused = try #require(refusal(contract, "x", #"{"flag":true,"count":17,"ratio":0.4}"#))
        #expect(refused.errors.map(\.code) == ["enum", "maximum", "minimum"])
    }

    @Test func aReferenceThatNamesNothingIsAStartUpErrorNamingTheOperation() throws {
        let error = try #require(
            compileError(
                """
                {"openapi":"3.1.0","info":{"title":"t","version":"1"},"paths":{"/x":{"post":{"operationId":"makeX",
                "requestBody":{"content":{"application/json":{"schema":{"$ref":"#/components/schemas/Missing"}}}},"responses":{}}}}}
                """))
        #expect(error.code == .unresolvableReference)
        #expect(error.message.hasPrefix("operation makeX (POST /x): the request body, application/json: "))
        #expect(error.parameters["operation"] == .string("makeX"))
    }

    @Test func anExternalReferenceIsRefusedNotFetched() throws {
        let error = try #require(
            compileError(
                """
                {"openapi":"3.1.0","info":{"title":"t","version":"1"},"paths":{"/x":{"get":{"parameters":[{"$ref":"other.yaml#/p"}],"responses":{}}}}}
                """))
        #expect(error.code == .unresolvableReference)
        #expect(error.message == "operation get/x (GET /x): a parameter: other.yaml#/p names nothing in this document (other documents are not fetched: bundle them)")
    }

    @Test func aDefaultThatBreaksItsOwnSchemaIsAStartUpError() throws {
        let error = try #require(
            compileError(
                """
                {"openapi":"3.1.0","info":{"title":"t","version":"1"},"paths":{"/x":{"post":{"operationId":"x",
                "requestBody":{"content":{"application/json":{"schema":{"type":"object","properties":{"code":{"type":"string","maxLength":3,"default":"toolong"}}}}}},"responses":{}}}}}
                """))
        #expect(error.code == .defaultBreaksRule)
        #expect(error.parameters["schemaLocation"] == .string("#/paths/~1x/post/requestBody/content/application~1json/schema/properties/code"))
    }

    @Test func aBodyOfAnotherMediaTypeWithConstraintsIsRefusedUnlessNamed() throws {
        let document = """
            {"openapi":"3.1.0","info":{"title":"t","version":"1"},"paths":{"/x":{"post":{"operationId":"upload",
            "requestBody":{"content":{"multipart/form-data":{"schema":{"type":"object","required":["file"]}},
            "application/octet-stream":{"schema":{"type":"string","format":"binary"}}}},"responses":{}}}}}
            """
        let error = try #require(compileError(document))
        #expect(error.code == .invalidOpenAPIDocument)
        #expect(error.message.contains("multipart/form-data: only JSON bodies are checked"))
        let contract = try OpenAPIContract(document, options: .init(uncheckedMediaTypes: ["multipart/form-data"]))
        #expect(contract.operationIDs == ["upload"])
    }

    @Test func objectParametersAndContentParametersAreRefusedNotSkipped() throws {
        let error = try #require(
            compileError(
                """
                {"openapi":"3.1.0","info":{"title":"t","version":"1"},"paths":{"/x":{"get":{"operationId":"find",
                "parameters":[{"name":"filter","in":"query","style":"deepObject","schema":{"type":"object","properties":{"a":{"type":"integer"}}}}],"responses":{}}}}}
                """))
        #expect(error.message == "operation find (GET /x): query parameter filter is an object, which Vetted does not check yet")
    }

    @Test func swaggerAndUnknownVersionsAreRefused() throws {
        #expect(compileError(#"{"swagger":"2.0","info":{},"paths":{}}"#)?.message == #"the document has no "openapi" version (Swagger 2.0 is not read)"#)
        #expect(compileError(#"{"openapi":"4.0.0","paths":{}}"#)?.message == "OpenAPI 4.0.0 is not read; Vetted reads 3.0 and 3.1")
    }

    @Test func yamlMergeKeysAndBrokenYAMLAreLocatedErrors() throws {
        let merge = try #require(compileError("openapi: 3.1.0\nbase: &b {a: 1}\nother:\n  <<: *b\n"))
        #expect(merge.code == .invalidOpenAPIDocument)
        #expect(merge.path == [.key("other")])
        let broken = try #require(compileError("openapi: 3.1.0\npaths: [\n"))
        #expect(broken.code == .invalidOpenAPIDocument)
        #expect(broken.message.hasPrefix("the document is not well-formed YAML: "))
        #expect(broken.message.hasSuffix("at line 3, column 1"))
    }

    @Test func anAliasBombIsRefusedWithinTheLimits() throws {
        var yaml = "openapi: 3.1.0\na0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
        for level in 1...9 { yaml += "a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ") + "]\n" }
        let error = try #require(compileError(yaml))
        #expect(error.code == .amplificationLimitExceeded)
    }

    @Test func deepYAMLIsRefusedBeforeYamsRecursesIntoIt() throws {
        let yaml = "openapi: 3.1.0\nx: " + String(repeating: "[", count: 600) + String(repeating: "]", count: 600) + "\n"
        let error = try #require(compileError(yaml))
        #expect(error.code == .depthLimitExceeded)
        #expect(error.message == "the YAML document nests about 600 levels deep (indentation and brackets), more than 512")
    }

    @Test func aParameterDeclaredOnThePathItemIsOverriddenByTheOperations() throws {
        let contract = try OpenAPIContract(
            """
            {"openapi":"3.1.0","info":{"title":"t","version":"1"},"paths":{"/x":{
            "parameters":[{"name":"n","in":"query","required":true,"schema":{"type":"integer","maximum":1}}],
            "get":{"operationId":"x","parameters":[{"name":"n","in":"query","schema":{"type":"integer","maximum":5}}],"responses":{}}}}}
            """)
        func status(_ path: String) -> Int? {
            let request = HTTPRequest(method: .get, scheme: "http", authority: "localhost", path: path)
            guard case .failure(let problem) = contract.check(operationID: "x", request: request, body: nil) else { return nil }
            return problem.details.status
        }
        #expect(status("/x?n=3") == nil)
        #expect(status("/x") == nil)
        #expect(status("/x?n=6") == 422)
    }

    /// The body `check` hands on for `body` with defaults filled in, as text, or the problem's status.
    static func filled(_ contract: OpenAPIContract, _ body: String) -> String {
        var fields = HTTPFields()
        fields[.contentType] = "application/json"
        let request = HTTPRequest(method: .post, scheme: "http", authority: "localhost", path: "/x", headerFields: fields)
        switch contract.check(operationID: "x", request: request, body: Array(body.utf8), applyDefaults: true) {
        case .success(let bytes): return String(decoding: bytes ?? [], as: UTF8.self)
        case .failure(let problem): return "\(problem.details.status) \(problem.details.errors.map(\.pointer))"
        }
    }

    @Test func defaultsAreFilledThroughReferencesAllOfItemsAndARecursiveSchema() throws {
        let contract = try OpenAPIContract(
            """
            {"openapi":"3.1.0","info":{"title":"t","version":"1"},"paths":{"/x":{"post":{"operationId":"x",
            "requestBody":{"content":{"application/json":{"schema":{"$ref":"#/components/schemas/Node"}}}},"responses":{}}}},
            "components":{"schemas":{
              "Node":{"allOf":[{"$ref":"#/components/schemas/Named"}],"type":"object","properties":{
                "sold":{"type":"boolean","default":false},
                "kind":{"$ref":"#/components/schemas/Kind"},
                "children":{"type":"array","items":{"$ref":"#/components/schemas/Node"}}}},
              "Named":{"properties":{"name":{"type":"string","default":"-","maxLength":5}}},
              "Kind":{"type":"string","enum":["a","b"],"default":"a"}}}}
            """)
        #expect(Self.filled(contract, #"{"children":[{"sold":true},{"name":"n","children":[{}]}]}"#)
            == #"{"children":[{"sold":true,"kind":"a","name":"-"},{"name":"n","children":[{"sold":false,"kind":"a","name":"-"}],"sold":false,"kind":"a"}],"sold":false,"kind":"a","name":"-"}"#)
        // Filled only in a valid body; an invalid one is refused as sent.
        #expect(Self.filled(contract, #"{"children":[{"name":"toolong"}]}"#) == "422 [\"/children/0/name\"]")
    }

    @Test func aBodyWithNoDefaultsToFillIsHandedOnAsSent() throws {
        let contract = try OpenAPIContract(
            """
            {"openapi":"3.1.0","info":{"title":"t","version":"1"},"paths":{"/x":{"post":{"operationId":"x",
            "requestBody":{"content":{"application/json":{"schema":{"type":"object","properties":{"a":{"type":"array","items":{"type":"integer"}}}}}}},"responses":{}}}}}
            """)
        #expect(Self.filled(contract, "{ \"a\" : [1, 2] }") == "{ \"a\" : [1, 2] }")
    }

    @Test func aContentTypeIsMatchedWithoutItsParametersCaseOrBlanks() throws {
        let contract = try OpenAPIContract(
            """
            {"openapi":"3.1.0","info":{"title":"t","version":"1"},"paths":{"/x":{"post":{"operationId":"x",
            "requestBody":{"content":{"application/json":{"schema":{"type":"integer"}},"text/*":{"schema":{"type":"string"}}}},"responses":{}}}}}
            """)
        func status(_ contentType: String, _ body: String) -> Int? {
            var fields = HTTPFields()
            fields[.contentType] = contentType
            let request = HTTPRequest(method: .post, scheme: "http", authority: "localhost", path: "/x", headerFields: fields)
            switch contract.check(operationID: "x", request: request, body: Array(body.utf8)) {
            case .success: return nil
            case .failure(let problem): return problem.details.status
            }
        }
        #expect(status(" Application/JSON ; charset=utf-8", "1") == nil)
        #expect(status("application/json\t", "\"a\"") == 422)
        #expect(status("TEXT/Plain", "anything") == nil)
        #expect(status("application/jsonx", "1") == 415)
        #expect(status("application/json\u{A0}", "1") == nil)  // not ASCII: trimmed as Foundation trims whitespace
        #expect(status(";", "1") == 415)
    }

    /// A document may key a media type with its parameters (`application/json; charset=utf-8`):
    /// a `Content-Type` written exactly as that key is the most specific match and reads that
    /// key's schema; any other spelling is matched by its essence, the bare key.
    @Test func aMediaTypeKeyedWithItsParametersIsTheMostSpecificMatch() throws {
        let contract = try OpenAPIContract(
            """
            {"openapi":"3.1.0","info":{"title":"t","version":"1"},"paths":{"/x":{"post":{"operationId":"x",
            "requestBody":{"content":{"application/json; charset=utf-8":{"schema":{"type":"integer"}},"application/json":{"schema":{"type":"string"}}}},"responses":{}}}}}
            """)
        func outcome(_ contentType: String, _ body: String) -> String {
            var fields = HTTPFields()
            fields[.contentType] = contentType
            let request = HTTPRequest(method: .post, scheme: "http", authority: "localhost", path: "/x", headerFields: fields)
            switch contract.check(operationID: "x", request: request, body: Array(body.utf8)) {
            case .success: return "accepted"
            case .failure(let problem): return "\(problem.details.status) " + problem.details.errors.map { "\($0.pointer) \($0.code)" }.joined(separator: ", ")
            }
        }
        #expect(outcome("application/json; charset=utf-8", "1") == "accepted")
        #expect(outcome("application/json; charset=utf-8", "\"a\"") == "422  type")
        #expect(outcome("application/json", "\"a\"") == "accepted")
        #expect(outcome("application/json", "1") == "422  type")
        // Spelled otherwise than the key: the essence's key.
        #expect(outcome("application/json;charset=utf-8", "\"a\"") == "accepted")
        #expect(outcome("Application/JSON; charset=utf-8", "\"a\"") == "accepted")
    }
}
#endif
