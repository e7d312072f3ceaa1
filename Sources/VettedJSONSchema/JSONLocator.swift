@_spi(Scanning) import VettedCore

/// Finds where values sit in a JSON text that has already parsed: one pass over
/// the bytes for any number of paths (a trie of the paths is walked beside the
/// text), so locating a report's errors is linear in the document, never one scan
/// per error. No recursion: containers are a stack.
enum JSONLocator {
    private struct TrieNode {
        var keys: [String: Int] = [:]
        var indexes: [Int: Int] = [:]
        var targets: [Int] = []
    }

    private struct Frame {
        var isObject: Bool
        var trie: Int?
        var index: Int
    }

    /// The byte offset of the first byte of the value at each path; a path that names no value is left out.
    static func offsets(of paths: [DocumentPath], in source: SourceText) -> [Int: Int] {
        var trie = [TrieNode()]
        for (number, path) in paths.enumerated() {
            var node = 0
            for component in path.components {
                switch component {
                case .key(let key):
                    if let next = trie[node].keys[key] {
                        node = next
                    } else {
                        trie.append(TrieNode())
                        trie[node].keys[key] = trie.count - 1
                        node = trie.count - 1
                    }
                case .index(let index):
                    if let next = trie[node].indexes[index] {
                        node = next
                    } else {
                        trie.append(TrieNode())
                        trie[node].indexes[index] = trie.count - 1
                        node = trie.count - 1
                    }
                }
            }
            trie[node].targets.append(number)
        }
        guard !paths.isEmpty else { return [:] }
        return source.withScanner { scanner in walk(&scanner, trie, targets: paths.count) }
    }

    /// One pass over the text beside the trie; stops once every target is found.
    private static func walk(_ scanner: inout ByteScanner, _ trie: [TrieNode], targets: Int) -> [Int: Int] {
        var found: [Int: Int] = [:]
        var stack: [Frame] = []
        var position = 0
        var current: Int? = 0

        func skipSpace() {
            while position < scanner.count, scanner.byte(at: position) == 0x20 || scanner.byte(at: position) == 0x0A || scanner.byte(at: position) == 0x0D || scanner.byte(at: position) == 0x09 {
                position += 1
            }
        }

        /// The string starting at `position` (a quote), decoded when `decode`; `position` ends past it.
        func string(decode: Bool) -> String? {
            position += 1
            var run = position
            var pendingHigh: UInt32?
            var plain: [UInt8] = []
            while position < scanner.count {
                if !decode {
                    // Plain bytes eight at a time.
                    scanner.offset = position
                    scanner.skipPlainStringBytes()
                    position = Swift.max(position, scanner.offset)
                    guard position < scanner.count else { break }
                }
                let byte = scanner.byte(at: position)
                if byte == UInt8(ascii: "\"") {
                    if decode { scanner.appendBytes(run..<position, to: &plain) }
                    position += 1
                    guard decode else { return nil }
                    return String(decoding: plain, as: UTF8.self)
                }
                if byte == UInt8(ascii: "\\") {
                    if decode { scanner.appendBytes(run..<position, to: &plain) }
                    let escape = position + 1 < scanner.count ? scanner.byte(at: position + 1) : 0
                    position += 2
                    guard decode else {
                        if escape == UInt8(ascii: "u") { position += 4 }
                        run = position
                        continue
                    }
                    var value: UInt32
                    switch escape {
                    case UInt8(ascii: "b"): value = 8
                    case UInt8(ascii: "f"): value = 12
                    case UInt8(ascii: "n"): value = 10
                    case UInt8(ascii: "r"): value = 13
                    case UInt8(ascii: "t"): value = 9
                    case UInt8(ascii: "u"):
                        guard position + 4 <= scanner.count,
                            let hex = UInt32(scanner.string(position..<(position + 4)), radix: 16)
                        else { return nil }
                        position += 4
                        value = hex
                    default: value = UInt32(escape)
                    }
                    if (0xD800...0xDBFF).contains(value) {
                        pendingHigh = value
                    } else {
                        if let high = pendingHigh, (0xDC00...0xDFFF).contains(value) {
                            value = 0x10000 + ((high - 0xD800) << 10) + (value - 0xDC00)
                        }
                        pendingHigh = nil
                        if let scalar = Unicode.Scalar(value) { plain.append(contentsOf: String(scalar).utf8) }
                    }
                    run = position
                    continue
                }
                position += 1
            }
            return nil
        }

        func child(_ trieNode: Int?, key: String?) -> Int? {
            guard let trieNode, let key else { return nil }
            return trie[trieNode].keys[key]
        }

        /// Reads an object's key and colon; returns the trie node of the member's value.
        func member(_ frame: Frame) -> Int? {
            skipSpace()
            let wanted = frame.trie.map { !trie[$0].keys.isEmpty } ?? false
            let key = string(decode: wanted)
            skipSpace()
            position += 1  // the colon
            return child(frame.trie, key: key)
        }

        scanning: while position < scanner.count {
            skipSpace()
            if let node = current {
                for target in trie[node].targets { found[target] = position }
                if found.count == targets { break }
            }
            guard position < scanner.count else { break }
            var ended = false
            switch scanner.byte(at: position) {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let isObject = scanner.byte(at: position) == UInt8(ascii: "{")
                position += 1
                stack.append(Frame(isObject: isObject, trie: current, index: 0))
                skipSpace()
                if position < scanner.count, scanner.byte(at: position) == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    position += 1
                    stack.removeLast()
                    ended = true
                } else if isObject {
                    current = member(stack[stack.count - 1])
                } else {
                    current = current.flatMap { trie[$0].indexes[0] }
                }
            case UInt8(ascii: "\""):
                _ = string(decode: false)
                ended = true
            default:
                while position < scanner.count {
                    let byte = scanner.byte(at: position)
                    if byte == UInt8(ascii: ",") || byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}") || byte == 0x20 || byte == 0x0A
                        || byte == 0x0D || byte == 0x09
                    {
                        break
                    }
                    position += 1
                }
                ended = true
            }
            // After a complete value: commas and closing brackets until the next value starts.
            while ended {
                skipSpace()
                guard position < scanner.count, !stack.isEmpty else { break scanning }
                switch scanner.byte(at: position) {
                case UInt8(ascii: ","):
                    position += 1
                    stack[stack.count - 1].index += 1
                    let frame = stack[stack.count - 1]
                    if frame.isObject {
                        current = member(frame)
                    } else {
                        current = frame.trie.flatMap { trie[$0].indexes[frame.index] }
                    }
                    ended = false
                default:
                    position += 1
                    stack.removeLast()
                }
            }
        }
        return found
    }
}
