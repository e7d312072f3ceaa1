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

    public var description: String {
        components.reduce(into: "$") { $0 += $1.description }
    }
}
