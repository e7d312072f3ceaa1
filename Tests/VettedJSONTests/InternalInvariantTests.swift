import Foundation
import Testing
import VettedCore
@testable import VettedJSON

/// A broken internal invariant is a typed error of its own, never a value (issue 18, item 6).
@Suite struct InternalInvariantTests {
    /// An array whose entry says it holds one element past the end of the tape: a tape
    /// the parser never builds. Decoding it reads outside the tape; the call throws
    /// `internalInvariantViolated` instead of decoding the missing element as null.
    @Test func aReadOutsideTheTapeIsAnInternalError() throws {
        var tape = JSONTape(expectedBytes: 0)
        tape.append(.array, first: 1, payload: 2)
        let document = DecodingDocument(
            source: SourceText(Array("[1]".utf8)), tape: tape, options: VettedJSONDecoder.Options(), duplicateKeys: .reject)
        _ = try? TapeDecoder(document: document, current: 0, path: []).unwrap([Int?].self)
        #expect(document.invariantViolation == "tape index 1 outside 0..<1")
        do {
            try document.checkInvariants()
            Issue.record("a broken invariant must throw")
        } catch let DecodingError.dataCorrupted(context) {
            #expect((context.underlyingError as? VettedError)?.code == .internalInvariantViolated)
        }
        // A missing value's decoder reads null at its own index without tripping the check.
        let missing = DecodingDocument(
            source: SourceText(Array("{}".utf8)), tape: JSONTape(expectedBytes: 0), options: VettedJSONDecoder.Options(), duplicateKeys: .reject)
        #expect(missing.entry(TapeDecoder.nullIndex).kind == .null && missing.invariantViolation == nil)
    }

    /// The parser's own check: a container closed outside the tape.
    @Test func aContainerClosedOutsideTheTapeIsAnInternalError() {
        var tape = JSONTape(expectedBytes: 0)
        tape.close(3, kind: .array, count: 0, flags: 0)
        #expect(tape.closedOutsideTape)
    }
}
