public import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// A bounded, in-repo load generator for `GET /listings` (used when wrk is
/// not installed), and the flood of bad POSTs the server must shrug off.
public enum LoadGenerator {
    public struct Result: Sendable, CustomStringConvertible {
        public var requests: Int
        public var failures: Int
        public var seconds: Double
        /// Latencies in milliseconds, sorted.
        public var latencies: [Double]

        public var requestsPerSecond: Double { seconds > 0 ? Double(requests) / seconds : 0 }
        public func percentile(_ p: Double) -> Double {
            guard !latencies.isEmpty else { return 0 }
            let rank = Int(exactly: (Double(latencies.count) * min(max(p, 0), 1)).rounded(.up)) ?? latencies.count
            let index = min(latencies.count - 1, max(0, rank - 1))
            return latencies[index]
        }
        public var description: String {
            String(
                format: "%d requests in %.1f s: %.0f requests/s; latency p50 %.2f ms, p99 %.2f ms, max %.2f ms; %d failed",
                requests, seconds, requestsPerSecond, percentile(0.5), percentile(0.99), latencies.last ?? 0, failures)
        }
    }

    /// `junk load`: GETs alone, then a flood of bad POSTs with GETs alongside.
    public static func report(server: String, connections: Int, seconds: Int, print: (String) -> Void = { Swift.print($0) }) async throws {
        let http = makeHTTPClient(connections: connections * 2)
        let url = server + "/listings"
        let get = await run(connections: connections, duration: .seconds(seconds)) { await LoadGenerator.get(http, url) }
        print("GET /listings, \(connections) connections: \(get)")
        async let flood = run(connections: connections, duration: .seconds(seconds)) {
            await LoadGenerator.post(http, url, BadPost.allCases.randomElement() ?? .malformed)
        }
        async let during = run(connections: max(1, connections / 4), duration: .seconds(seconds)) { await LoadGenerator.get(http, url) }
        let (bad, good) = await (flood, during)
        print("flood of bad POSTs (oversize declared/streamed, malformed, invalid), \(connections) connections: \(bad)")
        print("GET /listings during the flood, \(max(1, connections / 4)) connections: \(good)")
        try await http.shutdown()
    }

    /// An HTTP client with a pool as large as the load's concurrency.
    public static func makeHTTPClient(connections: Int) -> HTTPClient {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(idleTimeout: .seconds(30), concurrentHTTP1ConnectionsPerHostSoftLimit: connections)
        configuration.timeout = .init(connect: .seconds(5), read: .seconds(30))
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    /// `connections` concurrent loops of `request`, for `duration` (bounded: it always ends).
    ///
    /// Each loop makes at least one request, even when it starts after the deadline: on a
    /// loaded machine a task can wait for a thread longer than the whole duration, and a run
    /// that measured nothing would read as "no requests served".
    public static func run(
        connections: Int, duration: Duration, _ request: @escaping @Sendable () async -> Bool
    ) async -> Result {
        let clock = ContinuousClock()
        let start = clock.now
        let deadline = start.advanced(by: duration)
        let perTask = await withTaskGroup(of: ([Double], Int).self) { group in
            for _ in 0..<max(1, connections) {
                group.addTask {
                    var latencies: [Double] = []
                    var failures = 0
                    repeat {
                        let began = clock.now
                        let ok = await request()
                        let elapsed = began.duration(to: clock.now)
                        if ok {
                            latencies.append(Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15)
                        } else {
                            failures += 1
                        }
                    } while clock.now < deadline
                    return (latencies, failures)
                }
            }
            var all: [([Double], Int)] = []
            for await part in group { all.append(part) }
            return all
        }
        let elapsed = start.duration(to: clock.now)
        let latencies = perTask.flatMap(\.0).sorted()
        return Result(
            requests: latencies.count, failures: perTask.reduce(0) { $0 + $1.1 },
            seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18, latencies: latencies)
    }

    /// One `GET url`, body read in full; true on 200.
    public static func get(_ http: HTTPClient, _ url: String) async -> Bool {
        do {
            let response = try await http.execute(HTTPClientRequest(url: url), timeout: .seconds(30))
            var bytes = 0
            for try await chunk in response.body { bytes += chunk.readableBytes }
            return response.status == .ok && bytes > 0
        } catch {
            return false
        }
    }

    /// The kinds of bad POST in a flood.
    public enum BadPost: String, Sendable, CaseIterable {
        /// 1 MB with a Content-Length: refused from the header.
        case oversizeDeclared
        /// 1 MB streamed without a length (chunked): refused at the cap while reading.
        case oversizeStreamed
        /// Not JSON at all.
        case malformed
        /// JSON breaking every rule.
        case invalid

        var expectedStatus: UInt {
            switch self {
            case .oversizeDeclared, .oversizeStreamed: 413
            case .malformed: 400
            // `invalid` breaks rules, but its `"sold":"no"` is of the wrong type: a structure error,
            // well-formed JSON that does not fit the model, 422 (as FastAPI answers it).
            case .invalid: 422
            }
        }
    }

    /// One bad POST; true when the server answered as it should.
    public static func post(_ http: HTTPClient, _ url: String, _ kind: BadPost) async -> Bool {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        switch kind {
        case .oversizeDeclared:
            request.body = .bytes(ByteBuffer(repeating: UInt8(ascii: "["), count: 1_000_000))
        case .oversizeStreamed:
            request.body = .stream(Self.spaces(chunks: 16, of: 64 * 1024), length: .unknown)
        case .malformed:
            request.body = .bytes(ByteBuffer(string: "{\"id\": 1, \"name\": \"Guitar\", \"tags\": [\"music\",,]"))
        case .invalid:
            request.body = .bytes(
                ByteBuffer(
                    string: """
                        {"id":-5,"name":"","description":"","price":"-1","sold":"no","url":"http://evil.test",\
                        "tags":[],"created":"yesterday","last_updated":"2018-05-01T10:39:04Z"}
                        """))
        }
        do {
            let response = try await http.execute(request, timeout: .seconds(30))
            for try await _ in response.body {}
            return response.status.code == kind.expectedStatus
        } catch {
            // The server may close the connection after refusing an oversize body it did not read.
            return kind == .oversizeDeclared || kind == .oversizeStreamed
        }
    }
}

extension LoadGenerator {
    /// `chunks` buffers of spaces, as a body of unknown length.
    static func spaces(chunks: Int, of size: Int) -> AsyncStream<ByteBuffer> {
        AsyncStream { continuation in
            for _ in 0..<chunks { continuation.yield(ByteBuffer(repeating: UInt8(ascii: " "), count: size)) }
            continuation.finish()
        }
    }
}
