import VettedCore
import VettedJSON
import VettedRules

// The assertions: keywords that look at the instance alone, in a function of their own
// so that the recursive path's stack frames stay small.
extension SchemaEvaluator {
    /// A keyword that looks at the instance alone; `nil` for an applicator.
    @inline(never)
    mutating func assert(_ keyword: Keyword, _ node: Int, _ instance: JSONValue, reporting: Bool) -> Bool? {
        switch keyword {
        case .type(let types):
            let matches: Bool
            switch instance {
            case .null: matches = types.contains(.null)
            case .bool: matches = types.contains(.boolean)
            case .string: matches = types.contains(.string)
            case .array: matches = types.contains(.array)
            case .object: matches = types.contains(.object)
            case .number(let number):
                matches = types.contains(.number) || (types.contains(.integer) && ExactNumber.isInteger(literal: number.literal))
            }
            if !matches, reporting { reportType(types, found: instance.kindName, node) }
            return matches
        case .enumeration(let allowed, let strings, let count):
            let matches: Bool
            if case .string(let text) = instance { matches = strings.contains(CodePoints(probe: text)) } else { matches = allowed.contains(CanonicalJSON.text(instance)) }
            if !matches, reporting { report("enum", node, keyword: "enum", "not one of the \(count) allowed values") }
            return matches
        case .constant(let expected):
            let matches = CanonicalJSON.text(instance) == expected
            if !matches, reporting { report("const", node, keyword: "const", "not the one allowed value") }
            return matches
        case .multipleOf(let divisor, let literal):
            guard case .number(let number) = instance else { return true }
            let matches = ExactNumber(number).isMultiple(of: divisor) ?? false
            if !matches, reporting { report("multipleOf", node, keyword: "multipleOf", "not a multiple of \(literal)", ["multipleOf": .string(literal)]) }
            return matches
        case .maximum(let limit, let literal, let exclusive):
            guard case .number(let number) = instance else { return true }
            let order = ExactNumber.compare(literal: number.literal, to: limit)
            let matches = exclusive ? order < 0 : order <= 0
            if !matches, reporting {
                let name = exclusive ? "exclusiveMaximum" : "maximum"
                report(name, node, keyword: name, exclusive ? "must be less than \(literal)" : "must be at most \(literal)", [name: .string(literal)])
            }
            return matches
        case .minimum(let limit, let literal, let exclusive):
            guard case .number(let number) = instance else { return true }
            let order = ExactNumber.compare(literal: number.literal, to: limit)
            let matches = exclusive ? order > 0 : order >= 0
            if !matches, reporting {
                let name = exclusive ? "exclusiveMinimum" : "minimum"
                report(name, node, keyword: name, exclusive ? "must be greater than \(literal)" : "must be at least \(literal)", [name: .string(literal)])
            }
            return matches
        case .maxLength(let limit):
            guard case .string(let text) = instance else { return true }
            // Each code point is one to four UTF-8 bytes: count them only when the bytes do not decide.
            let bytes = text.utf8.count
            let matches = bytes <= limit || (bytes <= Self.quadruple(limit) && text.unicodeScalars.count <= limit)
            if !matches, reporting { report("maxLength", node, keyword: "maxLength", "longer than \(limit) characters", ["maxLength": .integer(limit)]) }
            return matches
        case .minLength(let limit):
            guard case .string(let text) = instance else { return true }
            let bytes = text.utf8.count
            let matches = bytes >= Self.quadruple(limit) || (bytes >= limit && text.unicodeScalars.count >= limit)
            if !matches, reporting { report("minLength", node, keyword: "minLength", "shorter than \(limit) characters", ["minLength": .integer(limit)]) }
            return matches
        case .pattern(let pattern, let escaped):
            guard case .string(let text) = instance else { return true }
            let matches = pattern.matches(text)
            if !matches, reporting {
                report(
                    "pattern", node, keyword: "pattern", "does not match the pattern",
                    ["pattern": .string(escaped)])
            }
            return matches
        case .format(let format):
            guard case .string(let text) = instance else { return true }
            let matches = SchemaFormat.check(format, text) ?? true
            if !matches, reporting { report("format", node, keyword: "format", "not a valid \(format)", ["format": .string(format)]) }
            return matches
        case .maxItems(let limit):
            guard case .array(let elements) = instance else { return true }
            let matches = elements.count <= limit
            if !matches, reporting { reportCount("maxItems", limit, node) }
            return matches
        case .minItems(let limit):
            guard case .array(let elements) = instance else { return true }
            let matches = elements.count >= limit
            if !matches, reporting { reportCount("minItems", limit, node) }
            return matches
        case .uniqueItems:
            guard case .array(let elements) = instance else { return true }
            var seen: [CodePoints: Int] = [:]
            for (position, element) in elements.enumerated() {
                if let first = seen.updateValue(position, forKey: CanonicalJSON.text(element)) {
                    if reporting {
                        report(
                            "uniqueItems", node, keyword: "uniqueItems", "items \(first) and \(position) are equal",
                            ["first": .integer(first), "second": .integer(position)])
                    }
                    return false
                }
            }
            return true
        case .maxProperties(let limit):
            guard case .object(let object) = instance else { return true }
            let matches = object.count <= limit
            if !matches, reporting { reportCount("maxProperties", limit, node) }
            return matches
        case .minProperties(let limit):
            guard case .object(let object) = instance else { return true }
            let matches = object.count >= limit
            if !matches, reporting { reportCount("minProperties", limit, node) }
            return matches
        case .required(let names):
            guard case .object(let object) = instance else { return true }
            if let keys = requiredMet[node], keys == object.keys { return true }
            var matches = true
            for name in names where object[name] == nil {
                matches = false
                guard reporting else { break }
                reportMissing(name, node)
            }
            if matches { requiredMet[node] = object.keys }
            return matches
        case .dependentRequired(let dependencies):
            guard case .object(let object) = instance else { return true }
            var matches = true
            for (trigger, names) in dependencies where object[trigger] != nil {
                for name in names where object[name] == nil {
                    matches = false
                    guard reporting else { return false }
                    report(
                        "dependentRequired", node, keyword: "dependentRequired",
                        "\"\(Excerpt.escape(name, maximumBytes: 60))\" is required when \"\(Excerpt.escape(trigger, maximumBytes: 60))\" is present",
                        ["property": .string(Excerpt.escape(name, maximumBytes: 200)), "dependency": .string(Excerpt.escape(trigger, maximumBytes: 200))])
                }
            }
            return matches
        default:
            return nil
        }
    }

    // The reports a stream makes too (`SchemaStream`), in one place.

    mutating func reportType(_ types: TypeSet, found: String, _ node: Int) {
        let expected = types.names
        report(
            "type", node, keyword: "type", "expected \(expected.joined(separator: " or ")), found \(found)",
            ["expected": .list(expected.map { .string($0) }), "found": .string(found)])
    }

    /// `maxItems`, `minItems`, `maxProperties` or `minProperties` (`keyword`) broken.
    mutating func reportCount(_ keyword: String, _ limit: Int, _ node: Int) {
        let bound = keyword.hasPrefix("max") ? "more than" : "fewer than"
        let noun = keyword.hasSuffix("Items") ? "items" : "properties"
        report(keyword, node, keyword: keyword, "\(bound) \(limit) \(noun)", [keyword: .integer(limit)])
    }

    mutating func reportMissing(_ name: String, _ node: Int) {
        report(
            "required", node, keyword: "required", "the required property \"\(Excerpt.escape(name, maximumBytes: 60))\" is missing",
            ["property": .string(Excerpt.escape(name, maximumBytes: 200))])
    }

    /// The most UTF-8 bytes `count` code points can take (saturating).
    static func quadruple(_ count: Int) -> Int {
        let (product, overflow) = count.multipliedReportingOverflow(by: 4)
        return overflow ? Int.max : product
    }
}
