import Foundation
@_spi(Scanning) import VettedCore
import VettedDecoding
import VettedRules

// Structural errors met straight from the bytes: a field's value of the wrong kind
// or that does not convert, a required field that never came. The tape path parses the whole document first
// (a syntax error anywhere is its answer), then reads each object's fields in
// declaration order and each array's elements in order, and stops at its first
// structural error. So such an error found here is the call's answer once the rest
// of the input is shown to be JSON the parser takes, and no field the tape path
// reads before the failing one comes later in the document: the reader goes on
// through what is left of each open container — skipping values with every check
// the parser makes — and any doubt there is a miss, as before.

/// A structural error recorded by the byte reader, not yet the call's answer.
struct DirectFailure {
    /// The error as the tape path throws it, before it is located.
    let error: DecodingError
    /// Where the tape path locates it.
    let offset: Int
    /// Where the reader is: before the failing value (a mismatch), just past its object (a
    /// missing field), or inside an object whose other members are still ahead (an unknown tag).
    let resume: Resume

    enum Resume {
        case valueAhead, objectClosed, membersAhead
    }
}

extension JSONDirectReader {
    /// The kind of the value ahead, from its first byte (`nil`: not a value's start).
    mutating func kindAhead() -> JSONTape.Kind? {
        switch peek() {
        case UInt8(ascii: "{"): .object
        case UInt8(ascii: "["): .array
        case UInt8(ascii: "\""): .string
        case UInt8(ascii: "t"): .true
        case UInt8(ascii: "f"): .false
        case UInt8(ascii: "n"): .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): .number
        default: nil
        }
    }

    /// A field's value of another kind than `type`: recorded as the tape path reports it
    /// (`expected`: its words for a container type), then a miss that ends the generated body.
    @inline(never)
    mutating func mismatch(
        _ type: Any.Type, found: JSONTape.Kind?, expected: JSONTape.Kind? = nil, nullIsMismatch: Bool = false
    ) -> _VettedDirectMiss {
        guard let found else { return syntaxDoubt() }
        guard failure == nil, object.field >= 0 || inUnionContent, let path = try? codingPath(appending: nil) else {
            return _VettedDirectMiss()
        }
        let start = reader.scannerState.offset
        var offset = start
        if found == .object || found == .array {
            // The tape path places a container at its bracket; an empty one at its key.
            var scanner = reader.scannerState
            scanner.offset = start + 1
            scanner.skipWhitespace()
            if scanner.current == UInt8(ascii: found == .object ? "}" : "]") { offset = valueKeyStart }
        }
        let words = expected.map { TapeDecoder.containerExpected($0, found: found) }
        failure = DirectFailure(
            error: TapeDecoder.mismatch(type, found: found, path, expected: words, nullIsMismatch: nullIsMismatch), offset: offset,
            resume: .valueAhead)
        return _VettedDirectMiss()
    }

    /// A field's value read but not converted (a number its type cannot hold, a date string
    /// its strategy does not parse): recorded as the tape path reports it (`dataCorrupted` at
    /// the value, `description` in its words), with the reader put back at the value's start
    /// (and its count of values before it), so that the rest is read as after a mismatch.
    @inline(never)
    mutating func unconverted(at start: Int, counted: Int, _ description: String) -> _VettedDirectMiss {
        unconverted(at: start, counted: counted) { .dataCorrupted(.init(codingPath: $0, debugDescription: description)) }
    }

    /// ``unconverted(at:counted:_:)`` with the error `error` makes for the value's path.
    @inline(never)
    mutating func unconverted(at start: Int, counted: Int, _ error: ([any CodingKey]) -> DecodingError) -> _VettedDirectMiss {
        guard failure == nil, object.field >= 0 || inUnionContent, let path = try? codingPath(appending: nil) else {
            return _VettedDirectMiss()
        }
        reader.scannerState.offset = start
        reader.valueCount = counted
        failure = DirectFailure(error: error(path), offset: start, resume: .valueAhead)
        return _VettedDirectMiss()
    }

    /// A date whose strategy gives no finite number of seconds (a non-conforming float read as
    /// one), which starts at `start`: the tape path's `nonFiniteDate`.
    @inline(never)
    mutating func nonFiniteDate(at start: Int, counted: Int) -> _VettedDirectMiss {
        unconverted(at: start, counted: counted) { path in
            .vetted(.nonFiniteDate, at: path, DecodingTexts.nonFiniteDate)
        }
    }

    /// A raw value no case of `E` has (`text`, as the value's own words quote it), which starts at `start`:
    /// `init(from:)`'s error, as the tape path reports it.
    @inline(never)
    mutating func notACase<E>(_ type: E.Type, _ text: String, at start: Int, counted: Int, kind: String) -> _VettedDirectMiss {
        unconverted(at: start, counted: counted, "Cannot initialize \(E.self) from invalid \(kind) value \(text)")
    }

    /// The number just read (`token`, one value counted), which `type` cannot hold, in the tape path's words.
    @inline(never)
    mutating func unrepresentable<I>(_ type: I.Type, _ token: JSONTape.Entry) -> _VettedDirectMiss {
        let description = DecodingTexts.notRepresentable(document.literal(token), in: I.self)
        return unconverted(at: token.first, counted: reader.valueCount - 1, description)
    }

    /// A tag no case of the union has (`token`, the tag key at `tagKey`), with no `@UnknownTag`
    /// case: recorded as the tape path reports it (`unknownTag` at the tag's value), and the
    /// rest of the union's object is read as an object of no fields (under `.collect`, skipped
    /// by ``recover(_:)``, and the union's parent goes on). Inside another union, or with a
    /// fallback case, a miss.
    @inline(never)
    mutating func unknownTag(_ token: JSONTape.Entry, in table: _VettedUnionTable, tagKey: Range<Int>, first: Bool) -> _VettedDirectMiss {
        guard !table.hasFallback, failure == nil, unionDepth == 1,
            let path = try? codingPath(appending: table.tag, containers: containers.count - 1)
        else { return _VettedDirectMiss() }
        failure = DirectFailure(error: table.unknownTag(document.string(token), codingPath: path), offset: token.first - 1, resume: .membersAhead)
        outer.append(object)
        object = DirectObject(info: .none)
        object.closesUnion = true
        object.openOffset = containers.last?.start ?? 0
        if first {
            object.members = 1
            object.unknown.append(tagKey)
        } else {
            // Not the first member: the reader is back at the brace, and the tag's member is read as the rest are.
            object.laterTagKey = tagKey.lowerBound
        }
        return _VettedDirectMiss()
    }

    /// A required field that never came (its object has just closed): recorded as the tape path reports it.
    @inline(never)
    mutating func recordMissing(_ field: Int) -> _VettedDirectMiss {
        guard failure == nil else { return _VettedDirectMiss() }
        failure = missingFailure(field)
        return _VettedDirectMiss()
    }

    /// The tape path's error for `field` of the object just closed, which never came (`nil`:
    /// one this reader cannot name).
    func missingFailure(_ field: Int) -> DirectFailure? {
        let table = object.info.table
        guard table.keys.indices.contains(field), let path = try? codingPath(appending: nil) else { return nil }
        // The object's opening brace; an empty object is placed at the key it is the value of, if any.
        var offset = object.openOffset
        if object.members == 0 {
            if let container = containers.last, container.isUnionContent {
                offset = (try? contentKey(of: container).quote) ?? 0
            } else {
                offset = containers.last?.step == -1 && !outer.isEmpty ? (outer.last?.keyStart ?? 0) : 0
            }
        }
        let key = table.keys[field]
        let error = DecodingError.absentKey(key, at: path)
        return DirectFailure(error: error, offset: offset, resume: .objectClosed)
    }

    /// The recorded structural error as the call's answer, once the rest of the input is read
    /// as the tape path would read it; `nil` when anything there is in doubt (a miss), or when
    /// another error may come first in the tape path's order. The rest is read in that case
    /// too: a syntax error there is still the call's answer (``syntaxError()``).
    mutating func failureOutcome() -> (any Error)? {
        guard let failure else { return nil }
        // Under `.collect` the call reports every structural error: one this reader could not
        // go on after (`DirectCollection.swift`) is a miss, and the tape path collects. The rest
        // is still read, so that a syntax error there is answered in this pass.
        // Fail-fast: a violation recorded before may come first in the tape path's order.
        // So may a relation of an open object, which the tape path checks once both its fields are read.
        var decidable = true
        if case .failFast = document.engine.mode {
            decidable = violations.isEmpty && omitted == 0 && object.info.relations.isEmpty && outer.allSatisfy({ $0.info.relations.isEmpty })
        }
        do throws(_VettedDirectMiss) {
            switch failure.resume {
            case .valueAhead: try skipValue()
            case .objectClosed: object = outer.popLast() ?? DirectObject(info: .none)
            case .membersAhead: break
            }
            while let container = containers.last {
                let step = container.step
                if container.isUnionContent {
                    try closeAdjacentUnion()
                } else if step < 0 {
                    // The tape path reads fields in declaration order: one before the failing one, later here, comes first there.
                    let failing = object.field
                    while let field = try nextField() {
                        if field >= 0 && field < failing { decidable = false }
                        try skipValue()
                    }
                    // So is a required field before it that never came (the tape path's keyNotFound).
                    let required = object.info.table.isRequired
                    for field in 0..<Swift.min(Swift.max(0, failing), required.count, 64)
                    where required[field] && object.seen & (1 << UInt64(field)) == 0 {
                        decidable = false
                    }
                    object = outer.popLast() ?? DirectObject(info: .none)
                } else {
                    var count = step + 1
                    while try nextElement(count) {
                        try skipValue()
                        count += 1
                    }
                }
            }
            _ = try finished(())
            guard decidable, !collects else { return nil }
        } catch {
            return nil
        }
        let source = document.source
        return failure.error.located { _ in ValueLocation(offset: failure.offset, source: source) }
    }
}
