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
            try beginContent(content)
        } else {
            continuing = tagKey
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

    /// The content key of an adjacently tagged union's `container` (its second key, spelled as
    /// the table spells it): its text, and where its quote is.
    func contentKey(of container: DirectContainer) throws(_VettedDirectMiss) -> (text: String, quote: Int) {
        let index = container.keyBase + 1
        guard index < keyCount, keyRanges.indices.contains(index) else { throw _VettedDirectMiss() }
        let range = keyRanges[index]
        let bytes = JSONReader.decodedKeyBytes(reader.scannerState, start: range.lowerBound, end: range.upperBound, needsDecoding: false)
        return (String(decoding: bytes, as: UTF8.self), range.lowerBound - 1)
    }

    /// Whether the value ahead is an adjacently tagged union's content.
    var inUnionContent: Bool { containers.last?.step == DirectContainer.unionStep }

    /// Where the key of the value ahead is: a field's, or an adjacently tagged union's content key.
    var valueKeyStart: Int {
        guard let container = containers.last, container.step == DirectContainer.unionStep else { return object.keyStart }
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

    /// Closes the adjacently tagged union's object being read (its payload read or skipped).
    mutating func closeAdjacentUnion() throws(_VettedDirectMiss) {
        passBoundary(complete: 2)
        // More members are the tape path's to read; anything else is the parser's error.
        let byte = peek()
        guard byte == UInt8(ascii: "}") else { throw byte == UInt8(ascii: ",") ? _VettedDirectMiss() : syntaxDoubt() }
        close()
        unionDepth -= 1
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
