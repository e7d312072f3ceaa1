public import Foundation
public import Hummingbird
public import Logging
import HummingbirdCore
import ServiceLifecycle
import VettedHummingbird

/// Bounds on what connections may hold, enforced by Hummingbird itself: an idle
/// connection (or one that sends its request head too slowly) is closed after
/// ``idleTimeout``; past ``maxConnections`` open connections, new ones wait in the
/// listen backlog until others close. A refused body's connection is closed with
/// its answer (`VettedConnectionCloser`), so refused requests cannot hold the limit.
public struct ConnectionLimits: Sendable {
    public var idleTimeout: Duration
    public var maxConnections: Int

    public init(idleTimeout: Duration = .seconds(15), maxConnections: Int = 1_024) {
        self.idleTimeout = idleTimeout
        self.maxConnections = maxConnections
    }

    public static let `default` = ConnectionLimits()
}

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
        _ service: ListingsService, port: Int, logLevel: Logger.Level = .info, limits: ConnectionLimits = .default,
        onRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        var logger = Logger(label: "junk-server")
        logger.logLevel = logLevel
        let idle = limits.idleTimeout.components
        return Application(
            router: service.router(),
            // A refused body's connection ends with its answer (413 and 408 say `Connection: close`):
            // a sender that trickles the refused body cannot hold a connection past the refusal.
            server: .http1(
                configuration: .init(
                    additionalChannelHandlers: [VettedConnectionCloser()],
                    idleTimeout: .nanoseconds(idle.seconds * 1_000_000_000 + idle.attoseconds / 1_000_000_000))),
            configuration: .init(
                address: .hostname("127.0.0.1", port: port), serverName: "junk-server",
                availableConnectionsDelegate: MaximumAvailableConnections(limits.maxConnections)),
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? port) },
            logger: logger)
    }

    /// Runs until SIGINT or SIGTERM (then shuts down gracefully).
    public static func run(
        _ service: ListingsService, port: Int, limits: ConnectionLimits = .default, onRunning: @escaping @Sendable (Int) async -> Void
    ) async throws {
        try await application(service, port: port, logLevel: .info, limits: limits, onRunning: onRunning).runService()
    }

    /// Starts the server in this process on an ephemeral loopback port.
    public static func start(_ service: ListingsService, port: Int = 0, limits: ConnectionLimits = .default) async throws -> RunningServer {
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let app = application(service, port: port, logLevel: .error, limits: limits) { port in
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
