@_spi(Scanning) import VettedCore
import VettedRules

/// Where a structural error's value sits: the tape walked along a coding path.
///
/// Asked once per failed call (a structural error is the call's answer), so
/// its cost is one walk down the path: each step reads the members of one
/// container, at most the document's size in all.
extension DecodingDocument {
    /// The place of the value at `codingPath`, or of the deepest container on
    /// the way that holds it (a missing key is reported at its object).
    func location(of codingPath: [any CodingKey]) -> ValueLocation {
        var index = 0
        var walked: [any CodingKey] = []
        for key in codingPath {
            guard let child = child(of: index, key, walked) else { break }
            index = child
            walked.append(key)
        }
        return ValueLocation(offset: offset(ofValueAt: index), source: source)
    }

    /// The tape index of the member `key` of the container at `index`.
    private func child(of index: Int, _ key: any CodingKey, _ walked: [any CodingKey]) -> Int? {
        let container = entry(index)
        switch container.kind {
        case .array:
            guard let wanted = key.intValue, wanted >= 0 else { return nil }
            var position = index + 1
            var count = 0
            while position < container.payload {
                if count == wanted { return position }
                count += 1
                position = next(after: position)
            }
            return nil
        case .object:
            // Keys as the decoder compared them: converted by the key strategy.
            return KeyedReader.members(of: index, in: self).first { member in
                KeyedReader.convert(member.key, strategy: keys, codingPath: walked) == key.stringValue
            }?.value
        default:
            return nil
        }
    }

    /// The first byte of the value at `index`: a scalar's own; a container's
    /// opening bracket, found back from its first member's first byte (the
    /// document's start for an empty one without a key before it).
    private func offset(ofValueAt index: Int) -> Int {
        var position = index
        var openings = 0
        while true {
            let value = entry(position)
            switch value.kind {
            case .array, .object:
                guard position + 1 < value.payload else {
                    // Empty: the key before it, if any.
                    return location(ofValueAt: position)?.offset ?? 0
                }
                openings += 1
                position += 1
            case .string, .key:
                return back(from: Swift.max(0, value.first - 1), over: openings)
            default:
                return back(from: value.first, over: openings)
            }
        }
    }

    /// `offset`, moved back over `openings` opening brackets and the whitespace around them.
    private func back(from offset: Int, over openings: Int) -> Int {
        guard openings > 0 else { return offset }
        return source.withScanner { scanner in
            var position = offset
            var left = openings
            while position > 0 && left > 0 {
                let byte = scanner.byte(at: position - 1)
                switch byte {
                case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"): position -= 1
                case UInt8(ascii: "["), UInt8(ascii: "{"):
                    position -= 1
                    left -= 1
                default: return position
                }
            }
            return position
        }
    }
}
