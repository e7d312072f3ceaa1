import ArgumentParser
import Hummingbird
import ListingsAPI

/// `listings-api --port N`: the listings API, its OpenAPI document enforced at the door.
@main
struct ListingsAPICommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "listings-api", abstract: "Serves the listings API of openapi.yaml, every constraint checked before a handler runs.")

    @Option(help: "The port to listen on (127.0.0.1).")
    var port = 8080

    @Flag(help: "Serve without VettedOpenAPIMiddleware: the generated stubs alone (to measure the middleware's cost, or see what reaches the handlers).")
    var unchecked = false

    @Flag(help: "Check requests only: no defaults filled in, responses not checked (the middleware's defaults).")
    var requestsOnly = false

    func run() async throws {
        try await ListingsApp.application(port: port, checking: unchecked ? .off : requestsOnly ? .requests : .full).runService()
    }
}
