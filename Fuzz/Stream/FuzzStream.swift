// libFuzzer entry point: streams of records (issue 43). Each input is a stream, read in
// one of the three framings under one of the differential's decoder configurations and a
// small record cap (chosen by the input's first byte), cut into chunks at places the input's
// bytes choose. Any of these aborts:
// - the elements differ from those of the same stream read in one chunk (the answer does
//   not depend on where chunks end);
// - a JSON Lines or text-sequence record's element differs from decoding that record alone,
//   its path under the record's index;
// - indices that do not count up from 0, offsets that do not grow (but for the element that
//   ends a broken stream, at offset 0 with its error placed in the stream), a record past the cap
//   that is not `recordTooLarge`;
// - an internal invariant error.
// Build and run with scripts/fuzz.sh stream SECONDS (which compiles the shared
// Tests/VettedMacrosTests/GeneratedCorpus.swift and ShapesCorpus.swift into this target).

import Foundation
import VettedCore
@_spi(Testing) import VettedJSON
import VettedMacros
import VettedRules

private let configurations: [DecoderOptions] = [
    DecoderOptions(),
    DecoderOptions(date: .iso8601, dateName: "iso8601"),
    DecoderOptions(duplicates: .keepFirst, mode: .failFast),
    DecoderOptions(duplicates: .keepLast, mode: .collect(upTo: 2)),
].map { options in
    var options = options
    options.limits = Limits(maxInputBytes: 1 << 20, maxDepth: 64, maxRecordBytes: 512)
    return options
}

private let framings: [VettedJSONDecoder.StreamFraming] = [.jsonLines, .jsonTextSequence, .array]

/// What one element said: its place and outcome, as text.
private func describe<T: Equatable>(_ element: VettedElement<T>) -> String {
    "\(element.index) @\(element.offset) line \(element.line): \(Outcome { try element.get() })"
}

/// The record `element` was cut from, as the framing cuts it, for the framings whose records
/// end at a separator byte (`nil` for an array's element).
private func record(at offset: Int, in bytes: [UInt8], framing: VettedJSONDecoder.StreamFraming) -> [UInt8]? {
    guard offset >= 0, offset <= bytes.count else { return nil }
    switch framing {
    case .jsonLines:
        var line = bytes[offset...].prefix { $0 != 0x0A }
        if line.last == 0x0D { line = line.dropLast() }
        return Array(line)
    case .jsonTextSequence:
        return Array(bytes[offset...].prefix { $0 != 0x1E })
    case .array:
        return nil
    }
}

private func check<T: Decodable & Equatable>(_ type: T.Type, _ bytes: [UInt8], chunks: [[UInt8]], framing: VettedJSONDecoder.StreamFraming, options: DecoderOptions) {
    let decoder = options.decoder(generated: true)
    let cut = Array(decoder.elements(of: T.self, fromChunks: chunks, framing: framing, onError: .skip))
    let whole = Array(decoder.elements(of: T.self, fromChunks: [bytes], framing: framing, onError: .skip))
    let cutText = cut.map(describe)
    let wholeText = whole.map(describe)
    requireNoInternalError("\(cutText)")
    if cutText != wholeText {
        fatalError("\(T.self) \(framing): the chunks changed the answer:\n  cut: \(cutText)\n  whole: \(wholeText)")
    }
    var lastOffset = -1
    for (position, element) in cut.enumerated() {
        // The element that ends a stream with an error of its framing sits at offset 0 (its error is placed in the stream).
        let ending = position == cut.count - 1 && element.offset == 0 && (try? element.get()) == nil
        guard element.index == position, element.offset > lastOffset || ending else {
            fatalError("\(T.self) \(framing): element \(position) is \(describe(element)) after offset \(lastOffset)")
        }
        lastOffset = element.offset
        guard let record = record(at: element.offset, in: bytes, framing: framing) else { continue }
        if case .failure(let error) = element.result, (error as? DecodingError)?.vettedError?.code == .recordTooLarge {
            guard record.count > options.limits.maxRecordBytes else { fatalError("\(T.self) \(framing): \(describe(element)) of \(record.count) bytes") }
            continue
        }
        // A text sequence's number or literal without whitespace after it is refused as cut short.
        if framing == .jsonTextSequence, case .failure(let error) = element.result,
            (error as? DecodingError)?.vettedError?.code == .unexpectedEndOfInput, (error as? DecodingError)?.vettedError?.offset == record.count {
            continue
        }
        let alone = Outcome { () throws -> T in
            do { return try decoder.decode(T.self, from: record) } catch { throw RecordErrors.prefixing(error, index: element.index) }
        }
        let streamed = Outcome { try element.get() }
        if alone != streamed && !(framing == .jsonTextSequence && position == 0 && !startsWithSeparator(bytes)) {
            fatalError("\(T.self) \(framing): record \(element.index) differs from itself alone:\n  streamed: \(streamed)\n  alone: \(alone)")
        }
    }
}

/// Whether a text sequence's first byte other than whitespace is RS (else its first record lost it).
private func startsWithSeparator(_ bytes: [UInt8]) -> Bool {
    bytes.first { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D } == 0x1E
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStream(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let input = Array(UnsafeRawBufferPointer(start: start, count: count))
    guard let control = input.first else { return 0 }
    let bytes = Array(input.dropFirst())
    let framing = framings[Int(control) % framings.count]
    let options = configurations[Int(control / 3) % configurations.count]
    // Chunk lengths from the stream's own bytes: 1 to 16 bytes each.
    var chunks: [[UInt8]] = []
    var position = 0
    var choice = Int(control)
    while position < bytes.count {
        choice = (choice &* 31 &+ Int(bytes[position])) & 0xFFFF
        let end = Swift.min(bytes.count, position + 1 + choice % 16)
        chunks.append(Array(bytes[position..<end]))
        position = end
    }
    check(DirectItem.self, bytes, chunks: chunks, framing: framing, options: options)
    check(Page.self, bytes, chunks: chunks, framing: framing, options: options)
    check(TestEvent.self, bytes, chunks: chunks, framing: framing, options: options)
    check(Int.self, bytes, chunks: chunks, framing: framing, options: options)
    return 0
}

/// A broken internal invariant is a finding (a bug in Vetted), never an ordinary error.
func requireNoInternalError(_ error: String) {
    if "\(error)".contains(VettedError.Code.internalInvariantViolated.rawValue) { fatalError("internal invariant violated: \(error)") }
}
