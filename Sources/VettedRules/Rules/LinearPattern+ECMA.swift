// A LinearPattern written as a regular expression that ECMA-262 (JSON Schema's
// dialect) and Python's `re` read alike, for schemas: rendered from the parsed
// pattern, not from its text, so that every construct means there what it means here.

extension LinearPattern {
    /// The pattern as JSON Schema's `pattern` keyword: anchored at both ends
    /// (JSON Schema searches; Vetted matches the whole text), with `.` and the
    /// shorthand classes spelled as explicit ranges (their meanings differ
    /// between dialects), and a final negative lookahead, since `$` also
    /// matches before a final newline in some dialects. `nil` when the pattern
    /// holds a scalar outside the Basic Multilingual Plane, which the two
    /// dialects count differently: the rule is then only an annotation.
    package var ecmaSource: String? {
        var parser = Parser(scalars: Array(source.unicodeScalars))
        guard let node = try? parser.parseAlternatives(depth: 0) else { return nil }
        guard let body = Self.render(node) else { return nil }
        return "^(?:" + body + ")$(?![\\s\\S])"
    }

    private static func render(_ node: Node) -> String? {
        switch node {
        case .set(let set):
            return render(set)
        case .sequence(let nodes):
            var text = ""
            for node in nodes {
                guard let part = render(node) else { return nil }
                text += part
            }
            return text
        case .alternatives(let nodes):
            var parts: [String] = []
            for node in nodes {
                guard let part = render(node) else { return nil }
                parts.append(part)
            }
            return "(?:" + parts.joined(separator: "|") + ")"
        case .repetition(let inner, let min, let max):
            guard let body = render(inner) else { return nil }
            // One class or scalar repeats as it is; anything longer in a group.
            let atom: String
            if case .set = inner { atom = body } else { atom = "(?:" + body + ")" }
            let quantifier: String
            switch (min, max) {
            case (0, nil): quantifier = "*"
            case (1, nil): quantifier = "+"
            case (0, 1): quantifier = "?"
            case (let min, nil): quantifier = "{\(min),}"
            case (let min, let max?) where min == max: quantifier = "{\(min)}"
            case (let min, let max?): quantifier = "{\(min),\(max)}"
            }
            return atom + quantifier
        }
    }

    private static func render(_ set: CharacterSet) -> String? {
        if !set.negated, set.ranges == CharacterSet.any.ranges { return "[\\s\\S]" }
        if !set.negated, set.ranges.count == 1, let only = set.ranges.first, only.lowerBound == only.upperBound,
            (0x20..<0x7F).contains(only.lowerBound), let scalar = Unicode.Scalar(only.lowerBound)
        {
            // One printable ASCII character: itself, escaped when it is syntax.
            return "^$\\.*+?()[]{}|/".unicodeScalars.contains(scalar) ? "\\" + String(scalar) : String(scalar)
        }
        var text = set.negated ? "[^" : "["
        for range in set.ranges {
            guard range.upperBound <= 0xFFFF else { return nil }
            text += escaped(range.lowerBound)
            if range.upperBound != range.lowerBound { text += "-" + escaped(range.upperBound) }
        }
        // An empty class matches nothing: `[]` is not valid in every dialect.
        if set.ranges.isEmpty { return set.negated ? "[\\s\\S]" : "(?!)" }
        return text + "]"
    }

    /// One scalar inside a class: printable ASCII as itself (escaped when it is
    /// syntax there), anything else as `\uXXXX`.
    private static func escaped(_ value: UInt32) -> String {
        if (0x20..<0x7F).contains(value), let scalar = Unicode.Scalar(value) {
            return "\\^-[]".unicodeScalars.contains(scalar) ? "\\" + String(scalar) : String(scalar)
        }
        let hex = String(value, radix: 16, uppercase: true)
        return "\\u" + String(repeating: "0", count: Swift.max(0, 4 - hex.count)) + hex
    }
}
