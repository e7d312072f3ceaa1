// A LinearPattern written as a regular expression that Vetted, ECMA-262 (with
// the `u` flag, as JSON Schema 2020-12 asks) and Python's `re` read alike, for
// schemas: rendered from the parsed pattern, not from its text, so that every
// construct means there what it means here.

extension LinearPattern {
    /// The pattern as JSON Schema's `pattern` keyword, in the syntax Vetted and
    /// ECMA-262 share: anchored at both ends (JSON Schema searches; Vetted
    /// matches the whole text), plain groups, `.` and the shorthand classes
    /// spelled as explicit classes (their meanings differ between dialects),
    /// characters as themselves (escaped where they are syntax). `LinearPattern`
    /// compiles the result to the same automaton. `nil` if the source does not compile.
    package var ecmaSource: String? {
        var parser = Parser(scalars: Array(source.unicodeScalars))
        guard let node = try? parser.parseAlternatives(depth: 0) else { return nil }
        // Top-level alternatives need no group of their own: the anchors' group holds them.
        if case .alternatives(let nodes) = node { return "^(" + nodes.map(Self.render).joined(separator: "|") + ")$" }
        return "^(" + Self.render(node) + ")$"
    }

    private static func render(_ node: Node) -> String {
        switch node {
        case .set(let set):
            return render(set)
        case .sequence(let nodes):
            return nodes.map(render).joined()
        case .alternatives(let nodes):
            return "(" + nodes.map(render).joined(separator: "|") + ")"
        case .repetition(let inner, let min, let max):
            // One class or scalar repeats as it is; anything longer in a group.
            let body = render(inner)
            let atom: String
            if case .set = inner { atom = body } else { atom = "(" + body + ")" }
            switch (min, max) {
            case (0, nil): return atom + "*"
            case (1, nil): return atom + "+"
            case (0, 1): return atom + "?"
            case (let min, nil): return atom + "{\(min),}"
            case (let min, let max?) where min == max: return atom + "{\(min)}"
            case (let min, let max?): return atom + "{\(min),\(max)}"
            }
        }
    }

    /// Syntax outside a class in ECMA-262 with the `u` flag: written with a backslash.
    private static let syntax: Set<Unicode.Scalar> = ["^", "$", "\\", ".", "*", "+", "?", "(", ")", "[", "]", "{", "}", "|", "/"]
    /// Syntax inside a class.
    private static let classSyntax: Set<Unicode.Scalar> = ["\\", "]", "[", "^", "-"]

    private static func render(_ set: CharacterSet) -> String {
        if set.ranges.isEmpty { return set.negated ? "[\\s\\S]" : "[^\\s\\S]" }
        if !set.negated, set.ranges == CharacterSet.any.ranges { return "[\\s\\S]" }
        if !set.negated, set.ranges.count == 1, let only = set.ranges.first, only.lowerBound == only.upperBound,
            let scalar = Unicode.Scalar(only.lowerBound)
        {
            return syntax.contains(scalar) ? "\\" + String(scalar) : String(scalar)
        }
        var text = set.negated ? "[^" : "["
        for range in set.ranges {
            // Surrogate code points are no scalars (no text holds one): a range's ends step over them.
            var lower = range.lowerBound
            var upper = range.upperBound
            if (0xD800...0xDFFF).contains(lower) { lower = 0xE000 }
            if (0xD800...0xDFFF).contains(upper) { upper = 0xD7FF }
            guard lower <= upper, let low = Unicode.Scalar(lower), let high = Unicode.Scalar(upper) else { continue }
            text += member(low)
            if high != low { text += "-" + member(high) }
        }
        return text == "[" ? "[^\\s\\S]" : text == "[^" ? "[\\s\\S]" : text + "]"
    }

    /// One scalar inside a class: itself, escaped where it is syntax there.
    private static func member(_ scalar: Unicode.Scalar) -> String {
        classSyntax.contains(scalar) ? "\\" + String(scalar) : String(scalar)
    }
}
