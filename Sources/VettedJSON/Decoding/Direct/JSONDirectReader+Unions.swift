import Foundation
@_spi(Scanning) import VettedCore
import VettedDecoding

// Tagged unions straight from the bytes. Internally tagged (`{"type": "sold", "id": 1}`), the
// payload's members follow the tag in the same object, and the payload's ``DirectObject`` is the
// union's: closing it ends the union. Adjacently tagged (`{"type": "sold", "data": {…}}`), the
// union's own object gets a ``DirectObject`` of two fields, the tag and the content
// (``DirectTypeInfo/init(unionObject:)``): a path inside the payload names the content key, and
// the payload's errors come after the tag in the tape path's order, as for a struct's field. Its
// generated body catches nothing, so an error that leaves it open (a payload that recorded its
// errors, or is not an object) is closed by the caller's ``recover(_:)``.

extension JSONDirectReader {
    /// Opens a tagged union's object and reads its tag, which must be the first member
    /// and spell one of the union's tags (a tag that is not first is the tape path's; one no
    /// case has is recorded, `DirectFailures.swift`). A small union's tags are compared as
    /// bytes; a larger union's, or a tag escaped or spelled otherwise, is looked up by hash
    /// as a String, as the tape path looks it up. Its keys are the parser's, for a syntax error.
    mutating func beginUnion(_ table: _VettedUnionTable) throws(_VettedDirectMiss) -> Int {
        // Another kind of value (an array's element; a field's was checked by `read`): the tape path's mismatch.
        if let kind = kindAhead(), kind != .object { throw mismatch([String: Any].self, found: kind, expected: .object) }
        try open(UInt8(ascii: "{"))
        unionDepth += 1
        let tagKey = try key(table.tagKeyBytes)
        appendKey(tagKey)
        let token = try stringToken()
        var found = -1
        if !token.has(JSONTape.needsDecoding) && table.tags.count <= SmallKeyTable.linearSearchLimit {
            let range = token.first..<Swift.max(token.first, token.payload)
            for (index, bytes) in table.tagBytes.enumerated() where bytes.count == range.count && reader.scannerState.bytesEqual(range, bytes.span) {
                found = index
                break
            }
        }
        if found < 0 { found = caseIndex(ofTag: token, in: table) }
        guard found >= 0 else { throw unknownTag(token, in: table, tagKey: tagKey) }
        if let content = table.contentKeyBytes {
            try beginContent(content, of: table)
        } else {
            continuing = tagKey
        }
        return found
    }

    /// Reads an adjacently tagged union's content key (after its tag) and opens the union's own
    /// object as the object being read, its content the field being read.
    private mutating func beginContent(_ content: [UInt8], of table: _VettedUnionTable) throws(_VettedDirectMiss) {
        passBoundary(complete: 1)
        // A closed object lacks its content (the tape path's error); anything else is the parser's.
        let byte = peek()
        guard byte == UInt8(ascii: ",") else { throw byte == UInt8(ascii: "}") ? _VettedDirectMiss() : syntaxDoubt() }
        advance()
        _ = peek()
        let keyQuote = reader.scannerState.offset
        appendKey(try key(content))
        let info = try info(for: ObjectIdentifier(table))
        outer.append(object)
        object = DirectObject(info: info)
        object.members = 2
        object.seen = 0b11
        object.field = 1
        object.spelling = 1
        object.keyStart = keyQuote
        object.valueStart = reader.scannerState.offset
        object.openOffset = containers.last?.start ?? 0
        object.regionStart = violations.count
        object.fieldStart = violations.count
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

    /// Closes the adjacently tagged union's object being read (its payload read or skipped) and
    /// goes back to the object it is in.
    mutating func closeAdjacentUnion() throws(_VettedDirectMiss) {
        passBoundary(complete: 2)
        // More members are the tape path's to read; anything else is the parser's error.
        let byte = peek()
        guard byte == UInt8(ascii: "}") else { throw byte == UInt8(ascii: ",") ? _VettedDirectMiss() : syntaxDoubt() }
        close()
        unionDepth -= 1
        endRun()
        object = outer.popLast() ?? DirectObject(info: .none)
        settleClosedObject()
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
