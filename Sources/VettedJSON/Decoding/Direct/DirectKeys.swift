@_spi(Scanning) import VettedCore
import VettedDecoding

// Keys that are escaped (`"na\u00efve"`) or not all ASCII. The parser and the tape path
// compare such keys as Strings — canonical equivalence, so `"e\u0301"` and `"é"` are
// one key — and so does the byte reader: it decodes the key and looks it up among the
// type's spellings, and compares it with the object's other unknown keys as Strings.
// Plain ASCII keys keep the byte comparison (`JSONDirectReader.nextField()`).

extension JSONDirectReader {
    /// The key of `token` as a String, decoded as the parser decodes keys.
    private func keyText(_ token: JSONReader.StringToken) -> (bytes: [UInt8], text: String) {
        let bytes = JSONReader.decodedKeyBytes(
            reader.scannerState, start: token.start, end: token.end, needsDecoding: token.hasEscapes || token.needsRepair)
        return (bytes, String(decoding: bytes, as: UTF8.self))
    }

    /// The spelling an escaped or non-ASCII key names, or `nil` (a key that is no field);
    /// under `convertFromSnakeCase` or `custom`, the key as the strategy converts it (the
    /// closure is given the object's path and the key, as the tape path gives them).
    /// A key equal to a spelling as a String but not in its decoded bytes (another
    /// normalization) is left to the tape path, whose paths name the document's spelling.
    @inline(never)
    mutating func spelling(ofSpecialKey token: JSONReader.StringToken) throws(_VettedDirectMiss) -> Int? {
        let table = object.info.table
        var key = keyText(token)
        if snakeCaseKeys {
            let converted = SnakeCase.toCamelCase(key.text)
            key = (Array(converted.utf8), converted)
        } else if customKeys, case .custom(let convert) = document.keys {
            let path = try codingPath(appending: nil, containers: containers.count - 1) + [PathKey(stringValue: key.text)]
            let converted = convert(path).stringValue
            key = (Array(converted.utf8), converted)
        }
        guard let spelling = table.spelling(of: key.text) else { return nil }
        guard table.bytes.indices.contains(spelling), table.bytes[spelling] == key.bytes else { throw _VettedDirectMiss() }
        return spelling
    }

    /// Records a key that is no field when it, or an earlier unknown key of the object, is
    /// escaped or not all ASCII: a repeat, compared as Strings, is the parser's duplicate.
    @inline(never)
    mutating func recordSpecialUnknown(_ token: JSONReader.StringToken) throws(_VettedDirectMiss) {
        let scanner = reader.scannerState
        let key = keyText(token).text
        for (index, other) in object.unknown.enumerated() {
            let escaped = index < 63 && object.unknownEscaped & (1 << UInt64(index)) != 0
            let text = String(
                decoding: JSONReader.decodedKeyBytes(scanner, start: other.lowerBound, end: other.upperBound, needsDecoding: escaped),
                as: UTF8.self)
            if text == key { throw duplicateDoubt() }
        }
        if repeatsPayloadTag(key) { throw _VettedDirectMiss() }
        let index = object.unknown.count
        if (token.hasEscapes || token.needsRepair) && index < 63 { object.unknownEscaped |= 1 << UInt64(index) }
        if token.hasEscapes || token.needsRepair || token.nonASCII { object.unknownEscaped |= DirectObject.needsStringBit }
        object.unknown.append(token.start..<token.end)
    }

    /// Records a key that is no field once the object has ``DirectObject/unknownKeyLimit`` of
    /// them: every unknown key, decoded, in a set of Strings (which compares as the parser does),
    /// so that a repeat is the parser's duplicate however many keys come.
    @inline(never)
    mutating func recordManyUnknown(_ token: JSONReader.StringToken) throws(_VettedDirectMiss) {
        let scanner = reader.scannerState
        if object.unknownSet == nil {
            var set = Set<String>(minimumCapacity: 2 * DirectObject.unknownKeyLimit)
            for (index, other) in object.unknown.enumerated() {
                let escaped = index < 63 && object.unknownEscaped & (1 << UInt64(index)) != 0
                set.insert(
                    String(
                        decoding: JSONReader.decodedKeyBytes(scanner, start: other.lowerBound, end: other.upperBound, needsDecoding: escaped),
                        as: UTF8.self))
            }
            object.unknownSet = set
        }
        let key = keyText(token).text
        guard object.unknownSet?.insert(key).inserted == true else { throw duplicateDoubt() }
        if repeatsPayloadTag(key) { throw _VettedDirectMiss() }
    }

    /// Whether `key`, a key of the object being read that is no field, is the tag key of the
    /// internally tagged union whose payload that object is (as the strategy converts it): a
    /// repeat the tape path reports.
    private func repeatsPayloadTag(_ key: String) -> Bool {
        guard let tag = payloadTagKey, tag.level == outer.count else { return false }
        let scanner = reader.scannerState
        let tagText = String(
            decoding: JSONReader.decodedKeyBytes(scanner, start: tag.key.lowerBound, end: tag.key.upperBound, needsDecoding: false),
            as: UTF8.self)
        return tagText == key || (snakeCaseKeys && SnakeCase.toCamelCase(key) == tagText)
    }

    /// A field met again. The same spelling is the parser's repeat (its error under `reject`).
    /// Another spelling of the field is no repeat to the parser, so it is not asked: the tape
    /// path reports both spellings (`duplicateKey`, naming them). Spellings not all ASCII
    /// may be equal as Strings, and the parser decides.
    @inline(never)
    mutating func repeatedField(_ spelling: Int) -> _VettedDirectMiss {
        let table = object.info.table
        guard table.hasAliases, !table.hasNonASCIIName, spelling < 64, object.spellingsSeen & (1 << UInt64(spelling)) == 0 else {
            return duplicateDoubt()
        }
        return _VettedDirectMiss()
    }
}
