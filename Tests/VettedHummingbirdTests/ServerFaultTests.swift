#if Hummingbird  // the trait that brings in the framework (Package.swift)
import Foundation
import HTTPTypes
import HummingbirdTesting
import Logging
import NIOCore
import Synchronization
import Testing
import VettedHummingbird
import VettedMacros
import VettedTestSupport

/// A union declared wrong: its tag key is also a field of its payload (the server's defect).
@Vetted struct FaultPayload: Codable { var code: String }
@Vetted(tag: "code") enum FaultyUnion: Codable { case caseG2(FaultPayload) }

/// Log records, kept for a test to read.
final class RecordedLogs: Sendable {
    let records = Mutex<[(Logger.Level, String)]>([])

    struct Handler: LogHandler {
        let logs: RecordedLogs
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) {
            let metadata = (event.metadata ?? [:]).merging(self.metadata) { first, _ in first }
            logs.records.withLock { $0.append((event.level, "\(event.message) \(metadata)")) }
        }
    }

    var logger: Logger { Logger(label: "test") { _ in Handler(logs: self) } }
}

@Suite struct HummingbirdServerFaultTests {
    /// A rule declared wrong is logged at error level, with what it is; the client sees a generic
    /// problem (before: not logged on Hummingbird, and the client saw `"pointer":"/CaseG2/code"`).
    @Test func aMisdeclaredRuleIsLoggedAndTheClientSeesAGenericProblem() async throws {
        let logs = RecordedLogs()
        let router = Router(context: ListingsContext.self)
        router.post("faulty") { request, context -> HTTPResponse.Status in
            _ = try await request.decode(as: FaultyUnion.self, context: context)
            return .ok
        }
        try await Application(router: router, logger: logs.logger).test(.router) { client in
            try await client.execute(
                uri: "/faulty", method: .post, headers: [.contentType: "application/json"], body: ByteBuffer(string: #"{"code":"caseG2"}"#)
            ) { response in
                #expect(response.status == .internalServerError)
                let text = String(decoding: response.body.readableBytesView, as: UTF8.self)
                #expect(
                    text
                        == #"{"type":"urn:vetted:problem:declaration","title":"Internal server error","status":500,"detail":"The server could not handle this request; the fault is the server's, not the body's.","errors":[]}"#)
            }
        }
        let errors = logs.records.withLock { $0.filter { $0.0 == .error }.map(\.1) }
        #expect(errors.count == 1)
        #expect(errors.first?.contains("unionKeyIsPayloadField") == true, "\(errors)")
    }
}
#endif
