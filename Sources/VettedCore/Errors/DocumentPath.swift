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

        private static func isPlainIdentifier(_ key: String) -> Bool {
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
        Self.joined(components.map(\.description), start: "$", maximumBytes: Self.maximumBytes)
    }

    /// The path as an RFC 6901 JSON Pointer (`/tags/1`): each key escaped and capped as an
    /// excerpt is (`\u{1B}`, at most ``Excerpt/maximumBytes``), then `~` written `~0` and `/`
    /// written `~1`; the whole pointer capped at ``maximumBytes`` (its first and last steps
    /// around `…`), since keys come from the input.
    public var jsonPointer: String {
        let steps = components.map { component -> String in
            switch component {
            case .index(let index):
                return "/" + String(index)
            case .key(let key):
                // A short key of printable ASCII with no `\`, `~` or `/` is its own step.
                if key.utf8.count <= Excerpt.maximumBytes, Excerpt.isPlain(key, quotes: false),
                    !key.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") })
                {
                    return "/" + key
                }
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
