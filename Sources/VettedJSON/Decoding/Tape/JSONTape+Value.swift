/// A tape of a ``JSONValue`` already in memory: what
/// `VettedJSONDecoder.decode(_:from: JSONValue)` reads.
///
/// The entries point into `bytes`, which hold each string's and key's UTF-8 and
/// each number's literal back to back: no JSON text is written and nothing is
/// parsed or checked again. Those bytes have no quotes, escapes or separators, so
/// their offsets are no place a reader could look up: a document over them
/// reports paths only (``DecodingDocument/locatesInSource``).
struct IndexedValue {
    var tape: JSONTape
    var bytes: [UInt8]

    /// Iterative, with its own stack of open containers: a value of any depth never
    /// deepens the thread's stack here (decoding it is bounded by the stack guard).
    init(_ value: JSONValue) {
        /// A container whose members are being written: its entry, its members, the next one.
        struct Open {
            enum Members {
                case elements([JSONValue])
                case object(JSONObject)
            }
            var index: Int
            var members: Members
            var next = 0
            var hasDuplicateKeys = false
        }
        tape = JSONTape(expectedBytes: 0)
        bytes = []
        var stack: [Open] = []
        var pending: JSONValue? = value
        while true {
            if let value = pending {
                pending = nil
                switch value {
                case .null: tape.append(.null)
                case .bool(let flag): tape.append(flag ? .true : .false)
                case .number(let number):
                    let start = bytes.count
                    bytes.append(contentsOf: number.literal.utf8)
                    tape.append(.number, first: start, payload: bytes.count)
                case .string(let text): appendText(text, as: .string)
                case .array(let elements):
                    stack.append(Open(index: tape.entries.count, members: .elements(elements)))
                    tape.append(.array)
                case .object(let object):
                    stack.append(Open(index: tape.entries.count, members: .object(object), hasDuplicateKeys: Self.repeatsAKey(object)))
                    tape.append(.object)
                }
            }
            guard var top = stack.popLast() else { return }
            switch top.members {
            case .elements(let elements):
                if top.next < elements.count {
                    pending = elements[top.next]
                    top.next += 1
                    stack.append(top)
                } else {
                    tape.close(top.index, kind: .array, count: elements.count, flags: 0)
                }
            case .object(let object):
                if top.next < object.count {
                    let member = object[top.next]
                    appendText(member.key, as: .key)
                    pending = member.value
                    top.next += 1
                    stack.append(top)
                } else {
                    tape.close(
                        top.index, kind: .object, count: object.count, flags: top.hasDuplicateKeys ? JSONTape.hasDuplicateKeys : 0)
                }
            }
        }
    }

    /// A string or key entry over `text`'s UTF-8 (never escaped: it is read as it is).
    private mutating func appendText(_ text: String, as kind: JSONTape.Kind) {
        let start = bytes.count
        var nonASCII = false
        for byte in text.utf8 {
            if byte >= 0x80 { nonASCII = true }
            bytes.append(byte)
        }
        tape.append(kind, first: start, flags: nonASCII ? JSONTape.nonASCII : 0, payload: bytes.count)
    }

    /// Whether two of the object's keys are the same String (as the parser compares them:
    /// canonical equivalence), so the reader keeps the first as a parsed document's would.
    private static func repeatsAKey(_ object: JSONObject) -> Bool {
        guard object.count > 1 else { return false }
        var seen = Set<String>(minimumCapacity: object.count)
        for key in object.keys where !seen.insert(key).inserted { return true }
        return false
    }
}
