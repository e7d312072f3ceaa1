#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
@_spi(Scanning) import VettedCore

/// Reads XML property lists: the plist DTD's elements and nothing more.
///
/// - No DTD processing: a `<!DOCTYPE plist …>` line is skipped, and any
///   internal subset (`[ … ]`, where entities would be declared) is refused, so
///   external entities (XXE) and entity expansion ("billion laughs") cannot happen.
/// - Entities: only `&lt; &gt; &amp; &quot; &apos;` and character references.
/// - Iterative, with the same ``Limits`` as JSON: depth, members, values,
///   string bytes (after decoding), number length.
struct XMLPlistReader {
    var scanner: ByteScanner
    let source: SourceText
    let limits: Limits

    enum Container {
        case array(valueBase: Int)
        /// `pendingKey`: a key was read and its value is expected next.
        case dictionary(valueBase: Int, keyBase: Int, pendingKey: Bool)
    }

    var containers: [(container: Container, start: Int, count: Int)] = []
    var values: [PlistValue] = []
    var keys: [String] = []
    var valueCount = 0

    let duplicateKeys: DuplicateKeyPolicy

    /// A coding path to locate while reading (a structural error's place): the
    /// offset of the element at the deepest of its prefixes that the document
    /// holds lands in ``soughtOffset``. Matched as the reader goes, one
    /// comparison per value of the containers on the path.
    var sought: [(key: String, index: Int?)]?
    private(set) var soughtOffset: Int?
    /// How many of ``sought``'s components the open containers match.
    var soughtDepth = 0
    /// Set once the deepest match is closed (or is not a container): nothing after it is on the path.
    var soughtDone = false

    init(scanner: ByteScanner, source: SourceText, limits: Limits, duplicateKeys: DuplicateKeyPolicy = .reject) {
        self.scanner = scanner
        self.source = source
        self.limits = limits
        self.duplicateKeys = duplicateKeys
    }

    mutating func read() throws(VettedError) -> PlistValue {
        guard scanner.count <= limits.maxInputBytes else {
            throw error(.inputSizeLimitExceeded, at: limits.maxInputBytes, "input is \(scanner.count) bytes; the limit is \(limits.maxInputBytes)")
        }
        if scanner.byte(at: 0) == 0xEF, scanner.byte(at: 1) == 0xBB, scanner.byte(at: 2) == 0xBF { scanner.offset = 3 }
        try skipProlog()
        // The root: <plist …> value </plist>, or a bare value.
        var wrapped = false
        let rootStart = scanner.offset
        if let tag = try peekTag(), tag.name == "plist", !tag.isClosing {
            guard !tag.isEmpty else { throw error(.unexpectedElement, at: rootStart, "<plist/> holds no value") }
            scanner.offset = tag.end
            wrapped = true
        }
        try readValue()
        if wrapped {
            try skipMisc()
            guard let tag = try peekTag(), tag.isClosing, tag.name == "plist" else {
                throw error(.unexpectedElement, at: scanner.offset, "expected </plist> after the value")
            }
            scanner.offset = tag.end
        }
        try skipMisc()
        guard scanner.isAtEnd else { throw error(.trailingData, at: scanner.offset, "unexpected data after the property list") }
        guard let root = values.last else { throw error(.unexpectedEndOfInput, at: scanner.count, "no value") }
        return root
    }

    // MARK: Prolog

    mutating func skipProlog() throws(VettedError) {
        while true {
            skipWhitespace()
            if starts(with: "<?") {
                let start = scanner.offset
                guard let end = find("?>", from: start + 2) else { throw error(.malformedXML, at: start, "unterminated processing instruction") }
                let text = scanner.string(start..<end).lowercased()
                if text.hasPrefix("<?xml"), let range = text.firstRange(of: "encoding") {
                    let rest = text[range.upperBound...]
                    guard rest.contains("utf-8") || rest.contains("utf8") else {
                        throw error(.unsupportedEncoding, at: start, "only UTF-8 XML property lists are read")
                    }
                }
                scanner.offset = end + 2
            } else if starts(with: "<!--") {
                try skipComment()
            } else if starts(with: "<!DOCTYPE") {
                let start = scanner.offset
                // Skip to the closing '>', refusing an internal subset.
                var index = start + 9
                var quote: UInt8 = 0
                while index < scanner.count {
                    let byte = scanner.byte(at: index)
                    if quote != 0 {
                        if byte == quote { quote = 0 }
                    } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                        quote = byte
                    } else if byte == UInt8(ascii: "[") {
                        throw error(
                            .unsupportedXMLFeature, at: index,
                            "DTD internal subsets are not processed (no entity declarations, no external entities)")
                    } else if byte == UInt8(ascii: ">") {
                        break
                    }
                    index += 1
                }
                guard index < scanner.count else { throw error(.malformedXML, at: start, "unterminated <!DOCTYPE") }
                scanner.offset = index + 1
            } else if starts(with: "<!") {
                throw error(.unsupportedXMLFeature, at: scanner.offset, "markup declarations are not processed")
            } else {
                return
            }
        }
    }

    mutating func skipComment() throws(VettedError) {
        let start = scanner.offset
        guard let end = find("-->", from: start + 4) else { throw error(.malformedXML, at: start, "unterminated comment") }
        scanner.offset = end + 3
    }

    /// Whitespace and comments.
    mutating func skipMisc() throws(VettedError) {
        while true {
            skipWhitespace()
            if starts(with: "<!--") { try skipComment() } else { return }
        }
    }

    // MARK: Values

    struct Tag {
        let name: String
        let isClosing: Bool
        let isEmpty: Bool
        let start: Int
        let end: Int
    }

    /// The tag at the scanner (after whitespace and comments), without consuming it.
    mutating func peekTag() throws(VettedError) -> Tag? {
        try skipMisc()
        let start = scanner.offset
        guard scanner.current == UInt8(ascii: "<"), !scanner.isAtEnd else { return nil }
        var index = start + 1
        let isClosing = scanner.byte(at: index) == UInt8(ascii: "/")
        if isClosing { index += 1 }
        let nameStart = index
        while index < scanner.count, Self.isNameByte(scanner.byte(at: index)) { index += 1 }
        guard index > nameStart, index - nameStart <= 32 else {
            if starts(with: "<!") { throw error(.unsupportedXMLFeature, at: start, "markup declarations are not processed") }
            throw error(.malformedXML, at: start, "expected an element name")
        }
        let name = scanner.string(nameStart..<index)
        // Attributes: name="value" or name='value'; ignored.
        var quote: UInt8 = 0
        while index < scanner.count {
            let byte = scanner.byte(at: index)
            if quote != 0 {
                if byte == quote { quote = 0 } else if byte == UInt8(ascii: "<") || byte == UInt8(ascii: "&") {
                    throw error(.unsupportedXMLFeature, at: index, "markup or entities inside attribute values are not processed")
                }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: ">") {
                break
            } else if byte == UInt8(ascii: "<") {
                throw error(.malformedXML, at: index, "'<' inside a tag")
            }
            index += 1
        }
        guard index < scanner.count else { throw error(.malformedXML, at: start, "unterminated tag <\(Excerpt.escape(name))") }
        let isEmpty = scanner.byte(at: index - 1) == UInt8(ascii: "/") && !isClosing
        return Tag(name: name, isClosing: isClosing, isEmpty: isEmpty, start: start, end: index + 1)
    }

    static func isNameByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ":") || byte == UInt8(ascii: ".")
    }

    /// Reads one complete value (iteratively, however deeply it nests).
    mutating func readValue() throws(VettedError) {
        let maxDepth = limits.effectiveMaxDepth
        repeat {
            guard let tag = try peekTag() else {
                if scanner.isAtEnd { throw error(.unexpectedEndOfInput, at: scanner.count, "input ends inside the property list") }
                throw error(.malformedXML, at: scanner.offset, "text outside an element")
            }
            scanner.offset = tag.end
            if tag.isClosing {
                try close(tag)
                continue
            }
            // Inside a dictionary, a <key> must come before every value.
            if case .dictionary(let valueBase, let keyBase, let pendingKey)? = containers.last?.container {
                if tag.name == "key" {
                    guard !pendingKey else { throw error(.unexpectedElement, at: tag.start, "two keys in a row", path: path()) }
                    let key = tag.isEmpty ? "" : try text(closing: "key", from: tag)
                    keys.append(key)
                    containers[containers.count - 1].container = .dictionary(valueBase: valueBase, keyBase: keyBase, pendingKey: true)
                    containers[containers.count - 1].count += 1
                    guard containers[containers.count - 1].count <= limits.maxMembers else {
                        throw error(.memberLimitExceeded, at: tag.start, "dictionary has more than \(limits.maxMembers) entries", path: path())
                    }
                    continue
                }
                guard pendingKey else {
                    throw error(.unexpectedElement, at: tag.start, "<\(Excerpt.escape(tag.name))> where a <key> is expected", path: path())
                }
                containers[containers.count - 1].container = .dictionary(valueBase: valueBase, keyBase: keyBase, pendingKey: false)
                if sought != nil, keys.indices.contains(keyBase + containers[containers.count - 1].count - 1) {
                    seek(tag, key: keys[keyBase + containers[containers.count - 1].count - 1])
                }
            } else if case .array? = containers.last?.container {
                containers[containers.count - 1].count += 1
                guard containers[containers.count - 1].count <= limits.maxMembers else {
                    throw error(.memberLimitExceeded, at: tag.start, "array has more than \(limits.maxMembers) elements", path: path())
                }
                if sought != nil { seek(tag, index: containers[containers.count - 1].count - 1) }
            } else if sought != nil, soughtOffset == nil {
                soughtOffset = tag.start  // the root
            }
            valueCount += 1
            guard valueCount <= limits.maxValues else {
                throw error(.valueLimitExceeded, at: tag.start, "more than \(limits.maxValues) values", path: path())
            }
            switch tag.name {
            case "dict", "array":
                guard containers.count < maxDepth else {
                    throw error(.depthLimitExceeded, at: tag.start, "nesting is deeper than the limit of \(maxDepth)", path: path())
                }
                let container: Container =
                    tag.name == "dict"
                    ? .dictionary(valueBase: values.count, keyBase: keys.count, pendingKey: false)
                    : .array(valueBase: values.count)
                containers.append((container, tag.start, 0))
                if tag.isEmpty { try finishContainer(at: tag.start) }
            case "true", "false":
                if !tag.isEmpty { try expectClosing(tag.name) }
                values.append(.bool(tag.name == "true"))
            case "string":
                values.append(.string(tag.isEmpty ? "" : try text(closing: "string", from: tag)))
            case "data":
                let content = tag.isEmpty ? "" : try text(closing: "data", from: tag)
                values.append(.data(try base64(content, at: tag.start)))
            case "date":
                values.append(.date(try date(tag.isEmpty ? "" : try text(closing: "date", from: tag), at: tag.start)))
            case "integer":
                values.append(.integer(try integer(tag.isEmpty ? "" : try text(closing: "integer", from: tag), at: tag.start)))
            case "real":
                values.append(.real(try real(tag.isEmpty ? "" : try text(closing: "real", from: tag), at: tag.start)))
            default:
                throw error(.unexpectedElement, at: tag.start, "<\(Excerpt.escape(tag.name))> is not a property-list element", path: path())
            }
        } while !containers.isEmpty
    }

    /// The value of `tag` is the next component of ``sought`` when its container
    /// is matched so far and its key (in a dictionary) or index (in an array) is that component's.
    mutating func seek(_ tag: Tag, key: String? = nil, index: Int? = nil) {
        guard let sought, !soughtDone, soughtDepth == containers.count - 1, soughtDepth < sought.count else { return }
        let wanted = sought[soughtDepth]
        let matches = key.map { $0 == wanted.key } ?? (index != nil && index == wanted.index)
        guard matches else { return }
        soughtOffset = tag.start
        soughtDepth += 1
        if tag.isEmpty || (tag.name != "dict" && tag.name != "array") { soughtDone = true }
    }

    mutating func expectClosing(_ name: String) throws(VettedError) {
        guard let tag = try peekTag(), tag.isClosing, tag.name == name else {
            throw error(.malformedXML, at: scanner.offset, "expected </\(name)>", path: path())
        }
        scanner.offset = tag.end
    }

    mutating func close(_ tag: Tag) throws(VettedError) {
        guard let top = containers.last else { throw error(.malformedXML, at: tag.start, "unexpected </\(Excerpt.escape(tag.name))>") }
        let expected: String
        switch top.container {
        case .array: expected = "array"
        case .dictionary(_, _, let pendingKey):
            guard !pendingKey else { throw error(.unexpectedElement, at: tag.start, "key without a value", path: path()) }
            expected = "dict"
        }
        guard tag.name == expected else {
            throw error(.malformedXML, at: tag.start, "</\(Excerpt.escape(tag.name))> closes <\(expected)>", path: path(), related: top.start)
        }
        try finishContainer(at: tag.start)
    }

    mutating func finishContainer(at offset: Int) throws(VettedError) {
        guard let top = containers.popLast() else { return }
        if sought != nil, containers.count <= soughtDepth { soughtDone = true }
        switch top.container {
        case .array(let valueBase):
            let elements = values.takeSuffix(from: valueBase)
            values.append(.array(elements))
        case .dictionary(let valueBase, let keyBase, _):
            var members = OrderedMembers(keys: Array(keys[keyBase...]), values: values.takeSuffix(from: valueBase))
            keys.removeSubrange(keyBase...)
            do throws(RepeatedKey) {
                members = try members.applying(duplicateKeys)
            } catch {
                // Keys' offsets are not kept: reported at the dictionary's <dict>, with the key's path.
                throw self.error(
                    .duplicateKey, at: top.start, "key \"\(Excerpt.escape(error.key))\" appears twice in this dictionary",
                    path: DocumentPath(path().components + [.key(error.key)]))
            }
            // {"CF$UID": n} is how XML writes a keyed archive's UID.
            if members.count == 1, members.keys[0] == "CF$UID", case .integer(let integer) = members.values[0],
                let value = integer.int64Value, value >= 0
            {
                values.append(.uid(UInt64(value)))
            } else {
                values.append(.dictionary(PlistDictionary(members)))
            }
        }
    }

    // MARK: Text

    /// The decoded character data up to `</name>`: entities, character
    /// references and CDATA resolved, line ends normalized to LF.
    mutating func text(closing name: String, from tag: Tag) throws(VettedError) -> String {
        var bytes: [UInt8] = []
        while true {
            guard !scanner.isAtEnd else { throw error(.malformedXML, at: tag.start, "<\(name)> is never closed", path: path()) }
            let byte = scanner.current
            switch byte {
            case UInt8(ascii: "<"):
                if starts(with: "<![CDATA[") {
                    let start = scanner.offset + 9
                    guard let end = find("]]>", from: start) else { throw error(.malformedXML, at: scanner.offset, "unterminated CDATA", path: path()) }
                    try appendCharacters(start..<end, to: &bytes)
                    scanner.offset = end + 3
                } else if starts(with: "<!--") {
                    try skipComment()
                } else {
                    guard let closing = try peekTag(), closing.isClosing, closing.name == name else {
                        throw error(.malformedXML, at: scanner.offset, "expected </\(name)>", path: path(), related: tag.start)
                    }
                    scanner.offset = closing.end
                    return String(decoding: bytes, as: UTF8.self)
                }
            case UInt8(ascii: "&"):
                try appendEntity(to: &bytes)
            default:
                var end = scanner.offset
                while end < scanner.count, scanner.byte(at: end) != UInt8(ascii: "<"), scanner.byte(at: end) != UInt8(ascii: "&") { end += 1 }
                try appendCharacters(scanner.offset..<end, to: &bytes)
                scanner.offset = end
            }
            guard bytes.count <= limits.maxStringBytes else {
                throw error(.stringLengthLimitExceeded, at: tag.start, "text is longer than \(limits.maxStringBytes) bytes", path: path())
            }
        }
    }

    /// Appends raw character data: valid UTF-8, XML characters only, CR and CRLF as LF.
    func appendCharacters(_ range: Range<Int>, to bytes: inout [UInt8]) throws(VettedError) {
        var index = range.lowerBound
        while index < range.upperBound {
            let byte = scanner.byte(at: index)
            if byte >= 0x80 {
                let length = scanner.utf8SequenceLength(at: index)
                guard length > 0, index + length <= range.upperBound else {
                    throw error(.invalidUTF8, at: index, "invalid UTF-8", path: path())
                }
                scanner.appendBytes(index..<(index + length), to: &bytes)
                index += length
                continue
            }
            if byte == 0x0D {
                bytes.append(0x0A)
                if scanner.byte(at: index + 1) == 0x0A, index + 1 < range.upperBound { index += 1 }
            } else if byte < 0x20, byte != 0x09, byte != 0x0A {
                throw error(.malformedXML, at: index, "control character U+00\(Excerpt.hex(UInt32(byte), digits: 2)) is not allowed in XML", path: path())
            } else {
                bytes.append(byte)
            }
            index += 1
        }
    }

    mutating func appendEntity(to bytes: inout [UInt8]) throws(VettedError) {
        let start = scanner.offset
        var end = start + 1
        while end < scanner.count, end - start <= 12, scanner.byte(at: end) != UInt8(ascii: ";") { end += 1 }
        guard scanner.byte(at: end) == UInt8(ascii: ";"), end < scanner.count else {
            throw error(.malformedXML, at: start, "'&' must start an entity or character reference", path: path())
        }
        let name = scanner.string((start + 1)..<end)
        scanner.offset = end + 1
        switch name {
        case "lt": bytes.append(UInt8(ascii: "<"))
        case "gt": bytes.append(UInt8(ascii: ">"))
        case "amp": bytes.append(UInt8(ascii: "&"))
        case "quot": bytes.append(UInt8(ascii: "\""))
        case "apos": bytes.append(UInt8(ascii: "'"))
        default:
            guard name.hasPrefix("#") else {
                throw error(.unknownEntity, at: start, "entity &\(Excerpt.escape(name, maximumBytes: 16)); is not defined (only the five predefined entities are)", path: path())
            }
            let digits = name.dropFirst()
            let value = digits.hasPrefix("x") ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
            guard let value, Unicode.Scalar(value) != nil,
                value == 0x9 || value == 0xA || value == 0xD || (0x20...0xD7FF).contains(value)
                    || (0xE000...0xFFFD).contains(value) || (0x10000...0x10FFFF).contains(value)
            else {
                throw error(.malformedXML, at: start, "character reference &\(Excerpt.escape(name, maximumBytes: 16)); is not an XML character", path: path())
            }
            UTF8Sequence.append(value, to: &bytes)
        }
    }

    // MARK: Helpers

    mutating func skipWhitespace() {
        while !scanner.isAtEnd {
            switch scanner.current {
            case 0x20, 0x09, 0x0A, 0x0D: scanner.offset += 1
            default: return
            }
        }
    }

    func starts(with literal: StaticString) -> Bool {
        let bytes = MarkupLiteral.bytes(literal)
        for (index, byte) in bytes.enumerated() where scanner.byte(at: scanner.offset + index) != byte { return false }
        return true
    }

    func find(_ literal: StaticString, from start: Int) -> Int? {
        let bytes = MarkupLiteral.bytes(literal)
        guard let first = bytes.first else { return nil }
        var index = start
        while index + bytes.count <= scanner.count {
            if scanner.byte(at: index) == first,
                bytes.indices.allSatisfy({ scanner.byte(at: index + $0) == bytes[$0] })
            {
                return index
            }
            index += 1
        }
        return nil
    }

    func path() -> DocumentPath {
        var components: [DocumentPath.Component] = []
        for (container, _, count) in containers where count > 0 {
            switch container {
            case .array: components.append(.index(count - 1))
            case .dictionary(_, let keyBase, _):
                let index = keyBase + count - 1
                if keys.indices.contains(index) { components.append(.key(keys[index])) }
            }
        }
        return DocumentPath(components)
    }

    func error(
        _ code: VettedError.Code, at offset: Int, _ message: String, path: DocumentPath = DocumentPath(), related: Int? = nil
    ) -> VettedError {
        VettedError(code, at: offset, in: source, path: path, message: message, relatedOffset: related)
    }
}

/// Literal markup (`<!--`, `?>`, …) as bytes.
enum MarkupLiteral {
    static func bytes(_ literal: StaticString) -> [UInt8] {
        Array(literal.description.utf8)
    }
}

extension String {
    func trimmingXMLWhitespace() -> String {
        let utf8 = Array(self.utf8)
        var start = 0
        var end = utf8.count
        let space: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D]
        while start < end, space.contains(utf8[start]) { start += 1 }
        while end > start, space.contains(utf8[end - 1]) { end -= 1 }
        return String(decoding: utf8[start..<end], as: UTF8.self)
    }
}
