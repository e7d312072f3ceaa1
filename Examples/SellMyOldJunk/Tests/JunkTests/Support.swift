import AsyncHTTPClient
import Foundation
import JunkClient
import JunkServer
import Vetted

/// A seeded generator (SplitMix64): random tests print their seed and can be replayed with `JUNK_SEED`.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// The seed from `JUNK_SEED`, or a fresh one; printed either way.
    static func seed(for test: String) -> UInt64 {
        let seed = ProcessInfo.processInfo.environment["JUNK_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 1...UInt64(UInt32.max))
        print("\(test): seed \(seed) (replay with JUNK_SEED=\(seed))")
        return seed
    }
}

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
    let folder = try temporaryFolder("server")
    defer { try? FileManager.default.removeItem(at: folder) }
    let server = try await ListingsServer.start(try ListingsServer.prepare(dataDirectory: folder))
    let http = ListingsClient.makeHTTPClient()
    let client = ListingsClient(baseURL: server.baseURL, trustedKeys: try TrustedKeys([server.service.identity.publicKey]), http: http)
    do {
        let result = try await body(server, client)
        try await http.shutdown()
        await server.stop()
        return result
    } catch {
        try? await http.shutdown()
        await server.stop()
        throw error
    }
}
