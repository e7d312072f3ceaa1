import Foundation
import JunkClient
import JunkDemo
import JunkServer
import Vetted

/// A fresh temporary folder.
func temporaryFolder(_ name: String) throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("junk-test-\(name)-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// The package's executables are built beside the test bundle.
func executable(_ name: String) -> URL {
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    if directory.pathExtension == "xctest" { directory.deleteLastPathComponent() }
    return directory.appendingPathComponent(name)
}

/// Runs a server in this process for the duration of `body`.
func withLiveServer<T>(_ body: (RunningServer, ListingsClient) async throws -> T) async throws -> T {
    try await LiveServer.with { server, client, _ in try await body(server, client) }
}

/// Runs blocking work (a pipe read, a wait for a process) on a thread of its own, so that it
/// does not hold one of the cooperative pool's threads: there are as many as cores (two on
/// CI), and a test blocked on one starves every other test's tasks meanwhile.
func offThePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
    }
}
