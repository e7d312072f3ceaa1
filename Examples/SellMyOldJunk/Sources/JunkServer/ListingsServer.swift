public import Foundation
public import Hummingbird
public import Logging
import ServiceLifecycle

/// Running the listings server: from `junk-server`, or in-process (the demo, the tests).
public enum ListingsServer {
    /// Opens the data directory (created when missing): `listings.sqlite`
    /// (seeded on first run) and the server's key pair.
    public static func prepare(dataDirectory: URL) throws -> ListingsService {
        try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
        let store = try ListingsStore(path: dataDirectory.appendingPathComponent("listings.sqlite").path)
        return try ListingsService(store: store, identity: try ServerIdentity.loadOrCreate(in: dataDirectory))
    }

    /// The Hummingbird application, on loopback only.
    public static func application(
        _ service: ListingsService, port: Int, logLevel: Logger.Level = .info,
        onRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        var logger = Logger(label: "junk-server")
        logger.logLevel = logLevel
        return Application(
            router: service.router(),
            configuration: .init(address: .hostname("127.0.0.1", port: port), serverName: "junk-server"),
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? port) },
            logger: logger)
    }

    /// Runs until SIGINT or SIGTERM (then shuts down gracefully).
    public static func run(_ service: ListingsService, port: Int, onRunning: @escaping @Sendable (Int) async -> Void) async throws {
        try await application(service, port: port, logLevel: .info, onRunning: onRunning).runService()
    }

    /// Starts the server in this process on an ephemeral loopback port.
    public static func start(_ service: ListingsService, port: Int = 0) async throws -> RunningServer {
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let app = application(service, port: port, logLevel: .error) { port in
            continuation.yield(port)
            continuation.finish()
        }
        var logger = Logger(label: "junk-server")
        logger.logLevel = .error
        let group = ServiceGroup(services: [app], logger: logger)
        let task = Task {
            defer { continuation.finish() }
            try await group.run()
        }
        for await port in ports { return RunningServer(port: port, service: service, group: group, task: task) }
        // The server stopped before it listened: report why.
        try await task.value
        throw CocoaError(.featureUnsupported, userInfo: [NSLocalizedDescriptionKey: "the server stopped before it listened"])
    }
}

/// A server running in this process.
public struct RunningServer: Sendable {
    public let port: Int
    public let service: ListingsService
    let group: ServiceGroup
    let task: Task<Void, any Error>

    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Stops the server gracefully (in-flight requests finish) and waits until it has.
    public func stop() async {
        await group.triggerGracefulShutdown()
        _ = await task.result
    }
}
