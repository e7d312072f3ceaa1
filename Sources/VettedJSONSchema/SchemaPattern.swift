import VettedCore
import VettedRules

/// JSON Schema's `pattern` (an ECMA-262 regular expression that *searches* the
/// string) as a ``LinearPattern`` (which matches the whole string, in linear
/// time): each top-level alternative gets `[\s\S]*` on a side it is not
/// anchored on. A pattern `LinearPattern` cannot read — look-around,
/// back-references, an anchor inside a group — is a compile error naming it:
/// never a silent pass, never a backtracking engine.
enum SchemaPattern {
    static func compile(_ source: String, at location: String) throws(VettedError) -> LinearPattern {
        let alternatives = splitAlternatives(source)
        var parts: [String] = []
        for alternative in alternatives {
            var scalars = Substring(alternative)
            let anchoredStart = scalars.hasPrefix("^")
            if anchoredStart { scalars = scalars.dropFirst() }
            var anchoredEnd = false
            if scalars.hasSuffix("$"), !endsEscaped(scalars.dropLast()) {
                anchoredEnd = true
                scalars = scalars.dropLast()
            }
            if containsBareAnchor(scalars) { throw unsupported(source, location, "an anchor inside the pattern") }
            let body = scalars.isEmpty ? "" : "(" + scalars + ")"
            parts.append((anchoredStart ? "" : "[\\s\\S]*") + body + (anchoredEnd ? "" : "[\\s\\S]*"))
        }
        let translated = parts.count == 1 ? parts[0] : parts.map { "(" + $0 + ")" }.joined(separator: "|")
        do {
            return try LinearPattern(translated)
        } catch {
            throw unsupported(source, location, error.message)
        }
    }

    private static func unsupported(_ source: String, _ location: String, _ reason: String) -> VettedError {
        var error = VettedError(
            code: .invalidPattern,
            message: "pattern \"\(Excerpt.escape(source, maximumBytes: 80))\" at \(Excerpt.escape(location, maximumBytes: 120)) cannot be matched in linear time: \(reason)")
        error.parameters["pattern"] = .string(Excerpt.escape(source, maximumBytes: 200))
        error.parameters["schemaLocation"] = .string(Excerpt.escape(location, maximumBytes: 200))
        return error
    }

    /// Whether the text ends in an odd number of backslashes (so a following character is escaped).
    private static func endsEscaped(_ text: Substring) -> Bool {
        var count = 0
        for character in text.reversed() {
            guard character == "\\" else { break }
            count += 1
        }
        return count % 2 == 1
    }

    /// The pattern split at `|` outside groups and classes.
    private static func splitAlternatives(_ source: String) -> [String] {
        var result: [String] = []
        var current = ""
        var depth = 0
        var inClass = false
        var escaped = false
        for character in source {
            if escaped {
                current.append(character)
                escaped = false
                continue
            }
            switch character {
            case "\\": escaped = true
            case "[": inClass = true
            case "]": inClass = false
            case "(" where !inClass: depth += 1
            case ")" where !inClass: depth -= 1
            case "|" where !inClass && depth == 0:
                result.append(current)
                current = ""
                continue
            default: break
            }
            current.append(character)
        }
        result.append(current)
        return result
    }

    /// `^` or `$` outside a class and unescaped, after the ends were taken off.
    private static func containsBareAnchor(_ text: Substring) -> Bool {
        var inClass = false
        var escaped = false
        for character in text {
            if escaped {
                escaped = false
                continue
            }
            switch character {
            case "\\": escaped = true
            case "[": inClass = true
            case "]": inClass = false
            case "^", "$": if !inClass { return true }
            default: break
            }
        }
        return false
    }
}
