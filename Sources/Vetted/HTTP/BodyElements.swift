import VettedCore
public import VettedJSON
import VettedRaw

extension VettedMediaType {
    /// The framing a streamed body's `Content-Type` names: `application/x-ndjson`,
    /// `application/jsonl` and `application/x-jsonlines` are JSON Lines,
    /// `application/json-seq` is an RFC 7464 text sequence, and `application/json` the
    /// elements of one top-level array; `nil` for any other type.
    public static func streamFraming(_ contentType: String?) -> VettedJSONDecoder.StreamFraming? {
        switch essence(contentType) {
        case "application/x-ndjson", "application/jsonl", "application/x-jsonlines": .jsonLines
        case "application/json-seq": .jsonTextSequence
        case "application/json": .array
        default: nil
        }
    }

    /// The media types ``streamFraming(_:)`` reads, as a refusal names them.
    public static let streamTypes = ["application/x-ndjson", "application/jsonl", "application/x-jsonlines", "application/json-seq", "application/json"]
}

/// The records of a request body that arrives as a stream (a bulk import, an event feed),
/// decoded one by one as the handler asks for them: what the adapters'
/// `decodeElements(of:…)` return.
///
/// Each element is a ``VettedJSON/VettedElement``, exactly as
/// ``VettedJSON/VettedJSONDecoder/elements(of:from:framing:onError:)-(_,Chunks,_,_)`` yields
/// it: a record's value, or its failure with the record's index in its path (`$[17].price`,
/// the problem entry's pointer `/17/price`). A record is capped by the decoder's
/// ``VettedCore/Limits/maxRecordBytes`` without being held, and the body as a whole by an
/// optional total. The body's deadline applies **between records**: each record must
/// arrive within the timeout of the handler asking for it, so a slow upload of a large
/// valid file is not cut while it makes progress, and a stalled one is. The time the
/// handler spends on a record (storing it) is not counted.
///
/// The sequence throws ``VettedProblem``s: 413 for a body over its total (its declared
/// length is refused before a byte is read) or, under `.stop`, a record over its cap;
/// 408 when a record does not arrive in time; under `.stop`, the first failing record's
/// problem (400 or 422); a broken array's 400 under either policy. A body is read once:
/// iterate the sequence once.
public struct VettedBodyElements<T: Decodable>: AsyncSequence {
    public typealias Element = VettedElement<T>

    private let records: VettedElements<T, PacedBody>
    private let pace: Pace

    /// The records of `body` (chunks as the framework delivers them), framed by `framing`.
    ///
    /// - Parameters:
    ///   - maxTotalBytes: the most the whole body may hold (`nil`: no total, only the record cap).
    ///   - declaredLength: the body's `Content-Length`, refused before reading when over `maxTotalBytes`.
    ///   - timeout: how long each record may take to arrive once asked for.
    public init<Body: AsyncSequence>(
        of type: T.Type, decoder: VettedJSONDecoder, body: Body, framing: VettedJSONDecoder.StreamFraming,
        onError: VettedJSONDecoder.StreamErrorPolicy, maxTotalBytes: Int?, declaredLength: Int64?, timeout: Duration
    ) where Body.Element: Collection<UInt8> & Sendable {
        let pace = Pace(timeout: timeout)
        self.pace = pace
        let paced = PacedBody(
            reader: BodyReader(body), pace: pace, maxTotalBytes: maxTotalBytes, declaredLength: declaredLength)
        records = decoder.elements(of: type, from: paced, framing: framing, onError: onError)
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(records: records.makeAsyncIterator(), pace: pace)
    }

    public struct AsyncIterator: AsyncIteratorProtocol {
        var records: VettedElements<T, PacedBody>.AsyncIterator
        let pace: Pace

        /// The next record, which must arrive within the timeout from now.
        ///
        /// - Throws: ``VettedProblem`` (413, 408, 400, 422 as above); `CancellationError` when the task is cancelled.
        public mutating func next() async throws -> VettedElement<T>? {
            pace.deadline = ContinuousClock.now.advanced(by: pace.timeout)
            do {
                return try await records.next()
            } catch {
                throw VettedProblem(error) ?? error
            }
        }
    }
}

/// The deadline of the record being read, set when the handler asks for one and read by
/// each chunk's read. Shared by two iterators that run in one task, one after the other.
final class Pace {
    let timeout: Duration
    var deadline: ContinuousClock.Instant

    init(timeout: Duration) {
        self.timeout = timeout
        deadline = ContinuousClock.now.advanced(by: timeout)
    }
}

/// A body's chunks, each read in a task of its own that is cancelled at the record's
/// deadline, counted against the body's total.
struct PacedBody: AsyncSequence {
    typealias Element = [UInt8]

    let reader: BodyReader
    let pace: Pace
    let maxTotalBytes: Int?
    let declaredLength: Int64?

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(body: self)
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        let body: PacedBody
        var total = 0
        var started = false

        mutating func next() async throws -> [UInt8]? {
            if !started {
                started = true
                if let maxTotalBytes = body.maxTotalBytes, let declared = body.declaredLength, declared > Int64(maxTotalBytes) {
                    throw VettedError(
                        code: .inputSizeLimitExceeded, message: "the body is declared as \(declared) bytes, over the limit of \(maxTotalBytes)")
                }
            }
            let reader = body.reader
            guard let read = try await DeadlineWatch.shared.run(until: body.pace.deadline, { try await reader.next() }) else {
                throw VettedError(code: .deadlineExceeded, message: "the next record did not arrive within \(body.pace.timeout)")
            }
            guard let chunk = read else { return nil }
            let (sum, overflow) = total.addingReportingOverflow(chunk.count)
            if let maxTotalBytes = body.maxTotalBytes, overflow || sum > maxTotalBytes {
                throw VettedError(code: .inputSizeLimitExceeded, message: "the body is over the limit of \(maxTotalBytes) bytes")
            }
            total = overflow ? Int.max : sum
            return chunk
        }
    }
}

/// A body's iterator, behind a reference so that each chunk can be read in a task of its own.
///
/// `@unchecked Sendable`: the iterator is used by one task at a time. Each read runs in a
/// task that ``PacedBody`` awaits to its end (a read cut at its deadline too) before it
/// starts the next one, so two reads never overlap.
final class BodyReader: @unchecked Sendable {
    private var read: () async throws -> [UInt8]?

    init<Body: AsyncSequence>(_ body: Body) where Body.Element: Collection<UInt8> & Sendable {
        var iterator = body.makeAsyncIterator()
        read = { try await iterator.next().map(Array.init) }
    }

    func next() async throws -> [UInt8]? {
        try await read()
    }
}
