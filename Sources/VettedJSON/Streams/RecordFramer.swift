@_spi(Scanning) import VettedCore

/// Cuts a stream of JSON records out of chunks of bytes, one chunk at a time, holding at
/// most one record (never more than `maxRecordBytes`) and no chunk but the current one.
///
/// It only finds where records begin and end; each record is then parsed and decoded alone
/// by the decoder, so every check the decoder makes applies to it. Between records it
/// checks what the framing itself says: RS before each text of a sequence, `[`, `,` and `]`
/// around the elements of an array. Every byte is looked at once, so the work is linear in
/// the stream's length, whatever the chunk boundaries.
struct RecordFramer {
    /// What the framer found.
    enum Event {
        /// A whole record: its bytes, the stream offset of its first byte and that byte's line.
        case record([UInt8], offset: Int, line: Int)
        /// A record that cannot be decoded at all (longer than the cap, a sequence's text
        /// without its RS or cut short): its error is located in the record, `$`-pathed.
        /// (Indirect, as `end`: an error is large, and every event is passed on by value.)
        indirect case failure(VettedError, offset: Int, line: Int)
        /// The framing is broken where nothing can resume (only in an array): the stream
        /// ends with this error, located in the stream.
        indirect case end(VettedError)
    }

    private enum ArrayState {
        case start, firstOrClose, element, afterElement, afterComma, closed
    }

    let framing: VettedJSONDecoder.StreamFraming
    let maxRecordBytes: Int

    /// Stream offset of the current chunk's first byte.
    private var chunkStart = 0
    /// Line (1-based) at the scan position.
    private(set) var line = 1
    /// The record being read: started, its first byte's offset and line, its bytes so far.
    private var inRecord = false
    private var recordOffset = 0
    private var recordLine = 1
    private var buffer: [UInt8] = []
    /// The current record passed the cap (already reported): its bytes are passed over.
    private var oversized = false
    /// Records completed so far (elements of an array, for the path of an error in one).
    private var records = 0
    /// JSON text sequences: whether an RS has been seen (text before the first is not a record).
    private var sawSeparator = false
    private var arrayState = ArrayState.start
    /// Inside an array element: nesting, and string state that may span chunks.
    private var depth = 0
    private var inString = false
    private var escaped = false
    private var scalar = false
    private var ended = false

    init(framing: VettedJSONDecoder.StreamFraming, maxRecordBytes: Int) {
        self.framing = framing
        self.maxRecordBytes = Swift.max(0, maxRecordBytes)
    }

    /// The stream offset just past the bytes read so far.
    var streamOffset: Int { chunkStart }

    /// Starts reading a new chunk whose first byte follows the previous chunk's last.
    mutating func begin(chunkAt offset: Int) { chunkStart = offset }

    /// Reads on from `scanner.offset` until an event or the end of the chunk (`nil`).
    mutating func advance(_ scanner: inout ByteScanner) -> Event? {
        guard !ended else {
            scanner.offset = scanner.count
            return nil
        }
        switch framing {
        case .jsonLines: return advanceLines(&scanner)
        case .jsonTextSequence: return advanceSequence(&scanner)
        case .array: return advanceArray(&scanner)
        }
    }

    /// The stream ended: the last record, or the error of a record or array left open.
    mutating func finish() -> Event? {
        guard !ended else { return nil }
        ended = true
        switch framing {
        case .jsonLines:
            guard inRecord, !oversized else { return nil }
            inRecord = false
            return lineRecord()
        case .jsonTextSequence:
            guard inRecord, !oversized else { return nil }
            inRecord = false
            return sequenceRecord()
        case .array:
            switch arrayState {
            case .closed:
                return nil
            case .element:
                return .end(VettedError(
                    code: .unexpectedEndOfInput, offset: chunkStart, path: [.index(records)],
                    message: "the stream ended inside element \(records) of the array"))
            case .start:
                return .end(VettedError(code: .unexpectedEndOfInput, offset: chunkStart, message: "expected '[' to open the array of records"))
            case .firstOrClose, .afterElement, .afterComma:
                return .end(VettedError(code: .unexpectedEndOfInput, offset: chunkStart, message: "the stream ended before the array's ']'"))
            }
        }
    }

    // MARK: Records

    private mutating func startRecord(at offset: Int) {
        inRecord = true
        oversized = false
        recordOffset = chunkStart + offset
        recordLine = line
        buffer.removeAll(keepingCapacity: false)
    }

    /// Adds `range` of the chunk to the record, or reports the record too large the first
    /// time it would pass `limit` (its bytes are then passed over, never held).
    private mutating func take(_ range: Range<Int>, from scanner: ByteScanner, limit: Int) -> Event? {
        guard !oversized, !range.isEmpty else { return nil }
        if range.count > limit - buffer.count {
            oversized = true
            buffer.removeAll(keepingCapacity: false)
            return tooLarge()
        }
        scanner.appendBytes(range, to: &buffer)
        return nil
    }

    private mutating func tooLarge() -> Event {
        .failure(
            VettedError(
                code: .recordTooLarge, offset: maxRecordBytes,
                message: "record is longer than the record limit of \(maxRecordBytes) bytes; its bytes were passed over"),
            offset: recordOffset, line: recordLine)
    }

    /// The finished record in `buffer`.
    private mutating func emit() -> Event {
        records += 1
        // The record's bytes go with it (its errors keep them); the next record starts afresh.
        let bytes = buffer
        buffer = []
        return .record(bytes, offset: recordOffset, line: recordLine)
    }

    /// Passes over one byte of JSON whitespace at the scan position, counting a line feed;
    /// whether there was one.
    private mutating func skipBlank(_ scanner: inout ByteScanner) -> Bool {
        switch scanner.current {
        case 0x20, 0x09, 0x0D:
            scanner.offset += 1
            return true
        case 0x0A:
            scanner.offset += 1
            line += 1
            return true
        default:
            return false
        }
    }

    // MARK: JSON Lines

    private mutating func advanceLines(_ scanner: inout ByteScanner) -> Event? {
        let end = scanner.count
        while scanner.offset < end {
            if !inRecord {
                // Blank space before a record is not part of it; a blank line is no record.
                if skipBlank(&scanner) { continue }
                startRecord(at: scanner.offset)
            }
            let start = scanner.offset
            let newline = scanner.firstIndex(of: 0x0A, in: start..<end)
            // One byte past the cap is allowed while buffering: it may be the CR of a CRLF.
            let event = take(start..<newline, from: scanner, limit: maxRecordBytes == .max ? .max : maxRecordBytes + 1)
            guard newline < end else {
                scanner.offset = end
                return event
            }
            scanner.offset = newline + 1
            line += 1
            inRecord = false
            if let event { return event }
            if oversized { continue }
            if let record = lineRecord() { return record }
        }
        return nil
    }

    /// The line in `buffer` as a record, without its CR.
    private mutating func lineRecord() -> Event? {
        if buffer.last == 0x0D { buffer.removeLast() }
        if buffer.count > maxRecordBytes {
            buffer.removeAll(keepingCapacity: false)
            return tooLarge()
        }
        return emit()
    }

    // MARK: JSON text sequences (RFC 7464)

    private static let recordSeparator: UInt8 = 0x1E

    private mutating func advanceSequence(_ scanner: inout ByteScanner) -> Event? {
        let end = scanner.count
        while scanner.offset < end {
            if !inRecord {
                if scanner.current == Self.recordSeparator {
                    // Consecutive RS mark no empty text between them.
                    sawSeparator = true
                    scanner.offset += 1
                    continue
                }
                if skipBlank(&scanner) { continue }
                startRecord(at: scanner.offset)
                if !sawSeparator {
                    // Text before the first RS: a record that lost its separator.
                    oversized = true
                    sawSeparator = true
                    return .failure(
                        VettedError(code: .unexpectedCharacter, offset: 0, message: "a JSON text sequence's text must start with RS (0x1E)"),
                        offset: recordOffset, line: recordLine)
                }
            }
            let start = scanner.offset
            let separator = scanner.firstIndex(of: Self.recordSeparator, in: start..<end)
            line += scanner.lineFeeds(in: start..<separator).count
            let event = take(start..<separator, from: scanner, limit: maxRecordBytes)
            guard separator < end else {
                scanner.offset = end
                return event
            }
            scanner.offset = separator + 1
            inRecord = false
            if let event { return event }
            if oversized { continue }
            return sequenceRecord()
        }
        return nil
    }

    /// The text in `buffer` as a record. RFC 7464, section 2.4: a text that is a number,
    /// `true`, `false` or `null` must end with whitespace, or it may have been cut short.
    private mutating func sequenceRecord() -> Event {
        let first = buffer.first ?? 0
        let last = buffer.last ?? 0
        let scalar = first == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first)
            || first == UInt8(ascii: "t") || first == UInt8(ascii: "f") || first == UInt8(ascii: "n")
        let endsInSpace = last == 0x20 || last == 0x09 || last == 0x0A || last == 0x0D
        guard scalar, !endsInSpace else { return emit() }
        let error = VettedError(
            .unexpectedEndOfInput, at: buffer.count, in: SourceText(buffer),
            message: "a number or literal in a JSON text sequence must be followed by whitespace: it may be cut short")
        records += 1
        buffer = []
        return .failure(error, offset: recordOffset, line: recordLine)
    }

    // MARK: The elements of one array

    private mutating func advanceArray(_ scanner: inout ByteScanner) -> Event? {
        let end = scanner.count
        while scanner.offset < end {
            if arrayState == .element {
                if let event = scanElement(&scanner) { return event }
                continue
            }
            if skipBlank(&scanner) { continue }
            let byte = scanner.current
            switch arrayState {
            case .start:
                guard byte == UInt8(ascii: "[") else {
                    return streamError(
                        byte == 0xEF ? .byteOrderMark : .unexpectedCharacter, at: scanner.offset,
                        "expected '[' to open the array of records")
                }
                scanner.offset += 1
                arrayState = .firstOrClose
            case .firstOrClose, .afterComma:
                if byte == UInt8(ascii: "]") {
                    if arrayState == .afterComma {
                        return streamError(.trailingComma, at: scanner.offset, "trailing comma before ']'")
                    }
                    scanner.offset += 1
                    arrayState = .closed
                    continue
                }
                if byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: ":") {
                    return streamError(.unexpectedCharacter, at: scanner.offset, "expected a value")
                }
                startRecord(at: scanner.offset)
                arrayState = .element
                depth = 0
                inString = false
                escaped = false
                scalar = false
                // A string or container element ends where its nesting returns to zero.
                scalar = byte != UInt8(ascii: "[") && byte != UInt8(ascii: "{") && byte != UInt8(ascii: "\"")
            case .afterElement:
                if byte == UInt8(ascii: ",") {
                    arrayState = .afterComma
                } else if byte == UInt8(ascii: "]") {
                    arrayState = .closed
                } else {
                    return streamError(.missingComma, at: scanner.offset, "expected ',' or ']' before the next value")
                }
                scanner.offset += 1
            case .closed:
                return streamError(.trailingData, at: scanner.offset, "unexpected data after the array of records")
            case .element:
                break
            }
        }
        return nil
    }

    /// Reads the current element on, up to its end or the chunk's. Only its extent is
    /// found here (strings, escapes and nesting); the decoder parses it afterwards.
    private mutating func scanElement(_ scanner: inout ByteScanner) -> Event? {
        let start = scanner.offset
        let end = scanner.count
        var done = false
        scan: while scanner.offset < end {
            if escaped {
                escaped = false
                if scanner.current == 0x0A { line += 1 }
                scanner.offset += 1
                continue
            }
            if inString {
                scanner.skipPlainStringBytes()
                guard scanner.offset < end else { break }
                let byte = scanner.current
                scanner.offset += 1
                if byte == UInt8(ascii: "\"") {
                    inString = false
                    if depth == 0 {
                        done = true
                        break scan
                    }
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == 0x0A {
                    line += 1
                }
                continue
            }
            let byte = scanner.current
            if scalar {
                switch byte {
                case 0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"),
                    UInt8(ascii: "["), UInt8(ascii: "{"), UInt8(ascii: "\""), UInt8(ascii: ":"):
                    done = true
                    break scan
                default:
                    scanner.offset += 1
                    continue
                }
            }
            scanner.offset += 1
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                depth -= 1
                if depth <= 0 {
                    done = true
                    break scan
                }
            case 0x0A:
                line += 1
            default:
                break
            }
        }
        let event = take(start..<scanner.offset, from: scanner, limit: maxRecordBytes)
        guard done else { return event }
        arrayState = .afterElement
        inRecord = false
        if let event { records += 1; return event }
        if oversized {
            records += 1
            return nil
        }
        return emit()
    }

    private mutating func streamError(_ code: VettedError.Code, at offset: Int, _ message: String) -> Event {
        ended = true
        let path: DocumentPath = arrayState == .start || arrayState == .closed ? [] : [.index(records)]
        // No excerpt: the stream is not kept, and one cut from the current chunk alone would
        // change with where the chunks happen to end (one input, one answer).
        return .end(VettedError(code: code, offset: chunkStart + offset, path: path, message: message))
    }
}
