// The streams article's sample (DecodingStreams), compiled and run on a JSON Lines body cut
// into chunks at odd places.

import Foundation
import Synchronization
import Testing
import Vetted
import VettedMacros

private let stored = Mutex<[Reading]>([])
private func store(_ reading: Reading) { stored.withLock { $0.append(reading) } }

// sample: DecodingStreams.md#1
@Vetted struct Reading: Codable {
    @Check(.range(-50...60)) var celsius: Int
    @Check(.length(1...16)) var sensor: String
}

/// Stores each valid reading as it arrives; returns where each refused one was.
func importReadings(from body: some AsyncSequence<[UInt8], any Error>) async throws -> [String] {
    let decoder = VettedJSONDecoder()
    decoder.limits.maxRecordBytes = 4 << 10        // a longer line fails, unread
    var refused: [String] = []
    for try await element in decoder.elements(of: Reading.self, from: body, framing: .jsonLines, onError: .skip) {
        switch element.result {
        case .success(let reading): store(reading)
        case .failure(let error): refused.append("line \(element.line): \(error)")
        }
    }
    return refused
}
// end sample

@Suite(.serialized) struct StreamSampleTests {
    @Test func importReadingsStoresTheValidAndLocatesTheRest() async throws {
        let body = """
            {"celsius": 21, "sensor": "roof"}
            {"celsius": 99, "sensor": "oven"}

            {"celsius": 19, "sensor": "cellar"}
            """ + "\n{\"celsius\": 5, \"sensor\": \"" + String(repeating: "x", count: 5000) + "\"}\n"
        let bytes = Array(body.utf8)
        let chunks = AsyncThrowingStream<[UInt8], any Error> { continuation in
            for start in stride(from: 0, to: bytes.count, by: 13) { continuation.yield(Array(bytes[start..<min(bytes.count, start + 13)])) }
            continuation.finish()
        }
        stored.withLock { $0 = [] }
        let refused = try await importReadings(from: chunks)
        #expect(stored.withLock { $0.map(\.sensor) } == ["roof", "cellar"])
        #expect(refused.count == 2)
        #expect(refused.first?.hasPrefix("line 2: $[1].celsius: outOfRange:") == true)
        #expect(refused.last?.contains("recordTooLarge") == true)
        #expect(refused.last?.hasPrefix("line 5: ") == true)
    }
}
