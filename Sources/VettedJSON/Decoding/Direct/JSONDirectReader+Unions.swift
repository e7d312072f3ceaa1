import Foundation
@_spi(Scanning) import VettedCore
import VettedDecoding

// Tagged unions straight from the bytes. Internally tagged (`{"type": "sold", "id": 1}`), the
// payload's members follow the tag in the same object, and the payload's ``DirectObject`` is the
// union's: closing it ends the union. Adjacently tagged (`{"type": "sold", "data": {…}}`), the
// union's own object has no ``DirectObject`` (it would be pushed and popped for every union
// read): its container is marked (``DirectContainer/unionStep``) once the content is being
// read, so that a path inside the payload names the content key (its bytes are the container's
// second key) and the payload's errors come after the tag in the tape path's order. Its
// generated body catches nothing, so an error that leaves it open (a payload that recorded its
// errors, or is not an object) is closed by the caller's ``recover(_:)``. A tag that is not the
// first member is found before the payload is read, and the reader goes back to the brace
// (``laterTag(_:)``); members after an adjacently tagged union's content are passed.

extension JSONDirectReader {
    /// Opens a tagged union's object and reads its tag, which must spell one of the union's
    /// tags (one no case has is recorded, `DirectFailures.swift`). A small union's tags are
    /// compared as bytes; a larger union's, or a tag escaped or spelled otherwise, is looked up
    /// by hash as a String, as the tape path looks it up. Its keys are the parser's, for a
    /// syntax error. A tag that is not the first member is found first (``laterTag(_:)``).
    mutating func beginUnion(_ table: _VettedUnionTable) throws(_VettedDirectMiss) -> Int {
        // Another kind of value (an array's element; a field's was checked by `read`): the tape path's mismatch.
        if let kind = kindAhead(), kind != .object { throw mismatch([String: Any].self, found: kind, expected: .object) }
        try open(UInt8(ascii: "{"))
        unionDepth += 1
        let afterBrace = reader.scannerState.offset
        let tagKey: Range<Int>
        do throws(_VettedDirectMiss) {
            tagKey = try key(table.tagKeyBytes)
        } catch {
            reader.scannerState.offset = afterBrace
            return try laterTag(table)
        }
        appendKey(tagKey)
        let token = try stringToken()
        let found = try caseIndex(of: token, in: table, tagKey: tagKey, first: true)
        if let content = table.contentKeyBytes {
            try beginContent(content)
        } else {
            continuing = (tagKey, true)
        }
        return found
    }

    /// The case the tag `token` names (its key at `tagKey`; `first`: the object's first member).
    @inline(__always)
    private mutating func caseIndex(
        of token: JSONTape.Entry, in table: _VettedUnionTable, tagKey: Range<Int>, first: Bool
    ) throws(_VettedDirectMiss) -> Int {
        var found = -1
        if !token.has(JSONTape.needsDecoding) && table.tags.count <= SmallKeyTable.linearSearchLimit {
            let range = token.first..<Swift.max(token.first, token.payload)
            for (index, bytes) in table.tagBytes.enumerated() where bytes.count == range.count && reader.scannerState.bytesEqual(range, bytes.span) {
                found = index
                break
            }
        }
        if found < 0 { found = caseIndex(ofTag: token, in: table) }
        guard found >= 0 else { throw unknownTag(token, in: table, tagKey: tagKey, first: first) }
        return found
    }

    /// An internally tagged union whose tag is not its object's first member
    /// (`{"id": 1, "type": "sold"}`), the reader just past the brace: the object's members are
    /// passed to find the tag (keys, strings and numbers by their scanners, containers by their
    /// brackets: ``passContainer()``), and the reader goes back to the brace, so that the payload
    /// reads every member but the tag's (``DirectObject/laterTagKey``) with every check.
    /// An adjacently tagged union is read this way when its content is the first member and its
    /// tag the second (``DirectContainer/unionStepTagLast``). A member is passed over once more
    /// for each such union it is in: at most the reader's depth (``JSONDirectReader/depthCeiling``,
    /// 8), so the work stays linear. A tag key met twice, escaped, converted to it by the key
    /// strategy or with a value that is not a string, an adjacently tagged union's object with
    /// other members before its tag, or no tag at all: the tape path's; bytes the parser refuses: its error,
    /// resumed at the brace.
    @inline(never)
    private mutating func laterTag(_ table: _VettedUnionTable) throws(_VettedDirectMiss) -> Int {
        // Where to come back to: the parser's state after a value it skipped whole is what it was
        // before, but for the count of values (a copy of the parser would retain each of its buffers).
        let (brace, counted) = (reader.scannerState.offset, reader.valueCount)
        let tagBytes = table.tagKeyBytes
        var tag: (key: Range<Int>, token: JSONTape.Entry)?
        var members = 0
        var tagMember = 0
        var miss = false
        scan: while true {
            var byte = peek()
            if byte == UInt8(ascii: "}") { break }
            if members > 0 {
                guard byte == UInt8(ascii: ",") else { break }
                advance()
                byte = peek()
            }
            members += 1
            guard byte == UInt8(ascii: "\""), members <= maxMembers, let key = try? reader.scanString(), peek() == UInt8(ascii: ":") else { break }
            advance()
            let range = key.start..<key.end
            let plain = !key.hasEscapes && !key.needsRepair && !key.nonASCII
            var isTag = false
            if plain && range.count == tagBytes.count { isTag = reader.scannerState.bytesEqual(range, tagBytes.span) }
            if isTag {
                guard tag == nil, peek() == UInt8(ascii: "\""), let token = try? stringTokenAtQuote() else {
                    miss = true
                    break
                }
                tag = (range, token)
                tagMember = members
                continue
            }
            if !plain || (snakeCaseKeys && reader.scannerState.firstIndex(of: UInt8(ascii: "_"), in: range) < range.upperBound) {
                // Compared as a String, converted as the strategy converts it: equal to the tag key is the tape path's.
                let text = String(
                    decoding: JSONReader.decodedKeyBytes(reader.scannerState, start: key.start, end: key.end, needsDecoding: key.hasEscapes || key.needsRepair),
                    as: UTF8.self)
                if (snakeCaseKeys ? SnakeCase.toCamelCase(text) : text) == table.tag {
                    miss = true
                    break
                }
            }
            // A string or a number by its own scanner (a value's whole loop costs more than the scan); the rest whole.
            let value = reader.scannerState.offset
            do throws(VettedError) {
                switch reader.scannerState.current {
                case UInt8(ascii: "\""):
                    try reader.countValue(at: value)
                    _ = try reader.scanString()
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    try reader.countValue(at: value)
                    _ = try reader.scanNumber()
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    guard passContainer() else { break scan }
                default:
                    try reader.skipEmbeddedValue(below: depth)
                }
            } catch {
                break
            }
        }
        let closed = !miss && peek() == UInt8(ascii: "}")
        reader.scannerState.offset = brace
        reader.valueCount = counted
        // Stopped short of the brace: bytes the parser may refuse, which it reads again from the brace.
        guard closed || miss else { throw syntaxDoubt() }
        guard !miss, let tag else { throw _VettedDirectMiss() }
        let adjacent = table.contentKeyBytes
        // Adjacently tagged: its content, then its tag (then members no one reads, passed by ``closeAdjacentUnion()``).
        if adjacent != nil && tagMember != 2 { throw _VettedDirectMiss() }
        let found = try caseIndex(of: tag.token, in: table, tagKey: tag.key, first: false)
        if let adjacent {
            appendKey(try key(adjacent))
            if let last = containers.indices.last { containers[last].step = DirectContainer.unionStepTagLast }
        } else {
            continuing = (tag.key, false)
        }
        return found
    }

    /// Reads an adjacently tagged union's content key (after its tag) and marks the union's
    /// container as reading its content.
    private mutating func beginContent(_ content: [UInt8]) throws(_VettedDirectMiss) {
        passBoundary(complete: 1)
        // A closed object lacks its content (the tape path's error); anything else is the parser's.
        let byte = peek()
        guard byte == UInt8(ascii: ",") else { throw byte == UInt8(ascii: "}") ? _VettedDirectMiss() : syntaxDoubt() }
        advance()
        appendKey(try key(content))
        if let last = containers.indices.last { containers[last].step = DirectContainer.unionStep }
    }

    /// The content key of an adjacently tagged union's `container` (its second key, or its first
    /// when the tag comes last, spelled as the table spells it): its text, and where its quote is.
    func contentKey(of container: DirectContainer) throws(_VettedDirectMiss) -> (text: String, quote: Int) {
        let index = container.keyBase + (container.step == DirectContainer.unionStepTagLast ? 0 : 1)
        guard index < keyCount, keyRanges.indices.contains(index) else { throw _VettedDirectMiss() }
        let range = keyRanges[index]
        let bytes = JSONReader.decodedKeyBytes(reader.scannerState, start: range.lowerBound, end: range.upperBound, needsDecoding: false)
        return (String(decoding: bytes, as: UTF8.self), range.lowerBound - 1)
    }

    /// Whether the value ahead is an adjacently tagged union's content.
    var inUnionContent: Bool { containers.last?.isUnionContent == true }

    /// Passes the container at the scanner by its brackets, its strings and numbers by their
    /// scanners, with none of the parser's other checks: only to find a tag after it, in bytes the
    /// payload then reads with every check (and whose refusal is then the parser's). `false`:
    /// bytes that cannot be passed so.
    private mutating func passContainer() -> Bool {
        var open = 0
        while true {
            let byte = peek()
            switch byte {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                open += 1
                advance()
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                open -= 1
                advance()
                if open == 0 { return true }
            case UInt8(ascii: ","), UInt8(ascii: ":"):
                advance()
            case UInt8(ascii: "\""):
                guard (try? reader.scanString()) != nil else { return false }
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                guard (try? reader.scanNumber()) != nil else { return false }
            case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
                while reader.scannerState.current >= UInt8(ascii: "a") && reader.scannerState.current <= UInt8(ascii: "z") { advance() }
            default:
                return false
            }
        }
    }

    /// Where the key of the value ahead is: a field's, or an adjacently tagged union's content key.
    var valueKeyStart: Int {
        guard let container = containers.last, container.isUnionContent else { return object.keyStart }
        return (try? contentKey(of: container).quote) ?? object.keyStart
    }

    /// The case of a tag its bytes did not find: by hash, as a String (-1: none).
    @inline(never)
    private func caseIndex(ofTag token: JSONTape.Entry, in table: _VettedUnionTable) -> Int {
        table.caseIndex(ofTag: document.string(token)) ?? -1
    }

    /// Closes an adjacently tagged union's object (an internally tagged one was closed by its payload).
    mutating func endUnion(_ table: _VettedUnionTable) throws(_VettedDirectMiss) {
        guard table.contentKeyBytes != nil else {
            unionDepth -= 1
            return
        }
        try closeAdjacentUnion()
    }

    /// Closes the adjacently tagged union's object being read (its payload read or skipped): after
    /// a content read first, its tag (found before, ``laterTag(_:)``) is read again and passed.
    mutating func closeAdjacentUnion() throws(_VettedDirectMiss) {
        if containers.last?.step == DirectContainer.unionStepTagLast {
            passBoundary(complete: 1)
            guard peek() == UInt8(ascii: ",") else { throw syntaxDoubt() }
            advance()
            guard peek() == UInt8(ascii: "\"") else { throw syntaxDoubt() }
            let key: JSONReader.StringToken
            do { key = try reader.scanString() } catch { throw syntaxDoubt() }
            guard peek() == UInt8(ascii: ":") else { throw syntaxDoubt() }
            advance()
            appendKey(key.start..<key.end)
            _ = try stringToken()
        }
        passBoundary(complete: 2)
        let byte = peek()
        if byte == UInt8(ascii: ",") {
            try passMembersAfterContent()
        } else {
            guard byte == UInt8(ascii: "}") else { throw syntaxDoubt() }
            close()
        }
        unionDepth -= 1
    }

    /// Members after an adjacently tagged union's tag and content, which the tape path does not
    /// read: passed as the keys of an object of no fields, so that a repeat (of the tag or content
    /// key too) is the parser's duplicate; the object is closed.
    @inline(never)
    private mutating func passMembersAfterContent() throws(_VettedDirectMiss) {
        guard let container = containers.last, keyRanges.indices.contains(container.keyBase + 1) else { throw _VettedDirectMiss() }
        outer.append(object)
        object = DirectObject(info: .none)
        object.members = 2
        object.openOffset = container.start
        object.unknown = [keyRanges[container.keyBase], keyRanges[container.keyBase + 1]]
        while try nextField() != nil { try skipValue() }
        object = outer.popLast() ?? DirectObject(info: .none)
    }

    mutating func read<U: _VettedUnion>(_ type: U.Type, _ field: Int) throws(_VettedDirectMiss) -> U {
        if let kind = kindAhead(), kind != .object { throw mismatch([String: Any].self, found: kind, expected: .object) }
        let value = try union(U.self)
        try check(value, field)
        return value
    }

    mutating func readIfPresent<U: _VettedUnion>(_ type: U.Type, _ field: Int) throws(_VettedDirectMiss) -> U? {
        try null() ? nil : try read(U.self, field)
    }
}
