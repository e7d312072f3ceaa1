public import Foundation
@_spi(Scanning) public import VettedCore
import VettedDecoding

extension VettedJSONDecoder {
    /// How the records of a stream are cut from its bytes.
    public enum StreamFraming: Sendable, Hashable {
        /// JSON Lines / NDJSON: one record per line, ended by `\n` or `\r\n`; blank lines are skipped.
        case jsonLines
        /// RFC 7464 JSON text sequences (`application/json-seq`): each record starts with RS (0x1E).
        case jsonTextSequence
        /// The elements of one top-level JSON array, in order; the array itself is never held.
        case array
    }

    /// What a stream does when a record fails.
    public enum StreamErrorPolicy: Sendable, Hashable {
        /// The stream ends with the first failing record's error.
        case stop
        /// The failure is an element (its ``VettedElement/result``) and the stream goes on.
        case skip
    }

    /// The records of a stream of byte chunks (an HTTP body, a file read in pieces), decoded
    /// and validated one by one as the consumer asks for them.
    ///
    /// Each record is decoded alone, exactly as ``decode(_:from:)-(_,[UInt8])`` decodes a
    /// document, under this decoder's options at the time of the call: the same value, or the
    /// same error with its path one step deeper under the record's index (`$[17].price`; its
    /// offset stays within the record, whose own offset in the stream is the element's
    /// ``VettedElement/offset``). A record longer than ``Limits/maxRecordBytes`` is a
    /// `recordTooLarge` failure found without holding it. Memory is bounded by that cap plus
    /// one chunk, whatever the stream's length; no chunk is read before the consumer asks for
    /// the next record, and a cancelled task stops reading.
    ///
    /// With `onError: .stop` the sequence throws the first failing record's error; with
    /// `.skip` each failure is an element and the stream goes on. In `.array` framing, an
    /// error between elements (`[1 2]`) or a stream that ends before `]` ends the sequence
    /// with that located error under either policy: there is nowhere to resume.
    public func elements<T: Decodable, Chunks: AsyncSequence>(
        of type: T.Type, from chunks: Chunks, framing: StreamFraming, onError: StreamErrorPolicy = .stop
    ) -> VettedElements<T, Chunks> where Chunks.Element: Collection<UInt8> {
        VettedElements(decoder: self, chunks: chunks, framing: framing, onError: onError)
    }

    /// The records of `data`, decoded one by one as the sequence is iterated (see
    /// ``elements(of:from:framing:onError:)-(_,Chunks,_,_)``).
    ///
    /// A synchronous sequence cannot throw: a failure that ends the stream (the first failing
    /// record under `.stop`, a broken array) is its last element. An error of the framing
    /// itself (a broken array, a read that failed) is placed in the stream: its element's
    /// ``VettedElement/offset`` is 0, so that, as for a record, the element's offset plus the
    /// error's is the error's place in the stream.
    public func elements<T: Decodable>(
        of type: T.Type, from data: Data, framing: StreamFraming, onError: StreamErrorPolicy = .stop
    ) -> VettedRecordSequence<T> {
        VettedRecordSequence(decoder: self, framing: framing, onError: onError) {
            var start = data.startIndex
            return {
                guard start < data.endIndex else { return nil }
                let end = data.index(start, offsetBy: Swift.min(VettedRecordSequence<T>.chunkBytes, data.endIndex - start))
                defer { start = end }
                // A slice shares the data's storage: no byte is copied.
                return SourceText(data[start..<end])
            }
        }
    }

    /// The records of `chunks`, read one chunk at a time as the async form reads them: for
    /// tests and fuzzing that cut a stream at chosen places without a task.
    @_spi(Testing) public func elements<T: Decodable>(
        of type: T.Type, fromChunks chunks: [[UInt8]], framing: StreamFraming, onError: StreamErrorPolicy = .stop
    ) -> VettedRecordSequence<T> {
        VettedRecordSequence(decoder: self, framing: framing, onError: onError) {
            var next = 0
            return {
                guard next < chunks.count else { return nil }
                defer { next += 1 }
                return SourceText(chunks[next])
            }
        }
    }

    /// The records of the file at `url`, read in chunks of 64 KiB as the sequence is
    /// iterated: memory does not grow with the file (see
    /// ``elements(of:from:framing:onError:)-(_,Data,_,_)``). A read error ends the sequence
    /// as its last element.
    ///
    /// - Throws: `VettedError` (`unreadableInput`) when the file cannot be opened.
    public func elements<T: Decodable>(
        of type: T.Type, from url: URL, framing: StreamFraming, onError: StreamErrorPolicy = .stop
    ) throws -> VettedRecordSequence<T> {
        func open() throws -> FileHandle {
            do {
                return try FileHandle(forReadingFrom: url)
            } catch {
                throw VettedError(code: .unreadableInput, message: "the file cannot be opened for reading")
            }
        }
        // Opened now, so that a missing file is an error of this call; each later
        // iteration of the sequence opens the file again.
        var first: FileHandle? = try open()
        return VettedRecordSequence(decoder: self, framing: framing, onError: onError) {
            var handle = first
            first = nil
            return {
                let file = try handle ?? open()
                handle = file
                // A file handle closes its descriptor when it is released.
                guard let data = try file.read(upToCount: VettedRecordSequence<T>.chunkBytes), !data.isEmpty else { return nil }
                return SourceText(data)
            }
        }
    }
}

/// One record of a stream: where it was, and its value or its error.
public struct VettedElement<T> {
    /// 0-based number of the record in the stream (blank lines and separators are not records).
    public let index: Int
    /// Byte offset of the record's first byte in the stream.
    public let offset: Int
    /// 1-based line of the record's first byte in the stream.
    public let line: Int
    /// The decoded, validated value; or exactly the error decoding the record alone throws,
    /// its path under the record's index (`$[17].price`), its offset within the record.
    public let result: Result<T, any Error>

    @inlinable @inline(__always)
    public init(index: Int, offset: Int, line: Int, result: consuming Result<T, any Error>) {
        self.index = index
        self.offset = offset
        self.line = line
        self.result = result
    }

    /// The value, or the record's error thrown.
    @inlinable
    public func get() throws -> T { try result.get() }
}

extension VettedElement: Sendable where T: Sendable {}

/// Cuts the records of a stream and decodes each one: the part of a stream that does not
/// care where its chunks come from, nor (but for ``decode(_:_:)``) what type it reads.
///
/// The iterators that hand out ``VettedElement``s are inlinable, so that a stream of a
/// given type is compiled for that type where it is iterated: an element and its value
/// pass from the decode to the consumer without a generic layer in between (each record
/// would otherwise look up the metadata of `Result`, `VettedElement` and the step, and
/// copy the value through them).
@usableFromInline
struct RecordReader {
    /// What the reader found next.
    @usableFromInline
    enum Step {
        /// A record to decode: its bytes, its number, its first byte's offset and line.
        case record(SourceText, index: Int, offset: Int, line: Int)
        /// A record that cannot be decoded (too long, a text without its RS): its error, ready.
        case failure(any Error, index: Int, offset: Int, line: Int)
        /// The stream ends with this error, placed in the stream (offset 0: see ``VettedRecordSequence``).
        case end(any Error, index: Int, line: Int)
        case needInput
        case finished
    }

    private let decoder: VettedJSONDecoder
    private let options: VettedJSONDecoder.Options
    private let parser: JSONParser
    /// Made once for the stream: each record is decoded under the same plan, by one byte
    /// reader re-armed for each record (``StreamByteReader``).
    private let plan: DecodePlan
    private var stream: StreamByteReader
    /// Whether the first failing record ends the stream (`onError: .stop`).
    @usableFromInline let stopsOnError: Bool
    private var framer: RecordFramer
    private var chunk: SourceText?
    private var chunkCount = 0
    private var position = 0
    private var index = 0
    private var atEnd = false
    private var finished = false

    init<T: Decodable>(
        decoder: VettedJSONDecoder, type: T.Type, framing: VettedJSONDecoder.StreamFraming, onError: VettedJSONDecoder.StreamErrorPolicy
    ) {
        let options = decoder.options.current
        self.decoder = decoder
        self.options = options
        let parser = VettedJSONDecoder.parser(options)
        self.parser = parser
        let plan = decoder.plan(for: T.self, options: options)
        self.plan = plan
        self.stream = StreamByteReader(plan: plan, parser: parser, options: options)
        self.stopsOnError = onError == .stop
        self.framer = RecordFramer(framing: framing, maxRecordBytes: options.limits.maxRecordBytes)
    }

    /// Hands the next chunk over (the previous one is read to its end).
    @usableFromInline
    mutating func feed(_ bytes: SourceText) {
        framer.begin(chunkAt: framer.streamOffset + chunkCount)
        chunk = bytes
        chunkCount = bytes.count
        position = 0
    }

    /// A chunk of an async sequence as source text: arrays and data as they are, other
    /// collections copied.
    @usableFromInline
    static func source<Chunk: Collection<UInt8>>(_ chunk: Chunk) -> SourceText {
        if let bytes = chunk as? [UInt8] { return SourceText(bytes) }
        if let data = chunk as? Data { return SourceText(data) }
        return SourceText(Array(chunk))
    }

    /// The chunks are over.
    @usableFromInline
    mutating func endOfInput() {
        framer.begin(chunkAt: framer.streamOffset + chunkCount)
        chunk = nil
        chunkCount = 0
        position = 0
        atEnd = true
    }

    /// The next record, failure or end from what has been fed, or what is needed to find one.
    @usableFromInline
    mutating func step() -> Step {
        while !finished {
            let event: RecordFramer.Event?
            if let chunk, position < chunkCount {
                event = chunk.withScanner { scanner in
                    scanner.offset = position
                    defer { position = scanner.offset }
                    return framer.advance(&scanner)
                }
            } else if atEnd {
                event = framer.finish()
                if event == nil { finished = true }
            } else {
                return .needInput
            }
            guard let event else { continue }
            let number = index
            switch consume event {
            case .record(let bytes, let offset, let line):
                index += 1
                return .record(SourceText(bytes), index: number, offset: offset, line: line)
            case .failure(let error, let offset, let line):
                index += 1
                return .failure(Self.corrupted(RecordErrors.prefixing(error, index: number)), index: number, offset: offset, line: line)
            case .end(let error):
                finished = true
                return .end(Self.corrupted(error), index: number, line: framer.line)
            }
        }
        return .finished
    }

    /// The record `source` as `T`, exactly as decoding it alone gives it.
    @usableFromInline
    mutating func decode<T: Decodable>(_ type: T.Type, _ source: SourceText) throws -> T {
        try decoder.decodeRecord(T.self, from: source, parser: parser, options: options, plan: plan, stream: &stream)
    }

    /// A record's error with its path under the record (`$[17].price`).
    @usableFromInline
    static func prefixing(_ error: any Error, index: Int) -> any Error {
        RecordErrors.prefixing(error, index: index)
    }

    /// The stream ends here (the first failing record under `.stop`).
    @usableFromInline
    mutating func stop() { finished = true }

    /// The error that ends the stream when its bytes cannot be read on, with the element's
    /// number and line.
    @usableFromInline
    mutating func readFailure(_ error: any Error) -> (error: any Error, index: Int, line: Int) {
        finished = true
        // The bytes read so far: the chunks before the current one, and all of it.
        let offset = framer.streamOffset + chunkCount
        let unreadable = (error as? VettedError) ?? VettedError(code: .unreadableInput, offset: offset, message: "the input cannot be read on")
        return (Self.corrupted(unreadable), index, framer.line)
    }

    /// A framing error as `decode` reports a parse error: `DecodingError.dataCorrupted`
    /// with the located `VettedError` as its underlying error.
    private static func corrupted(_ error: VettedError) -> DecodingError {
        let codingPath: [any CodingKey] = error.path.components.map { component in
            switch component {
            case .index(let index): PathKey(intValue: index)
            case .key(let key): PathKey(stringValue: key)
            }
        }
        return DecodingError.notADocument(error, in: .json, at: codingPath)
    }
}

/// The records of an asynchronous sequence of byte chunks, decoded as they are asked for
/// (``VettedJSONDecoder/elements(of:from:framing:onError:)-(_,Chunks,_,_)``).
public struct VettedElements<T: Decodable, Chunks: AsyncSequence>: AsyncSequence where Chunks.Element: Collection<UInt8> {
    public typealias Element = VettedElement<T>

    let decoder: VettedJSONDecoder
    let chunks: Chunks
    let framing: VettedJSONDecoder.StreamFraming
    let onError: VettedJSONDecoder.StreamErrorPolicy

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(
            reader: RecordReader(decoder: decoder, type: T.self, framing: framing, onError: onError), chunks: chunks.makeAsyncIterator())
    }

    public struct AsyncIterator: AsyncIteratorProtocol {
        @usableFromInline var reader: RecordReader
        @usableFromInline var chunks: Chunks.AsyncIterator

        init(reader: RecordReader, chunks: Chunks.AsyncIterator) {
            self.reader = reader
            self.chunks = chunks
        }

        @inlinable
        public mutating func next() async throws -> VettedElement<T>? {
            while true {
                try Task.checkCancellation()
                switch reader.step() {
                case .record(let source, let index, let offset, let line):
                    do {
                        return VettedElement(index: index, offset: offset, line: line, result: .success(try reader.decode(T.self, source)))
                    } catch {
                        let failure = RecordReader.prefixing(error, index: index)
                        if reader.stopsOnError {
                            reader.stop()
                            throw failure
                        }
                        return VettedElement(index: index, offset: offset, line: line, result: .failure(failure))
                    }
                case .failure(let error, let index, let offset, let line):
                    if reader.stopsOnError {
                        reader.stop()
                        throw error
                    }
                    return VettedElement(index: index, offset: offset, line: line, result: .failure(error))
                case .end(let error, _, _):
                    throw error
                case .finished:
                    return nil
                case .needInput:
                    let chunk = try await chunks.next()
                    // A sequence may answer a cancelled task with its end: that is no end of the stream.
                    try Task.checkCancellation()
                    if let chunk {
                        reader.feed(RecordReader.source(chunk))
                    } else {
                        reader.endOfInput()
                    }
                }
            }
        }
    }
}

extension VettedElements: Sendable where Chunks: Sendable {}

/// The records of bytes read synchronously (`Data` or a file), decoded as the sequence is
/// iterated. A failure that ends the stream is its last element: a sequence cannot throw.
public struct VettedRecordSequence<T: Decodable>: Sequence {
    /// Bytes read at a time.
    static var chunkBytes: Int { 64 << 10 }

    let decoder: VettedJSONDecoder
    let framing: VettedJSONDecoder.StreamFraming
    let onError: VettedJSONDecoder.StreamErrorPolicy
    /// Makes a reader of the chunks, one per iteration.
    let makeRead: () -> () throws -> SourceText?

    init(
        decoder: VettedJSONDecoder, framing: VettedJSONDecoder.StreamFraming, onError: VettedJSONDecoder.StreamErrorPolicy,
        makeRead: @escaping () -> () throws -> SourceText?
    ) {
        self.decoder = decoder
        self.framing = framing
        self.onError = onError
        self.makeRead = makeRead
    }

    public func makeIterator() -> Iterator {
        Iterator(reader: RecordReader(decoder: decoder, type: T.self, framing: framing, onError: onError), read: makeRead())
    }

    public struct Iterator: IteratorProtocol {
        @usableFromInline var reader: RecordReader
        @usableFromInline let read: () throws -> SourceText?
        @usableFromInline var done = false

        init(reader: RecordReader, read: @escaping () throws -> SourceText?) {
            self.reader = reader
            self.read = read
        }

        @inlinable
        public mutating func next() -> VettedElement<T>? {
            while !done {
                switch reader.step() {
                case .record(let source, let index, let offset, let line):
                    do {
                        return VettedElement(index: index, offset: offset, line: line, result: .success(try reader.decode(T.self, source)))
                    } catch {
                        if reader.stopsOnError { stop() }
                        return VettedElement(index: index, offset: offset, line: line, result: .failure(RecordReader.prefixing(error, index: index)))
                    }
                case .failure(let error, let index, let offset, let line):
                    if reader.stopsOnError { stop() }
                    return VettedElement(index: index, offset: offset, line: line, result: .failure(error))
                case .end(let error, let index, let line):
                    done = true
                    // Its error is placed in the stream, not in a record: the element sits at the
                    // stream's start, so that its offset plus the error's is where it is, as for a record.
                    return VettedElement(index: index, offset: 0, line: line, result: .failure(error))
                case .finished:
                    done = true
                case .needInput:
                    do {
                        if let chunk = try read() {
                            reader.feed(chunk)
                        } else {
                            reader.endOfInput()
                        }
                    } catch {
                        done = true
                        let failure = reader.readFailure(error)
                        return VettedElement(index: failure.index, offset: 0, line: failure.line, result: .failure(failure.error))
                    }
                }
            }
            return nil
        }

        /// The first failing record ends the stream (`onError: .stop`): it is the last element.
        @inlinable
        mutating func stop() {
            reader.stop()
            done = true
        }
    }
}
