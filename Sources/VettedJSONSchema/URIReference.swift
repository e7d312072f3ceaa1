/// A URI reference split as RFC 3986 appendix B splits it, and resolved
/// against a base as its section 5.2 says. Text only: nothing is fetched.
struct URIReference: Hashable, Sendable, CustomStringConvertible {
    var scheme: String?
    var authority: String?
    var path: String
    var query: String?
    var fragment: String?

    init(_ text: String) {
        var rest = Substring(text)
        if let hash = rest.firstIndex(of: "#") {
            fragment = String(rest[rest.index(after: hash)...])
            rest = rest[..<hash]
        }
        if let question = rest.firstIndex(of: "?") {
            query = String(rest[rest.index(after: question)...])
            rest = rest[..<question]
        }
        // A scheme is letters, digits, "+", "-", "." before the first ":", and nothing of "/?#" before it.
        if let colon = rest.firstIndex(of: ":"), colon != rest.startIndex,
            rest[..<colon].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }),
            rest.first?.isLetter == true
        {
            scheme = String(rest[..<colon]).lowercased()
            rest = rest[rest.index(after: colon)...]
        }
        if rest.hasPrefix("//") {
            let afterSlashes = rest.index(rest.startIndex, offsetBy: 2)
            let end = rest[afterSlashes...].firstIndex(of: "/") ?? rest.endIndex
            authority = String(rest[afterSlashes..<end])
            rest = rest[end...]
        }
        path = String(rest)
    }

    private init(scheme: String?, authority: String?, path: String, query: String?, fragment: String?) {
        self.scheme = scheme
        self.authority = authority
        self.path = path
        self.query = query
        self.fragment = fragment
    }

    var isAbsolute: Bool { scheme != nil }

    /// The same reference without its fragment.
    var withoutFragment: URIReference {
        URIReference(scheme: scheme, authority: authority, path: path, query: query, fragment: nil)
    }

    var description: String {
        var text = ""
        if let scheme { text += scheme + ":" }
        if let authority { text += "//" + authority }
        text += path
        if let query { text += "?" + query }
        if let fragment { text += "#" + fragment }
        return text
    }

    /// `reference` resolved against `self` (RFC 3986, 5.2.2).
    func resolving(_ reference: URIReference) -> URIReference {
        if reference.scheme != nil {
            return URIReference(
                scheme: reference.scheme, authority: reference.authority, path: Self.removeDotSegments(reference.path),
                query: reference.query, fragment: reference.fragment)
        }
        if reference.authority != nil {
            return URIReference(
                scheme: scheme, authority: reference.authority, path: Self.removeDotSegments(reference.path),
                query: reference.query, fragment: reference.fragment)
        }
        if reference.path.isEmpty {
            return URIReference(
                scheme: scheme, authority: authority, path: path, query: reference.query ?? query, fragment: reference.fragment)
        }
        let merged: String
        if reference.path.hasPrefix("/") {
            merged = reference.path
        } else if authority != nil, path.isEmpty {
            merged = "/" + reference.path
        } else if let slash = path.lastIndex(of: "/") {
            merged = String(path[...slash]) + reference.path
        } else {
            merged = reference.path
        }
        return URIReference(
            scheme: scheme, authority: authority, path: Self.removeDotSegments(merged), query: reference.query,
            fragment: reference.fragment)
    }

    func resolving(_ text: String) -> URIReference { resolving(URIReference(text)) }

    /// RFC 3986, 5.2.4, by segments.
    static func removeDotSegments(_ path: String) -> String {
        guard path.contains(".") else { return path }
        let absolute = path.hasPrefix("/")
        var output: [Substring] = []
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        for (index, segment) in segments.enumerated() {
            let last = index == segments.count - 1
            switch segment {
            case ".":
                if last { output.append("") }
            case "..":
                if output.count > (absolute ? 1 : 0) { output.removeLast() }
                if last { output.append("") }
            default:
                output.append(segment)
            }
        }
        var joined = output.joined(separator: "/")
        if absolute, !joined.hasPrefix("/") { joined = "/" + joined }
        return joined
    }
}
