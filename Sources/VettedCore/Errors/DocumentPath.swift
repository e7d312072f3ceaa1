/// Where a value sits inside a document, printed as `$`, `$.tags[1]`, `$["odd key"]`.
///
/// Paths are built only when an error is reported, never on the fast path.
public struct DocumentPath: Sendable, Hashable, CustomStringConvertible, ExpressibleByArrayLiteral {
    /// One step down into a container.
    public enum Component: Sendable, Hashable, CustomStringConvertible {
        /// A member of an object (or dictionary), by key.
        case key(String)
        /// An element of an array, by zero-based index.
        case index(Int)

        public var description: String {
            switch self {
            case .index(let index):
                return "[\(index)]"
            case .key(let key):
                if Self.isPlainIdentifier(key) { return "." + key }
                return "[\"" + Excerpt.escape(key, maximumBytes: Excerpt.maximumBytes) + "\"]"
            }
        }

        fileprivate static func isPlainIdentifier(_ key: String) -> Bool {
            guard let first = key.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first),
                key.utf8.count <= Excerpt.maximumBytes
            else { return false }
            return key.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"):
                    true
                default:
                    false
                }
            }
        }
    }

    public var components: [Component]

    public init(_ components: [Component] = []) { self.components = components }
    public init(arrayLiteral elements: Component...) { self.components = elements }

    public var isEmpty: Bool { components.isEmpty }

    /// This path with one more step.
    public func appending(_ component: Component) -> DocumentPath {
        DocumentPath(components + [component])
    }

    /// Longest printed path, in UTF-8 bytes: a longer one (a deep document, many long keys)
    /// keeps its first and last steps around `…`. Each key is also escaped and capped.
    public static let maximumBytes = 200

    /// `$` and each step, at most ``maximumBytes`` bytes.
    public var description: String {
        // The common path (indices and plain keys, short): written into one string.
        guard let length = plainLength(start: 1, indexPunctuation: 2, isPlainKey: Component.isPlainIdentifier) else {
            return generalDescription
        }
        var text = "$"
        text.reserveCapacity(length)
        for component in components {
            switch component {
            case .index(let index):
                text += "["
                text += String(index)
                text += "]"
            case .key(let key):
                text += "."
                text += key
            }
        }
        return text
    }

    /// The path step by step, each step printed and the whole capped (the reference for the common path).
    package var generalDescription: String {
        Self.joined(components.map(\.description), start: "$", maximumBytes: Self.maximumBytes)
    }

    /// The printed length of a path whose keys are all plain by `isPlainKey` (each printed
    /// as one byte and the key) and whose indices take `indexPunctuation` bytes besides their
    /// digits, after `start` bytes; `nil` when a key is not plain or the path is longer than
    /// ``maximumBytes`` (then it is printed step by step, and capped).
    private func plainLength(start: Int, indexPunctuation: Int, isPlainKey: (String) -> Bool) -> Int? {
        var length = start
        for component in components {
            switch component {
            case .index(let index): length += indexPunctuation + Self.decimalLength(index)
            case .key(let key):
                guard isPlainKey(key) else { return nil }
                length += 1 + key.utf8.count
            }
            guard length <= Self.maximumBytes else { return nil }
        }
        return length
    }

    /// How many bytes `String(value)` has.
    private static func decimalLength(_ value: Int) -> Int {
        var length = value < 0 ? 2 : 1
        var rest = value.magnitude
        while rest >= 10 {
            rest /= 10
            length += 1
        }
        return length
    }

    /// The path as an RFC 6901 JSON Pointer (`/tags/1`): each key escaped and capped as an
    /// excerpt is (`\u{1B}`, at most ``Excerpt/maximumBytes``), then `~` written `~0` and `/`
    /// written `~1`; the whole pointer capped at ``maximumBytes`` (its first and last steps
    /// around `…`), since keys come from the input.
    public var jsonPointer: String {
        // The common pointer (indices and short keys of printable ASCII with no `\`, `~` or
        // `/`), written into one string.
        guard let length = plainLength(start: 0, indexPunctuation: 1, isPlainKey: Self.isPlainPointerStep) else { return generalPointer }
        var pointer = ""
        pointer.reserveCapacity(length)
        for component in components {
            pointer += "/"
            switch component {
            case .index(let index): pointer += String(index)
            case .key(let key): pointer += key
            }
        }
        return pointer
    }

    /// A key that is its own pointer step: short, printable ASCII, no `\`, `~` or `/`.
    private static func isPlainPointerStep(_ key: String) -> Bool {
        key.utf8.count <= Excerpt.maximumBytes && Excerpt.isPlain(key, quotes: false)
            && !key.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") })
    }

    /// The pointer step by step, each step escaped and the whole capped (the reference for the common path).
    package var generalPointer: String {
        let steps = components.map { component -> String in
            switch component {
            case .index(let index):
                return "/" + String(index)
            case .key(let key):
                if Self.isPlainPointerStep(key) { return "/" + key }
                var step = "/"
                for character in Excerpt.escape(key, quotes: false) {
                    switch character {
                    case "~": step += "~0"
                    case "/": step += "~1"
                    default: step.append(character)
                    }
                }
                return step
            }
        }
        return Self.joined(steps, start: "", maximumBytes: Self.maximumBytes)
    }

    /// `start` and `pieces` joined; past `maximumBytes` UTF-8 bytes, the first and last pieces
    /// that fit in half the rest each, around `…`. Linear in the number of pieces.
    package static func joined(_ pieces: [String], start: String, maximumBytes: Int) -> String {
        var total = start.utf8.count
        for piece in pieces { total += piece.utf8.count }
        guard total > maximumBytes else { return pieces.reduce(into: start) { $0 += $1 } }
        let ellipsis = "…"
        let budget = Swift.max(0, (maximumBytes - start.utf8.count - ellipsis.utf8.count) / 2)
        var head = start
        var used = 0
        var first = 0
        while first < pieces.count, used + pieces[first].utf8.count <= budget {
            used += pieces[first].utf8.count
            head += pieces[first]
            first += 1
        }
        var tail: [String] = []
        used = 0
        var last = pieces.count - 1
        while last >= first, used + pieces[last].utf8.count <= budget {
            used += pieces[last].utf8.count
            tail.append(pieces[last])
            last -= 1
        }
        return head + ellipsis + tail.reversed().joined()
    }
}
