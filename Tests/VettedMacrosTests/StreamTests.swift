import Foundation
import Testing
import VettedCore
@_spi(Testing) import VettedJSON
import VettedMacros
import VettedRules
import VettedTestSupport

// Streams of records: JSON Lines, JSON text sequences and the elements of one array,
// read from chunks as they are asked for, each record decoded alone.

/// Chunks handed out one by one, counting how many were asked for.
final class CountingChunks: AsyncSequence, @unchecked Sendable {
    // `@unchecked Sendable`: a test fixture iterated by one task at a time; `pulled` is read after.
    typealias Element = [UInt8]
    let chunks: [[UInt8]]
    var pulled = 0
    init(_ chunks: [[UInt8]]) { self.chunks = chunks }
    init(_ text: String, size: Int) {
        let bytes = Array(text.utf8)
        chunks = stride(from: 0, to: bytes.count, by: Swift.max(1, size)).map { Array(bytes[$0..<Swift.min(bytes.count, $0 + Swift.max(1, size))]) }
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        let owner: CountingChunks
        var next = 0
        mutating func next() async -> [UInt8]? {
            guard next < owner.chunks.count else { return nil }
            defer { next += 1 }
            owner.pulled += 1
            return owner.chunks[next]
        }
    }
    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(owner: self) }
}

/// What a stream gave: each element's place and outcome, then how it ended.
struct StreamOutcome {
    var elements: [(index: Int, offset: Int, line: Int, outcome: Outcome)] = []
    var ending: (any Error)?

    static func of<T: Decodable & Equatable>(
        _ type: T.Type, _ text: String, framing: VettedJSONDecoder.StreamFraming, onError: VettedJSONDecoder.StreamErrorPolicy = .skip,
        chunk: Int = 7, decoder: VettedJSONDecoder = VettedJSONDecoder()
    ) async -> StreamOutcome {
        var result = StreamOutcome()
        do {
            for try await element in decoder.elements(of: T.self, from: CountingChunks(text, size: chunk), framing: framing, onError: onError) {
                result.elements.append((element.index, element.offset, element.line, Outcome { try element.get() }))
            }
        } catch {
            result.ending = error
        }
        return result
    }
}

@Vetted struct Reading: Codable, Equatable {
    @Check(.range(0...100)) var value: Int
    @Check(.length(1...8)) var sensor: String
}

@Suite struct StreamTests {
    func vetted(_ error: (any Error)?) -> VettedError? {
        switch error {
        case let error as DecodingError: error.vettedError
        case let error as VettedError: error
        default: nil
        }
    }

    @Test func jsonLinesGiveEachRecordWithItsPlace() async throws {
        let text = "{\"value\":1,\"sensor\":\"a\"}\n\n  \r\n{\"value\":2,\"sensor\":\"b\"}\r\n   {\"value\":3,\"sensor\":\"c\"}"
        for chunk in [1, 2, 5, 64, 1 << 16] {
            var seen: [VettedElement<Reading>] = []
            for try await element in VettedJSONDecoder().elements(of: Reading.self, from: CountingChunks(text, size: chunk), framing: .jsonLines) {
                seen.append(element)
            }
            #expect(seen.map(\.index) == [0, 1, 2])
            #expect(seen.map(\.offset) == [0, 30, 59])
            #expect(seen.map(\.line) == [1, 4, 5])
            #expect(try seen.map { try $0.get().value } == [1, 2, 3])
        }
    }

    @Test func aFailingRecordsPathIsUnderItsIndexAndItsOffsetIsItsOwn() async throws {
        let text = "{\"value\":1,\"sensor\":\"a\"}\n{\"value\":500,\"sensor\":\"b\"}\n{\"value\":3}\n{\"value\":4,\"sensor\":\"d\"}\n"
        var elements: [VettedElement<Reading>] = []
        for try await element in VettedJSONDecoder().elements(of: Reading.self, from: CountingChunks(text, size: 3), framing: .jsonLines, onError: .skip) {
            elements.append(element)
        }
        #expect(elements.count == 4)
        // A rule violation: `$[1].value`, at its value's offset within the record.
        guard case .failure(let violation as ValidationErrors) = elements[1].result else {
            Issue.record("expected the rule violation, got \(elements[1].result)")
            return
        }
        #expect(violation.errors.map(\.code) == [.outOfRange])
        #expect(violation.errors.map(\.path.description) == ["$[1].value"])
        #expect(violation.errors.map(\.offset) == [9])
        #expect(elements[1].offset == 25 && elements[1].line == 2)
        // A missing field: `DecodingError` with the index first in its coding path.
        guard case .failure(let missing as DecodingError) = elements[2].result, case .keyNotFound(let key, let context) = missing else {
            Issue.record("expected keyNotFound, got \(elements[2].result)")
            return
        }
        #expect(key.stringValue == "sensor")
        #expect(context.codingPath.map(\.intValue) == [2])
        #expect(missing.vettedError?.code == .keyNotFound)
        #expect(missing.vettedError?.path.description == "$[2].sensor")
        #expect(missing.vettedError?.offset == 0)
        #expect(try elements[3].get().value == 4)
    }

    /// A record that does not fit in two places gives both errors, each under the record's
    /// index (before this was mended, the second kept the record's own path, `$.sensor`).
    @Test func aRecordsCollectedErrorsAreAllUnderItsIndex() async throws {
        let text = "{\"value\":1,\"sensor\":\"a\"}\n{\"value\":\"x\"}\n"
        var elements: [VettedElement<Reading>] = []
        for try await element in VettedJSONDecoder().elements(of: Reading.self, from: CountingChunks(text, size: 5), framing: .jsonLines, onError: .skip) {
            elements.append(element)
        }
        #expect(elements.count == 2)
        guard case .failure(let error as DecodingError) = elements[1].result, let located = error.vettedError else {
            Issue.record("expected a structural error, got \(elements[1].result)")
            return
        }
        #expect(located.all.map { "\($0.code) \($0.path) @\($0.offset ?? -1)" } == ["typeMismatch $[1].value @9", "keyNotFound $[1].sensor @0"])
        #expect(VettedFailure(error).errors.map(\.path.description) == ["$[1].value", "$[1].sensor"])
    }

    @Test func stopThrowsTheFirstFailingRecordsError() async throws {
        let text = "{\"value\":1,\"sensor\":\"a\"}\n{\"value\":1,\"sensor\":\"a\",}\n{\"value\":2,\"sensor\":\"b\"}\n"
        var values: [Int] = []
        do {
            for try await element in VettedJSONDecoder().elements(of: Reading.self, from: CountingChunks(text, size: 4), framing: .jsonLines) {
                values.append(try element.get().value)
            }
            Issue.record("the stream did not stop")
        } catch {
            let located = vetted(error)
            #expect(located?.code == .trailingComma)
            #expect(located?.path.description == "$[1].sensor")
            #expect(located?.offset == 23)
        }
        #expect(values == [1])
    }

    @Test func aRecordPastTheCapIsAFailureAndTheNextIsRead() async throws {
        let decoder = VettedJSONDecoder()
        decoder.limits.maxRecordBytes = 40
        let long = "{\"value\":1,\"sensor\":\"" + String(repeating: "x", count: 200) + "\"}"
        let text = "{\"value\":1,\"sensor\":\"a\"}\n" + long + "\n{\"value\":2,\"sensor\":\"b\"}\n"
        for chunk in [1, 16, 1000] {
            let outcome = await StreamOutcome.of(Reading.self, text, framing: .jsonLines, chunk: chunk, decoder: decoder)
            #expect(outcome.elements.map(\.index) == [0, 1, 2])
            #expect(outcome.elements.map(\.offset) == [0, 25, 249])
            #expect(outcome.ending == nil)
            guard case .decoding(let description) = outcome.elements[1].outcome else {
                Issue.record("expected recordTooLarge, got \(outcome.elements[1].outcome)")
                continue
            }
            #expect(description.hasPrefix("dataCorrupted [1] "))
            #expect(description.contains("recordTooLarge (at $[1], offset 40)"))
        }
        // A line of exactly the cap, with CRLF, is no failure.
        let exact = "{\"value\":1,\"sensor\":\"abcdefgh\"}" + String(repeating: " ", count: 40 - 31)
        let fits = await StreamOutcome.of(Reading.self, exact + "\r\n", framing: .jsonLines, chunk: 1, decoder: decoder)
        #expect(fits.elements.count == 1)
        if case .value = fits.elements.first?.outcome {} else { Issue.record("a record of the cap failed: \(fits.elements)") }
        let over = await StreamOutcome.of(Reading.self, exact + " \r\n", framing: .jsonLines, chunk: 1, decoder: decoder)
        #expect("\(over.elements.map(\.outcome))".contains("recordTooLarge"))
    }

    @Test func theFailureOfATooLargeRecordComesBeforeItsEndIsRead() async throws {
        let decoder = VettedJSONDecoder()
        decoder.limits.maxRecordBytes = 10
        // One record of 100 chunks: the failure is known after the second chunk.
        let chunks = CountingChunks([Array("{\"value\":1".utf8)] + Array(repeating: Array("1111111111".utf8), count: 100))
        var iterator = decoder.elements(of: Reading.self, from: chunks, framing: .jsonLines, onError: .skip).makeAsyncIterator()
        let first = try await iterator.next()
        #expect(vetted(first.flatMap { if case .failure(let error) = $0.result { error } else { nil } })?.code == .recordTooLarge)
        #expect(chunks.pulled == 2)
        #expect(try await iterator.next() == nil)
        #expect(chunks.pulled == 100 + 1)
    }

    @Test func noChunkIsReadBeforeTheConsumerAsks() async throws {
        let chunks = CountingChunks((1...5).map { Array("{\"value\":\($0),\"sensor\":\"s\"}\n".utf8) })
        var iterator = VettedJSONDecoder().elements(of: Reading.self, from: chunks, framing: .jsonLines).makeAsyncIterator()
        #expect(chunks.pulled == 0)
        #expect(try await iterator.next()?.get().value == 1)
        #expect(chunks.pulled == 1)
        #expect(try await iterator.next()?.get().value == 2)
        #expect(chunks.pulled == 2)
    }

    /// Cancelled once the first record is read (before: after a 50 ms sleep, which a loaded
    /// machine could pass before the task read anything).
    @Test func cancellationStopsAStreamThatNeverEnds() async throws {
        let (stream, continuation) = AsyncStream<[UInt8]>.makeStream()
        let (read, reported) = AsyncStream<Void>.makeStream()
        continuation.yield(Array("{\"value\":1,\"sensor\":\"a\"}\n{\"val".utf8))
        let task = Task { () -> (Int, (any Error)?) in
            var count = 0
            do {
                for try await _ in VettedJSONDecoder().elements(of: Reading.self, from: stream, framing: .jsonLines) {
                    count += 1
                    reported.yield()
                }
            } catch {
                return (count, error)
            }
            return (count, nil)
        }
        var reads = read.makeAsyncIterator()
        _ = await reads.next()
        task.cancel()
        let (count, error) = await task.value
        #expect(count == 1)
        #expect(error is CancellationError)
        continuation.finish()
    }

    @Test func jsonTextSequencesStartEachRecordWithRS() async throws {
        let rs = "\u{1E}"
        let text = "\(rs){\"value\":1,\"sensor\":\"a\"}\n\(rs)\(rs)\n\(rs) {\"value\":2,\n\"sensor\":\"b\"}\n\(rs)7\n\(rs)8"
        let outcome = await StreamOutcome.of(Int.self, text.replacingOccurrences(of: "{\"value\":1,\"sensor\":\"a\"}", with: "5")
            .replacingOccurrences(of: "{\"value\":2,\n\"sensor\":\"b\"}", with: "6"), framing: .jsonTextSequence, chunk: 2)
        #expect(outcome.elements.map(\.index) == [0, 1, 2, 3])
        #expect(outcome.elements.map(\.line) == [1, 3, 4, 5])
        #expect(outcome.elements.prefix(3).map { "\($0.outcome)" } == ["value 5", "value 6", "value 7"])
        // The last number has no whitespace after it: it may be cut short.
        guard case .decoding(let description) = outcome.elements[3].outcome else {
            Issue.record("expected the cut-short number, got \(outcome.elements[3].outcome)")
            return
        }
        #expect(description.contains("unexpectedEndOfInput (at $[3], line 1, column 2, offset 1)"))
        let objects = await StreamOutcome.of(Reading.self, text, framing: .jsonTextSequence, chunk: 3)
        #expect(objects.elements.count == 4)
        #expect(objects.elements.map(\.offset) == [1, 31, 58, 61])
        #expect(objects.elements.map(\.line) == [1, 3, 5, 6])
        // Text before the first RS is a record that lost its separator.
        let lost = await StreamOutcome.of(Int.self, "12\n\u{1E}3\n", framing: .jsonTextSequence)
        #expect(lost.elements.count == 2)
        #expect("\(lost.elements[0].outcome)".contains("unexpectedCharacter (at $[0], offset 0)"))
        #expect("\(lost.elements[1].outcome)" == "value 3")
    }

    @Test func anArraysElementsAreRecords() async throws {
        let text = " [ {\"value\":1,\"sensor\":\"a]\\\"\"} ,\n {\"value\":2,\"sensor\":\"b\"},{\"value\":300,\"sensor\":\"c\"} ] \n"
        for chunk in [1, 3, 1000] {
            let outcome = await StreamOutcome.of(Reading.self, text, framing: .array, chunk: chunk)
            #expect(outcome.ending == nil)
            #expect(outcome.elements.map(\.offset) == [3, 34, 59])
            #expect(outcome.elements.map(\.line) == [1, 2, 2])
            #expect(outcome.elements.prefix(2).map { "\($0.outcome)" } == [
                "value VettedMacrosTests.Reading(value: 1, sensor: \"a]\\\"\")", "value VettedMacrosTests.Reading(value: 2, sensor: \"b\")",
            ])
            #expect("\(outcome.elements[2].outcome)".contains("outOfRange $[2].value @9"))
        }
        let scalars = await StreamOutcome.of(Int.self, "[1,-2 ,3e0,\"x\",[4]]", framing: .array, chunk: 1)
        #expect(scalars.elements.map { "\($0.outcome)" }.prefix(3) == ["value 1", "value -2", "value 3"])
        #expect(scalars.elements.map(\.offset) == [1, 3, 7, 11, 15])
        #expect(await StreamOutcome.of(Int.self, "[]", framing: .array).elements.isEmpty)
    }

    @Test(arguments: [
        ("[1 2]", VettedError.Code.missingComma, 3, "$[1]"),
        ("[1,]", .trailingComma, 3, "$[1]"),
        ("[1,2", .unexpectedEndOfInput, 4, "$[1]"),
        ("[1,2 ", .unexpectedEndOfInput, 5, "$"),
        ("[1,{\"a\":", .unexpectedEndOfInput, 8, "$[1]"),
        ("{\"a\":1}", .unexpectedCharacter, 0, "$"),
        ("", .unexpectedEndOfInput, 0, "$"),
        ("[1] x", .trailingData, 4, "$"),
        ("[,1]", .unexpectedCharacter, 1, "$[0]"),
    ])
    func anArrayThatBreaksEndsTheStreamWithItsError(_ text: String, code: VettedError.Code, offset: Int, path: String) async {
        for policy in [VettedJSONDecoder.StreamErrorPolicy.skip, .stop] {
            let outcome = await StreamOutcome.of(Int.self, text, framing: .array, onError: policy, chunk: 1)
            let error = vetted(outcome.ending)
            #expect(error?.code == code, "\(text)")
            #expect(error?.offset == offset, "\(text)")
            #expect(error?.path.description == path, "\(text)")
        }
    }

    /// Fuzz finding (stream-crash-7fe9e433, the harness's own rule): the element that ends a
    /// broken array sits at offset 0 after a record at a later offset, its error placed in the stream.
    @Test func theElementThatEndsABrokenStreamIsPlacedAtItsStart() {
        let elements = Array(VettedJSONDecoder().elements(of: DirectItem.self, from: Data("[{}".utf8), framing: .array, onError: .skip))
        #expect(elements.map(\.index) == [0, 1])
        #expect(elements.map(\.offset) == [1, 0])
        let first = vetted(elements.first.flatMap { if case .failure(let error) = $0.result { error } else { nil } })
        #expect(first?.code == .keyNotFound)
        #expect(first?.path.description == "$[0].count")
        let error = vetted(elements.last.flatMap { if case .failure(let error) = $0.result { error } else { nil } })
        #expect(error?.code == .unexpectedEndOfInput)
        #expect(error?.offset == 3)
        #expect(error?.path.description == "$")
    }

    @Test func theSynchronousFormsReadDataAndFiles() throws {
        let text = (0..<5000).map { "{\"value\":\($0 % 101),\"sensor\":\"s\($0 % 10)\"}" }.joined(separator: "\n")
        let decoder = VettedJSONDecoder()
        let elements = Array(decoder.elements(of: Reading.self, from: Data(text.utf8), framing: .jsonLines, onError: .skip))
        #expect(elements.count == 5000)
        #expect(elements.allSatisfy { (try? $0.get()) != nil })
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("vetted-stream-\(UUID().uuidString).jsonl")
        try Data(("[" + text.replacingOccurrences(of: "\n", with: ",\n") + "]").utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let sequence = try decoder.elements(of: Reading.self, from: file, framing: .array)
        // Each iteration reads the file again.
        for _ in 0..<2 {
            let fromFile = Array(sequence)
            #expect(fromFile.count == 5000)
            #expect(fromFile.map(\.line) == Array(1...5000))
            #expect(try fromFile.map { try $0.get() } == elements.map { try $0.get() })
        }
        // Under `.stop` the first failure is the last element.
        let stopped = Array(decoder.elements(of: Reading.self, from: Data("{\"value\":1,\"sensor\":\"a\"}\n{\"value\":-1,\"sensor\":\"a\"}\n{\"value\":1,\"sensor\":\"a\"}".utf8), framing: .jsonLines))
        #expect(stopped.count == 2)
        #expect(((try? stopped[1].get()) == nil))
        #expect(throws: VettedError.self) { try decoder.elements(of: Reading.self, from: file.appendingPathExtension("missing"), framing: .jsonLines) }
    }
}
