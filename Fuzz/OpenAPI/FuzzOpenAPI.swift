// VettedOpenAPI under fuzzing: the first byte picks what the rest is. 0: an OpenAPI
// document (YAML or JSON), compiled; it must compile or throw a VettedError, and a
// compiled one must answer a request. Otherwise: a request to the example's listings
// API (a body and, after a newline, a query), checked by the contract, with defaults
// filled in when the selector is odd. A refusal is one of the statuses the middleware
// documents; a body handed on with defaults filled in must be accepted again as it is.
// Run with scripts/fuzz.sh openapi SECONDS.

import Foundation
import VettedOpenAPI

let listings: OpenAPIContract? = {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Examples/ListingsOpenAPI/Sources/ListingsAPI/openapi.yaml")
    return (try? Data(contentsOf: url)).flatMap { try? OpenAPIContract($0) }
}()

func request(_ method: HTTPRequest.Method, _ path: String, json: Bool = true) -> HTTPRequest {
    HTTPRequest(method: method, scheme: "http", authority: "localhost", path: path, headerFields: json ? [.contentType: "application/json"] : [:])
}

func fuzzOne(_ input: [UInt8]) {
    guard let selector = input.first, let listings else { return }
    let bytes = Array(input.dropFirst())
    if selector == 0 {
        guard let contract = try? OpenAPIContract(Data(bytes)) else { return }
        for operation in contract.operationIDs.prefix(4) {
            _ = contract.check(operationID: operation, request: request(.post, "/?a=1&b=x"), body: Array(#"{"a":1}"#.utf8), applyDefaults: true)
        }
        return
    }
    let split = bytes.firstIndex(of: 0x0A) ?? bytes.endIndex
    let body = Array(bytes[..<split])
    let query = String(decoding: bytes[split...].dropFirst(), as: UTF8.self).filter { $0 != "#" }
    let applyDefaults = selector % 2 == 1
    for (operation, method, path) in [("createListing", HTTPRequest.Method.post, "/listings"), ("listListings", .get, "/listings?" + query)] {
        switch listings.check(operationID: operation, request: request(method, path), body: body, applyDefaults: applyDefaults) {
        case .success(let handedOn):
            if !applyDefaults { precondition(handedOn == body, "a body is handed on as it was read") }
            if applyDefaults, let handedOn, case .failure(let problem) = listings.check(
                operationID: operation, request: request(method, path), body: handedOn, applyDefaults: true)
            {
                preconditionFailure("a body with its defaults filled in is refused: \(problem)")
            }
        case .failure(let problem):
            precondition([400, 415, 422].contains(problem.details.status), "an undocumented status: \(problem.details.status)")
            precondition(!problem.details.errors.isEmpty, "a refusal names what is wrong")
        }
    }
}

#if FUZZING
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOpenAPI(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    fuzzOne(Array(UnsafeRawBufferPointer(start: start, count: count)))
    return 0
}
#else
@main
struct Replay {
    /// `fuzz-openapi FILE…` runs each file through the fuzz body.
    static func main() throws {
        let arguments = Array(CommandLine.arguments.dropFirst())
        precondition(listings != nil, "the example's openapi.yaml did not compile")
        for path in arguments {
            fuzzOne(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        }
        print("replayed \(arguments.count) inputs")
    }
}
#endif
