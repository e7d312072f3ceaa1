import Foundation
import Testing
import VettedCore
import Vetted
import VettedRaw
import VettedTestSupport

@Suite struct BoundedReaderTests {
    @Test func filesAreRefusedFromTheirSizeAndReadUpToTheCap() throws {
        let bytes = [UInt8](repeating: 0x41, count: 10_000)
        let path = try temporaryFile(bytes)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try BoundedReader.read(contentsOfFile: path, maxBytes: 10_000) == bytes)
        let error = thrownError { () throws(VettedError) in _ = try BoundedReader.read(contentsOfFile: path, maxBytes: 9_999) }
        #expect(error == VettedError(code: .inputSizeLimitExceeded, offset: 9_999))
        #expect(error?.message == "input is 10000 bytes; the limit is 9999")

        let missing = thrownError { () throws(VettedError) in _ = try BoundedReader.read(contentsOfFile: "/nonexistent/x", maxBytes: 10) }
        #expect(missing?.code == .unreadableInput)
        let directory = thrownError { () throws(VettedError) in
            _ = try BoundedReader.read(contentsOfFile: FileManager.default.temporaryDirectory.path, maxBytes: 10)
        }
        #expect(directory?.message == "is a directory")
    }

    /// A FIFO or a device where a file was expected is refused from its metadata,
    /// never opened (an open of a FIFO without a writer blocks forever); read when asked.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/mkfifo"), "needs mkfifo"))
    func onlyRegularFilesUnlessPipesAreAsked() throws {
        let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("vetted-fifo-\(UUID().uuidString)").path
        let make = try Process.run(URL(fileURLWithPath: "/usr/bin/mkfifo"), arguments: [fifo])
        make.waitUntilExit()
        defer { try? FileManager.default.removeItem(atPath: fifo) }
        let refusal = "is not a regular file (a pipe, a device or a socket): it is not opened, so it cannot block"
        for path in [fifo, "/dev/null"] {
            let error = thrownError { () throws(VettedError) in _ = try BoundedReader.read(contentsOfFile: path, maxBytes: 10) }
            #expect(error?.code == .unreadableInput)
            #expect(error?.message == refusal)
            let gate = thrownError { () throws(VettedError) in _ = try Gate.admit(.file(path: path), policy: GatePolicy(maxBytes: 10)) }
            #expect(gate?.code == .unreadableInput)
        }
        #expect(try BoundedReader.read(contentsOfFile: "/dev/null", maxBytes: 10, acceptingPipes: true) == [])
        // A link to a regular file reads as the file.
        let file = try temporaryFile(Array("abc".utf8))
        let link = file + ".link"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: file)
        defer { try? FileManager.default.removeItem(atPath: link); try? FileManager.default.removeItem(atPath: file) }
        #expect(try BoundedReader.read(contentsOfFile: link, maxBytes: 10) == Array("abc".utf8))
    }

    /// A pipe has no size: reading stops at the cap plus one byte.
    @Test func pipesStopAtTheCap() throws {
        let pipe = Pipe()
        let done = DispatchSemaphore(value: 0)
        let writer = Thread {
            // 128 KiB offered to a 64 KiB cap: once the reader stops, the rest fits in the
            // pipe's buffer, so the writer finishes before the reader closes its end.
            for _ in 0..<2 { try? pipe.fileHandleForWriting.write(contentsOf: Data(repeating: 0x20, count: 65_536)) }
            try? pipe.fileHandleForWriting.close()
            done.signal()
        }
        writer.start()
        var observed = 0
        let error = thrownError { () throws(VettedError) in
            _ = try BoundedReader.read(from: pipe.fileHandleForReading, maxBytes: 65_536) { observed += $0.count }
        }
        done.wait()
        try? pipe.fileHandleForReading.close()
        #expect(error?.code == .inputSizeLimitExceeded)
        #expect(error?.message == "input is more than 65536 bytes; the limit is 65536")
        #expect(observed <= 65_536)
    }

    /// An asynchronous body is not consumed past the chunk that crosses the cap.
    @Test func asyncChunksStopAtTheCap() async throws {
        let pulled = Counter()
        let chunks = AsyncStream<[UInt8]> { continuation in
            for _ in 0..<100 { continuation.yield([UInt8](repeating: 1, count: 1_000)) }
            continuation.finish()
        }.map { chunk in
            pulled.increment()
            return chunk
        }
        await #expect(throws: VettedError(code: .inputSizeLimitExceeded, offset: 10_500)) {
            _ = try await BoundedReader.read(chunks, maxBytes: 10_500)
        }
        #expect(pulled.value == 11)
        let small = AsyncStream<[UInt8]> { continuation in
            continuation.yield([1, 2])
            continuation.yield([3])
            continuation.finish()
        }
        #expect(try await BoundedReader.read(small, maxBytes: 3) == [1, 2, 3])
    }

    /// A 1 GiB sparse file over the cap is refused from its metadata, and one read
    /// through a handle (no metadata) stops at the cap: either way the process stays small.
    /// Runs in a child process so its peak memory is its own.
    @Test func aSparseGigabyteFileIsRefusedWithSmallMemory() async throws {
        await #expect(processExitsWith: .success) {
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("vetted-sparse-\(UUID().uuidString)")
            guard FileManager.default.createFile(atPath: url.path, contents: nil),
                let handle = try? FileHandle(forWritingTo: url)
            else { exit(10) }
            defer { try? FileManager.default.removeItem(at: url) }
            do {
                try handle.truncate(atOffset: 1 << 30)
                try handle.close()
            } catch { exit(11) }
            let before = peakResidentBytes()
            do {
                _ = try Gate.admit(.file(path: url.path), policy: GatePolicy(maxBytes: 512 << 20))
                exit(12)
            } catch let error as VettedError {
                if error.code != .inputSizeLimitExceeded || error.message != "input is 1073741824 bytes; the limit is 536870912" { exit(13) }
            } catch { exit(19) }
            guard let reading = FileHandle(forReadingAtPath: url.path) else { exit(14) }
            do {
                _ = try Gate.admit(.fileHandle(reading), policy: GatePolicy(maxBytes: 16 << 20))
                exit(15)
            } catch let error as VettedError {
                if error.code != .inputSizeLimitExceeded { exit(16) }
            } catch { exit(18) }
            // Reading through the handle holds at most the cap (16 MiB) plus a chunk.
            if let before, let after = peakResidentBytes(), after - before > 64 << 20 { exit(17) }
            exit(0)
        }
    }
}

/// VmHWM from /proc/self/status (Linux), in bytes.
func peakResidentBytes() -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
        let kilobytes = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
    else { return nil }
    return kilobytes * 1024
}

final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}

@Suite struct GateTests {
    static let listings = Array(
        """
        [{"id":1,"name":"Guitar","description":"A classic acoustic guitar.","price":"120.00","sold":false,
          "url":"https://example.com/l/1","tags":["music","acoustic"],
          "created":"2018-05-01T10:39:04Z","last_updated":"2018-05-02T09:00:00-07:00"}]
        """.utf8)

    static var decoder: VettedJSONDecoder {
        let decoder = VettedJSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    @Test func theWholePipelineInOneCall() throws {
        let key = SigningKey.generate(.ed25519)
        let trusted = try TrustedKeys([key.verificationKey])
        let signature = try DetachedSignature.sign(Self.listings, with: key)
        let digest = try ExpectedDigest(.sha256, bytes: DigestAlgorithm.sha256.digest(of: Self.listings))
        let path = try temporaryFile(Self.listings)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let policy = GatePolicy(
            maxBytes: 4_096, digest: digest, signature: .detached(signature, trusting: trusted), limits: Limits(maxDepth: 8))
        for source in [ByteSource.file(path: path), .bytes(Self.listings), .data(Data(Self.listings))] {
            let listings = try Self.decoder.decode([Listing].self, from: source, policy: policy)
            #expect(listings.map(\.name) == ["Guitar"])
        }
        let verified = try Gate.admit(.file(path: path), policy: policy)
        #expect(verified.report == GateReport(byteCount: Self.listings.count, digest: digest, signedBy: key.keyID, envelope: false))
        #expect(try Self.decoder.decode([Listing].self, from: verified).count == 1)

        let envelope = try Envelope.seal(Self.listings, with: key)
        let fromEnvelope = try Self.decoder.decode(
            [Listing].self, from: .bytes(envelope), policy: GatePolicy(signature: .envelope(trusting: trusted)))
        #expect(fromEnvelope.count == 1)
    }

    /// The gate runs before the parser: a payload that is not even JSON fails at the
    /// gate with the gate's error, never the parser's.
    @Test func nothingIsParsedBeforeTheGatePasses() throws {
        let key = SigningKey.generate(.ed25519)
        let trusted = try TrustedKeys([key.verificationKey])
        let garbage = Array("{ not json".utf8)
        let signature = try DetachedSignature.sign(Self.listings, with: key)
        let policy = GatePolicy(signature: .detached(signature, trusting: trusted))
        #expect(throws: VettedError(code: .payloadLengthMismatch)) {
            _ = try Self.decoder.decode([Listing].self, from: .bytes(garbage), policy: policy)
        }
        var tampered = Self.listings
        tampered[10] ^= 1
        #expect(throws: VettedError(code: .signatureMismatch)) {
            _ = try Self.decoder.decode([Listing].self, from: .bytes(tampered), policy: policy)
        }
        let wrongDigest = try ExpectedDigest(.sha512, bytes: [UInt8](repeating: 0, count: 64))
        #expect(throws: VettedError(code: .digestMismatch)) {
            _ = try Self.decoder.decode([Listing].self, from: .bytes(Self.listings), policy: GatePolicy(digest: wrongDigest))
        }
        #expect(throws: VettedError(code: .inputSizeLimitExceeded, offset: 100)) {
            _ = try Self.decoder.decode([Listing].self, from: .bytes(Self.listings), policy: GatePolicy(maxBytes: 100))
        }
        // With the gate passed, the later stages report as usual: the parser's limits come from the policy.
        #expect(throws: DecodingError.self) {
            _ = try Self.decoder.decode([Listing].self, from: .bytes(Self.listings), policy: GatePolicy(limits: Limits(maxDepth: 1)))
        }
    }

    @Test func asyncBodiesGoThroughTheSamePipeline() async throws {
        let key = SigningKey.generate(.p256)
        let signature = try DetachedSignature.sign(Self.listings, with: key)
        let policy = GatePolicy(maxBytes: 4_096, signature: .detached(signature, trusting: try TrustedKeys([key.verificationKey])))
        let body = AsyncStream<ArraySlice<UInt8>> { continuation in
            var start = 0
            while start < Self.listings.count {
                continuation.yield(Self.listings[start..<min(start + 7, Self.listings.count)])
                start += 7
            }
            continuation.finish()
        }
        let listings = try await Self.decoder.decode([Listing].self, from: body, policy: policy)
        #expect(listings.count == 1)
    }
}

/// An asynchronous body within a deadline (issue 20, item 4): a sender that trickles is cut off.
@Suite struct GateDeadlineTests {
    /// One byte every 50 ms, for 10 s unless cancelled.
    static func trickle() -> AsyncStream<[UInt8]> {
        AsyncStream { continuation in
            let task = Task {
                for _ in 0..<200 {
                    try? await Task.sleep(for: .milliseconds(50))
                    if Task.isCancelled { break }
                    continuation.yield([0x20])
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    @Test func aTrickledBodyRunsIntoTheDeadline() async throws {
        let error = await #expect(throws: VettedError.self) {
            try await Gate.admit(Self.trickle(), policy: GatePolicy(maxBytes: 1_000, timeout: .milliseconds(300)))
        }
        #expect(error?.code == .deadlineExceeded)
    }

    @Test func aBodyWithinTheDeadlinePasses() async throws {
        let quick = AsyncStream<[UInt8]> { continuation in
            continuation.yield(Array("[1]".utf8))
            continuation.finish()
        }
        let verified = try await Gate.admit(quick, policy: GatePolicy(maxBytes: 10, timeout: .seconds(5)))
        #expect(verified.bytes == Array("[1]".utf8))
    }

    /// A sequence that is not Sendable cannot be read in a task of its own: a timeout on it is refused, not ignored.
    @Test func aTimeoutOnANonSendableSequenceIsRefused() async throws {
        final class Chunks: AsyncSequence, AsyncIteratorProtocol {  // deliberately not Sendable
            var sent = false
            func makeAsyncIterator() -> Chunks { self }
            func next() async -> [UInt8]? {
                defer { sent = true }
                return sent ? nil : [1]
            }
        }
        let error = await #expect(throws: VettedError.self) {
            try await Gate.admit(Chunks(), policy: GatePolicy(maxBytes: 10, timeout: .seconds(1)))
        }
        #expect(error?.code == .deadlineUnenforceable)
        #expect(try await Gate.admit(Chunks(), policy: GatePolicy(maxBytes: 10)).bytes == [1])
    }

    @Test func deadlineRunReturnsRethrowsOrExpires() async throws {
        #expect(try await Deadline.run(within: .seconds(30), expired: "late") { 42 } == 42)
        struct Own: Error, Equatable {}
        await #expect(throws: Own()) { try await Deadline.run(within: .seconds(30), expired: "late") { () async throws -> Int in throw Own() } }
        do {
            _ = try await Deadline.run(within: .milliseconds(50), expired: "the work did not end in time") { () async throws -> Int in
                try await Task.sleep(for: .seconds(30))
                return 1
            }
            Issue.record("expected deadlineExceeded")
        } catch let error as VettedError {
            #expect(error.code == .deadlineExceeded)
            #expect(error.message == "the work did not end in time")
        }
    }
}

@Suite struct SystemErrorTextTests {
    @Test func namesTheErrorsAWriteMeets() {
        #expect(SystemErrorText.describe(28) == "no space left on device (errno 28)")
        #expect(SystemErrorText.describe(13) == "permission denied (errno 13)")
        #expect(SystemErrorText.describe(-7) == "errno -7")
    }
}
