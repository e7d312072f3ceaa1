#if OpenAPI  // the trait that brings in swift-openapi-runtime and Yams (Package.swift)
// VettedOpenAPI.docc's sample, compiled and run here, where swift-openapi-runtime is (DocSampleTests checks it matches the article).
import Testing
import VettedOpenAPI

@Suite("VettedOpenAPI's article sample")
struct OpenAPIArticleSamples {
    @Test func theOverviewSampleRefusesANegativePrice() throws {
        var refused: ProblemDetails?
        // sample: VettedOpenAPI.md#1
        let contract = try OpenAPIContract("""
            openapi: 3.1.0
            info: {title: Listings, version: '1'}
            paths:
              /listings:
                post:
                  operationId: createListing
                  requestBody:
                    required: true
                    content:
                      application/json:
                        schema:
                          type: object
                          required: [price]
                          properties:
                            price: {type: number, minimum: 0}
                            sold: {type: boolean, default: false}
                  responses:
                    '201': {description: Created}
            """)
        let middleware = VettedOpenAPIMiddleware(contract: contract, applyDefaults: true)
        // try handler.registerHandlers(on: router, middlewares: [middleware])

        // The same check without a server:
        let request = HTTPRequest(method: .post, scheme: "https", authority: "example.com", path: "/listings",
                                  headerFields: [.contentType: "application/json"])
        if case .failure(let problem) = contract.check(operationID: "createListing", request: request, body: Array(#"{"price": -5}"#.utf8)) {
            print(problem.details.status, problem.details.errors[0].pointer, problem.details.errors[0].code)   // 422 /price minimum
        }
        // end sample
        if case .failure(let problem) = contract.check(operationID: "createListing", request: request, body: Array(#"{"price": -5}"#.utf8)) {
            refused = problem.details
        }
        #expect(middleware.applyDefaults)
        #expect(refused?.status == 422)
        #expect(refused?.errors.map(\.pointer) == ["/price"])
        #expect(refused?.errors.map(\.code) == ["minimum"])
    }
}
#endif
