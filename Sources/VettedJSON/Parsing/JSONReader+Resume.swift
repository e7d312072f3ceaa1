@_spi(Scanning) import VettedCore

// Resuming the parser where another reader of the same bytes stopped. The byte
// reader of generated decoding (`JSONDirectReader`) checks every token with this
// reader's scanners but keeps its own container stack; when it meets bytes it
// cannot read, it hands over its stack here, and the parser goes on from the last
// boundary it passed (an opener, or the end of a member or element). Everything
// before that boundary has been checked as the parser checks it, so the first error
// from there on is the error a parse from the start gives: the same code, offset,
// path and message, with no second pass over what came before.

extension JSONReader {
    /// An open container as another reader left it.
    struct OpenContainer {
        let isObject: Bool
        /// Offset of its opening bracket or brace.
        let start: Int
        /// Members or elements begun (the parser's count).
        let members: Int
        /// An object's keys, one per member begun, as ranges of key content (between the
        /// quotes): what the duplicate check compares later keys with.
        let keys: ArraySlice<Range<Int>>
    }

    /// Where in the innermost container the parser resumes.
    enum ResumePoint {
        /// Just past its opener: no member or element begun.
        case afterOpener
        /// Just past a complete value: a member's or element's, or the document's when no
        /// container is open.
        case afterValue
        /// At the value of its last member or element begun (an object's key read).
        case atValue
    }

    /// Goes on from `offset`, inside `containers` (outermost first), with `valueCount` values
    /// counted before it. Returns once the document is read; throws its first error.
    mutating func resume(containers: [OpenContainer], at offset: Int, valueCount counted: Int, point: ResumePoint) throws(VettedError) {
        for container in containers {
            if depth > 0 { frames.append(top) }
            depth += 1
            top = Frame(
                isObject: container.isObject, start: container.start, valueBase: 0, keyBase: 0, keyRefBase: keyRefs.count, tapeIndex: 0)
            if container.isObject {
                for key in container.keys {
                    top.count += 1
                    top.hasKey = true
                    // Scanned again for its escapes (a key the other reader took, so it scans).
                    scanner.offset = key.lowerBound - 1
                    let token = try scanString()
                    try register(Self.keyRef(scanner, for: token), quote: token.quote)
                }
            } else {
                top.count = container.members
            }
        }
        valueCount = counted
        scanner.offset = offset
        if case .atValue = point {
            try readValues()
            return
        }
        if case .afterOpener = point, depth > 0 {
            scanner.skipWhitespace()
            if scanner.isAtEnd || scanner.current != (top.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                if top.isObject { try beginMember() } else { try beginElement() }
                try readValues()
                return
            }
            scanner.offset += 1
            if top.isObject { closeObject() } else { closeArray() }
        }
        if try valueFollows() { try readValues() }
    }
}
