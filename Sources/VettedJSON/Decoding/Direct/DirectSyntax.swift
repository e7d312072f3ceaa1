import Foundation
@_spi(Scanning) import VettedCore
import VettedDecoding
import VettedRules

// Syntax errors met straight from the bytes. The tape path parses the whole document
// before it decodes anything, so its answer to a document that is not JSON (or breaks
// a parser limit, or repeats a key the policy rejects) is the parser's first error,
// whatever the decoding before it found. The byte reader checks every token with the
// parser's own scanners, so when it meets bytes it cannot read as JSON it need not start
// over: it hands its open containers to the parser (`JSONReader+Resume.swift`), which
// goes on from the last boundary the reader passed and gives that first error — same
// code, offset, path and message — having read only what lies past the boundary.
// Bytes the parser takes there after all (a doubt that was about decoding, not syntax)
// leave the call to the tape path, as before.

/// An open container of the byte reader as the parser would hold it.
struct DirectContainer {
    /// For a violation's path: -1 an object (its key is its ``DirectObject``'s), ``unionStep``
    /// (or ``unionStepTagLast``) an adjacently tagged union's object once its content is being
    /// read (its key is the content key: `JSONDirectReader+Unions.swift`), else the index of the array's element being read.
    var step: Int
    /// An object's step stays negative; an array's counts up from 0.
    var isObject: Bool { step < 0 }
    static let unionStep = -2
    /// The same, when the union's tag is its second member and its content the first.
    static let unionStepTagLast = -3
    /// Whether the container is an adjacently tagged union's object reading its content.
    var isUnionContent: Bool { step == Self.unionStep || step == Self.unionStepTagLast }
    /// Offset of its opening bracket or brace.
    let start: Int
    /// Where its keys begin in ``JSONDirectReader/keyRanges``.
    let keyBase: Int
    /// The last boundary passed in the container around it, kept while this one is open.
    let enclosing: DirectBoundary
}

/// The last boundary the byte reader passed in a container: where the parser resumes.
struct DirectBoundary {
    /// Just past the opener, or just past the last complete member or element.
    var offset: Int
    /// Values counted (``JSONReader/countValue(at:)``) before it.
    var counted: Int
    /// Members or elements complete there (0: just past the opener).
    var complete: Int
}

extension JSONDirectReader {
    /// A miss at bytes the parser may refuse: the parser decides (``syntaxError()``).
    @inline(__always)
    mutating func syntaxDoubt() -> _VettedDirectMiss {
        doubtsSyntax = true
        return _VettedDirectMiss()
    }

    /// A miss at a value's first byte: a doubt about syntax when no value starts there.
    @inline(__always)
    mutating func valueDoubt() -> _VettedDirectMiss {
        kindAhead() == nil ? syntaxDoubt() : _VettedDirectMiss()
    }

    /// A key met twice in one object: the parser's error when its policy rejects a repeat,
    /// else the tape path's (which keeps one of them).
    @inline(__always)
    mutating func duplicateDoubt() -> _VettedDirectMiss {
        reader.options.duplicateKeys == .reject ? syntaxDoubt() : _VettedDirectMiss()
    }

    /// Skips the value of a key that is no field (or, after a structural error, any value), with
    /// every check the parser makes. Bytes it refuses are resumed at the value's start, so a
    /// long value is not read twice.
    /// A closer where the value should be (`[1,]`) is resumed at the last boundary instead, so
    /// that the parser reads the comma before it and names the trailing comma.
    mutating func skipValue() throws(_VettedDirectMiss) {
        let first = peek()
        let start = reader.scannerState.offset
        let counted = reader.valueCount
        do { try reader.skipEmbeddedValue(below: depth) } catch {
            if first != UInt8(ascii: "]") && first != UInt8(ascii: "}") {
                skippedValue = DirectBoundary(offset: start, counted: counted, complete: 0)
            }
            throw syntaxDoubt()
        }
    }

    /// Pushes the container just opened at `start`.
    @inline(__always)
    mutating func pushContainer(isObject: Bool, at start: Int) {
        containers.append(DirectContainer(step: isObject ? -1 : 0, start: start, keyBase: keyCount, enclosing: boundary))
        boundary = DirectBoundary(offset: start + 1, counted: reader.valueCount, complete: 0)
    }

    /// Pops the container just closed, with its keys.
    @inline(__always)
    mutating func popContainer() {
        guard let closed = containers.popLast() else { return }
        boundary = closed.enclosing
        keyCount = closed.keyBase
    }

    /// Records the key of the member just begun in the innermost object.
    @inline(__always)
    mutating func appendKey(_ range: Range<Int>) {
        if keyCount < keyRanges.count {
            keyRanges[keyCount] = range
        } else {
            keyRanges.append(range)
        }
        keyCount += 1
    }

    /// Marks the place just past the innermost container's `complete`-th member or element.
    @inline(__always)
    mutating func passBoundary(complete: Int) {
        boundary = DirectBoundary(offset: reader.scannerState.offset, counted: reader.valueCount, complete: complete)
    }

    /// The parser's first error from the last boundary on, after a doubt about syntax;
    /// `nil` when there was none, or the parser takes the rest (then the tape path decides).
    /// A union's tag and content keys are recorded as any member's are (``beginUnion(_:)``).
    mutating func syntaxError() -> VettedError? {
        guard doubtsSyntax else { return nil }
        var parser = JSONReader(scanner: reader.scannerState, source: document.source, limits: reader.limits, options: reader.options, mode: .validate)
        do {
            // A parse begins with the encoding, whatever comes after it (`[\0]` is UTF-16 to it).
            try parser.checkEncoding()
            if !containers.isEmpty {
                var open: [JSONReader.OpenContainer] = []
                open.reserveCapacity(containers.count)
                for (index, container) in containers.enumerated() {
                    let last = index == containers.count - 1
                    let passed = last ? boundary : containers[index + 1].enclosing
                    // An outer container's member being read is begun, and an outer object's key is read;
                    // so is the innermost's when the parser resumes at the value being skipped.
                    let members = last && skippedValue == nil ? passed.complete : passed.complete + 1
                    let keyEnd = index + 1 < containers.count ? containers[index + 1].keyBase : Swift.min(keyCount, keyRanges.count)
                    let upper = Swift.min(keyEnd, container.keyBase + members)
                    guard container.keyBase <= upper, upper <= keyRanges.count else { return nil }
                    let keys = container.isObject ? keyRanges[container.keyBase..<upper] : []
                    guard !container.isObject || keys.count == members else { return nil }
                    open.append(JSONReader.OpenContainer(isObject: container.isObject, start: container.start, members: members, keys: keys))
                }
                if let skipped = skippedValue {
                    try parser.resume(containers: open, at: skipped.offset, valueCount: skipped.counted, point: .atValue)
                } else {
                    try parser.resume(
                        containers: open, at: boundary.offset, valueCount: boundary.counted,
                        point: boundary.complete == 0 ? .afterOpener : .afterValue)
                }
            } else if let end = rootEnd {
                try parser.resume(containers: [], at: end, valueCount: reader.valueCount, point: .afterValue)
            } else {
                _ = try parser.readDocument()
            }
        } catch {
            return error
        }
        return nil
    }
}
