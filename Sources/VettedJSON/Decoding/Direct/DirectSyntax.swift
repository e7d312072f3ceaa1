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

/// An open container of the byte reader as the parser would hold it, and the last
/// boundary passed in it: where the parser resumes.
struct DirectContainer {
    let isObject: Bool
    /// Offset of its opening bracket or brace.
    let start: Int
    /// Where its keys begin in ``JSONDirectReader/keyRanges``.
    let keyBase: Int
    /// Members or elements complete at the boundary (0: the boundary is just past the opener).
    var complete = 0
    /// The boundary: just past the opener, or just past the last complete member or element.
    var boundary: Int
    /// Values counted (``JSONReader/countValue(at:)``) before the boundary.
    var counted: Int
}

extension JSONDirectReader {
    /// A miss at bytes the parser may refuse: the parser decides (``syntaxError()``).
    @inline(never)
    mutating func syntaxDoubt() -> _VettedDirectMiss {
        doubtsSyntax = true
        return _VettedDirectMiss()
    }

    /// A miss at a value's first byte: a doubt about syntax when no value starts there.
    @inline(never)
    mutating func valueDoubt() -> _VettedDirectMiss {
        kindAhead() == nil ? syntaxDoubt() : _VettedDirectMiss()
    }

    /// A key met twice in one object: the parser's error when its policy rejects a repeat,
    /// else the tape path's (which keeps one of them).
    @inline(never)
    mutating func duplicateDoubt() -> _VettedDirectMiss {
        reader.options.duplicateKeys == .reject ? syntaxDoubt() : _VettedDirectMiss()
    }

    /// Pushes the container just opened at `start`.
    @inline(__always)
    mutating func pushContainer(isObject: Bool, at start: Int) {
        containers.append(
            DirectContainer(isObject: isObject, start: start, keyBase: keyRanges.count, boundary: start + 1, counted: reader.valueCount))
    }

    /// Pops the container just closed, with its keys.
    @inline(__always)
    mutating func popContainer() {
        guard let closed = containers.popLast() else { return }
        if closed.isObject, closed.keyBase < keyRanges.count { keyRanges.removeSubrange(closed.keyBase...) }
    }

    /// Marks the place just past the innermost container's `complete`-th member or element.
    @inline(__always)
    mutating func passBoundary(complete: Int) {
        let last = containers.count - 1
        guard last >= 0 else { return }
        containers[last].complete = complete
        containers[last].boundary = reader.scannerState.offset
        containers[last].counted = reader.valueCount
    }

    /// The parser's first error from the last boundary on, after a doubt about syntax;
    /// `nil` when there was none, the doubt arose inside a union, or the parser takes the
    /// rest (then the tape path decides).
    mutating func syntaxError() -> VettedError? {
        guard doubtsSyntax, unionDepth == 0 else { return nil }
        var parser = JSONReader(scanner: reader.scannerState, source: document.source, limits: limits, options: reader.options, mode: .validate)
        do {
            if let innermost = containers.last {
                var open: [JSONReader.OpenContainer] = []
                open.reserveCapacity(containers.count)
                for (index, container) in containers.enumerated() {
                    let isInnermost = index == containers.count - 1
                    // An outer container's member being read is begun, and an outer object's key is read.
                    let members = isInnermost ? container.complete : container.complete + 1
                    let keyEnd = index + 1 < containers.count ? containers[index + 1].keyBase : keyRanges.count
                    let keys = container.isObject ? keyRanges[container.keyBase..<Swift.min(keyEnd, container.keyBase + members)] : []
                    guard !container.isObject || keys.count == members else { return nil }
                    open.append(JSONReader.OpenContainer(isObject: container.isObject, start: container.start, members: members, keys: keys))
                }
                try parser.resume(
                    containers: open, at: innermost.boundary, valueCount: innermost.counted, afterOpener: innermost.complete == 0)
            } else if let end = rootEnd {
                try parser.resume(containers: [], at: end, valueCount: reader.valueCount, afterOpener: false)
            } else {
                _ = try parser.readDocument()
            }
        } catch {
            return error
        }
        return nil
    }
}
