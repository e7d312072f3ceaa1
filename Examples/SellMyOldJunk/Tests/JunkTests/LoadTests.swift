import AsyncHTTPClient
import Foundation
import JunkDemo
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `junk-server` in its own process keeps serving during a flood of oversize
/// and malformed POSTs, with bounded memory. (Throughput figures are measured
/// with `junk load` or wrk, not asserted here: no timing in tests.)
@Suite struct LoadTests {
    /// The server's resident set, from /proc.
    static func residentBytes(_ pid: Int32) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") })
        let kilobytes = try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? ""))
        return kilobytes * 1024
    }

    /// `junk-server` in its own process on a free port, and its base URL once it listens.
    static func startServer(_ folder: URL, _ options: [String] = []) throws -> (Process, String) {
        let server = Process()
        server.executableURL = executable("junk-server")
        server.arguments = ["--port", "0", "--data-directory", folder.path] + options
        let output = Pipe()
        server.standardOutput = output
        server.standardError = FileHandle.nullDevice
        try server.run()
        // "junk-server: listening on http://127.0.0.1:PORT; …"
        var announced = ""
        while !announced.contains(";") {
            let data = output.fileHandleForReading.availableData
            guard !data.isEmpty else { break }
            announced += String(decoding: data, as: UTF8.self)
        }
        guard let base = announced.split(separator: " ").first(where: { $0.hasPrefix("http://127.0.0.1:") })?.dropLast() else {
            server.terminate()
            server.waitUntilExit()
            throw CocoaError(.featureUnsupported, userInfo: [NSLocalizedDescriptionKey: "junk-server did not announce its port: \(announced)"])
        }
        return (server, String(base))
    }

    @Test func theServerKeepsServingThroughAFloodOfBadPostsWithBoundedMemory() async throws {
        let folder = try temporaryFolder("flood")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (server, base) = try Self.startServer(folder)
        defer {
            server.terminate()
            server.waitUntilExit()
        }
        let url = base + "/listings"

        let http = LoadGenerator.makeHTTPClient(connections: 12)
        #expect(await LoadGenerator.get(http, String(url)))
        let before = try Self.residentBytes(server.processIdentifier)
        async let flood = LoadGenerator.run(connections: 8, duration: .seconds(3)) {
            await LoadGenerator.post(http, String(url), LoadGenerator.BadPost.allCases.randomElement() ?? .malformed)
        }
        async let gets = LoadGenerator.run(connections: 2, duration: .seconds(3)) { await LoadGenerator.get(http, String(url)) }
        let (bad, good) = await (flood, gets)
        let after = try Self.residentBytes(server.processIdentifier)
        try await http.shutdown()
        print("flood: \(bad)\nGETs meanwhile: \(good)\nserver RSS \(before / 1_048_576) MiB → \(after / 1_048_576) MiB")
        #expect(bad.failures == 0)
        #expect(bad.requests > 0)
        #expect(good.failures == 0)
        #expect(good.requests > 0)
        // Each bad POST is refused within 64 KiB; thousands of them must not add up.
        #expect(after - before < 64 * 1_048_576)
    }

    /// Idle connections and slow senders (a request head a byte every half second) are closed
    /// by the server at its idle timeout (Hummingbird's own), and its memory comes back down.
    @Test func idleAndSlowConnectionsAreClosedAndMemoryReturns() async throws {
        let folder = try temporaryFolder("idle")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (server, base) = try Self.startServer(folder, ["--idle-timeout", "1"])
        defer {
            server.terminate()
            server.waitUntilExit()
        }
        let port = try #require(base.split(separator: ":").last.map(String.init))
        let http = LoadGenerator.makeHTTPClient(connections: 2)
        #expect(await LoadGenerator.get(http, base + "/listings"))
        try await http.shutdown()
        let before = try Self.residentBytes(server.processIdentifier)

        let peer = Process()
        peer.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("idle_connections.py")
        peer.arguments = ["python3", script.path, port, "900", "100", "30"]  // within the 1,024-connection limit
        let peerOutput = Pipe()
        peer.standardOutput = peerOutput
        try peer.run()
        let reader = peerOutput.fileHandleForReading
        var lines = try await offThePool {
            var lines = ""
            while !lines.contains("open") {
                let data = reader.availableData
                guard !data.isEmpty else { break }
                lines += String(decoding: data, as: UTF8.self)
            }
            return lines
        }
        let peak = try Self.residentBytes(server.processIdentifier)
        lines += try await offThePool {
            let rest = reader.readDataToEndOfFile()
            peer.waitUntilExit()
            return String(decoding: rest, as: UTF8.self)
        }
        let after = try Self.residentBytes(server.processIdentifier)
        print("idle and slow connections: \(lines.split(separator: "\n").last ?? "") · server RSS \(before / 1_048_576) MiB → \(peak / 1_048_576) MiB with 1,000 open → \(after / 1_048_576) MiB after")
        // The server, not the peer's 30 s limit, closed every connection.
        #expect(lines.contains("closed 1000 of 1000"), "\(lines)")
        #expect(after - before < 32 * 1_048_576)
    }
}
