/// Each rule descriptor as JSON Schema keywords, where JSON Schema states the
/// rule exactly; as an `x-vetted-<kind>` annotation otherwise (or as well, when
/// a keyword states only part of it).
enum RuleKeywords {
    static func apply(_ descriptor: RuleDescriptor, to schema: inout JSONObject, notes: inout Annotations) {
        let parameters = descriptor.parameters
        switch descriptor.kind {
        case "range" where isNumeric(schema) && numeric(parameters):
            if let minimum = parameters["minimum"] { tighten(&schema, "minimum", minimum, lower: true) }
            if let maximum = parameters["maximum"] { tighten(&schema, "maximum", maximum, lower: false) }
        case "length" where parameters["unit"]?.string == "unicodeScalars":
            // JSON Schema counts code points: Unicode scalars in a Swift String.
            if let minimum = parameters["minimum"]?.integer, minimum > 0 { schema["minLength"] = .number(JSONNumber(minimum)) }
            if let maximum = parameters["maximum"]?.integer, maximum < Int.max { schema["maxLength"] = .number(JSONNumber(maximum)) }
        case "length" where parameters["unit"]?.string == "characters":
            // k characters are at least k code points: a sound minLength. A character may hold any
            // number of code points, so no maxLength follows; the rule stays an annotation too.
            if let minimum = parameters["minimum"]?.integer, minimum > 0 { schema["minLength"] = .number(JSONNumber(minimum)) }
            notes.add(descriptor.kind, parameters)
        case "length" where parameters["unit"]?.string == "utf8Bytes":
            // n UTF-8 bytes hold at most n code points and at least n/4: sound bounds, not exact ones.
            if let minimum = parameters["minimum"]?.integer, minimum > 0 { schema["minLength"] = .number(JSONNumber((minimum + 3) / 4)) }
            if let maximum = parameters["maximum"]?.integer, maximum < Int.max { schema["maxLength"] = .number(JSONNumber(maximum)) }
            notes.add(descriptor.kind, parameters)
        case "nonEmpty" where isArray(schema) || isString(schema) || isObject(schema):
            schema[isArray(schema) ? "minItems" : isString(schema) ? "minLength" : "minProperties"] = 1
        case "nonBlank":
            // Not empty is exact; "not only whitespace" is not a keyword.
            schema["minLength"] = 1
            notes.add(descriptor.kind, parameters)
        case "oneOf":
            schema["enum"] = .array((parameters["allowed"]?.list ?? []).map(json))
        case "pattern":
            if let source = parameters["pattern"]?.string, let pattern = try? LinearPattern(source), let ecma = pattern.ecmaSource {
                schema["pattern"] = .string(ecma)
                // Text longer than this many UTF-8 bytes is refused before matching: not a keyword.
                notes.add("patternMaximumUTF8Length", ["maximum": parameters["maximumLength"] ?? .integer(0)])
            } else {
                notes.add(descriptor.kind, parameters)
            }
        case "count" where isArray(schema) || isObject(schema):
            let (low, high) = isArray(schema) ? ("minItems", "maxItems") : ("minProperties", "maxProperties")
            if let minimum = parameters["minimum"]?.integer, minimum > 0 { schema[low] = .number(JSONNumber(minimum)) }
            if let maximum = parameters["maximum"]?.integer, maximum < Int.max { schema[high] = .number(JSONNumber(maximum)) }
        case "unique" where isArray(schema):
            schema["uniqueItems"] = true
        case "each":
            if case .object(var items)? = schema["items"] {
                var inner = Annotations()
                for element in descriptor.element { apply(element, to: &items, notes: &inner) }
                inner.write(into: &items)
                schema["items"] = .object(items)
            } else {
                notes.add(descriptor.kind, ["element": .array(descriptor.element.map { .string($0.description) })])
            }
        case "url":
            schema["format"] = "uri"
            notes.add(descriptor.kind, parameters)
        default:
            // Lengths in characters or bytes, date windows, display safety, custom and undescribed rules.
            notes.add(descriptor.kind, parameters)
        }
    }

    /// Sets a bound, keeping the tighter of two (a type's own bounds and a rule's).
    private static func tighten(_ schema: inout JSONObject, _ keyword: String, _ bound: RuleParameter, lower: Bool) {
        let new = json(bound)
        if case .number(let old)? = schema[keyword], case .number(let candidate) = new,
            let oldValue = Double(old.literal), let newValue = Double(candidate.literal)
        {
            let keepsOld: Bool = lower ? oldValue >= newValue : oldValue <= newValue
            if keepsOld { return }
        }
        schema[keyword] = new
    }

    private static func numeric(_ parameters: [String: RuleParameter]) -> Bool {
        [parameters["minimum"], parameters["maximum"]].allSatisfy { $0 == nil || $0?.number != nil }
    }

    private static func typeNames(_ schema: JSONObject) -> [String] {
        switch schema["type"] {
        case .string(let name)?:
            return [name]
        case .array(let names)?:
            var result: [String] = []
            for case .string(let name) in names { result.append(name) }
            return result
        default:
            return []
        }
    }

    private static func isNumeric(_ schema: JSONObject) -> Bool {
        typeNames(schema).contains { $0 == "integer" || $0 == "number" }
    }

    private static func isArray(_ schema: JSONObject) -> Bool { typeNames(schema).contains("array") }
    private static func isString(_ schema: JSONObject) -> Bool { typeNames(schema).contains("string") }
    private static func isObject(_ schema: JSONObject) -> Bool { typeNames(schema).contains("object") }

    /// A parameter as JSON.
    static func json(_ parameter: RuleParameter) -> JSONValue { JSONValue(parameter) }
}
