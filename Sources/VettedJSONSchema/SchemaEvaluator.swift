import VettedCore
import VettedJSON
import VettedRules

/// A number for each path of steps (an instance location, a dynamic scope), the same
/// number whenever the same path is met again: a step from a numbered path is looked
/// up once, so numbering costs one hash per step, never the path's length.
struct PathNumbers<Step: Hashable> {
    private struct Edge: Hashable {
        var parent: Int
        var step: Step
    }

    private var stack: [Int] = [0]
    private var table: [Edge: Int] = [:]

    var current: Int { stack[stack.count - 1] }

    mutating func push(_ step: Step) {
        let edge = Edge(parent: current, step: step)
        if let known = table[edge] {
            stack.append(known)
        } else {
            let number = table.count + 1
            table[edge] = number
            stack.append(number)
        }
    }

    mutating func pop() { stack.removeLast() }
}

/// What the schemas applied in place to one instance evaluated: what
/// `unevaluatedProperties` and `unevaluatedItems` read. Filled only when asked.
struct Annotations {
    var allProperties = false
    var properties: Set<String> = []
    var allItems = false
    var prefixItems = 0
    var items: Set<Int> = []

    mutating func merge(_ other: Annotations) {
        allProperties = allProperties || other.allProperties
        if !allProperties { properties.formUnion(other.properties) }
        allItems = allItems || other.allItems
        prefixItems = Swift.max(prefixItems, other.prefixItems)
        if !allItems { items.formUnion(other.items) }
    }
}

struct Outcome {
    var valid: Bool
    var annotations: Annotations
    static let valid = Outcome(valid: true, annotations: Annotations())
    static let invalid = Outcome(valid: false, annotations: Annotations())
}

/// One validation: walks the compiled nodes against an instance. Each node meets
/// an instance location at most once per dynamic scope where it is shared (memoized),
/// so nested `anyOf`/`oneOf` over shared subschemas stay linear; errors are collected
/// only along invalid branches, up to the cap.
struct SchemaEvaluator {
    let nodes: [SchemaNode]
    let resources: [SchemaResource]
    let usesDynamicScope: Bool
    /// Whether any node is memoized, and so instance locations need numbers.
    let tracksLocations: Bool
    let cap: Int
    /// Schema evaluations nested in one another, at most this deep.
    let maximumDepth: Int
    /// And never deeper than the stack allows (``Limits/maxStackBytes``).
    let stack: StackGuard

    var errors: [VettedError] = []
    var truncated = 0
    private var path: [DocumentPath.Component] = []
    private var depth = 0
    private var scope: [Int] = []
    /// The dynamic scope's number, for the memo.
    private var scopes = PathNumbers<Int>()
    /// The instance location's number, for the memo.
    private var locations = PathNumbers<DocumentPath.Component>()
    private var memo: [MemoKey: Outcome] = [:]
    private var depthExceeded = false


    struct MemoKey: Hashable {
        var node: Int
        var location: Int
        var scope: Int
        var collect: Bool
    }

    init(nodes: [SchemaNode], resources: [SchemaResource], usesDynamicScope: Bool, cap: Int, maximumDepth: Int, stack: StackGuard) {
        self.stack = stack
        self.nodes = nodes
        self.resources = resources
        self.usesDynamicScope = usesDynamicScope
        tracksLocations = nodes.contains(where: \.memoized)
        self.cap = cap
        self.maximumDepth = maximumDepth
    }

    var isFull: Bool { errors.count >= cap }

    // MARK: Errors

    private mutating func report(
        _ code: String, _ node: Int, keyword: String, _ message: String, _ parameters: [String: RuleParameter] = [:]
    ) {
        guard errors.count < cap else {
            truncated += 1
            return
        }
        var error = VettedError(code: VettedError.Code(code), path: DocumentPath(path), message: message)
        error.parameters = parameters
        let location = nodes[node].schemaLocation + (keyword.isEmpty ? "" : "/" + keyword)
        error.parameters["schemaLocation"] = .string(Excerpt.escape(location, maximumBytes: 200))
        errors.append(error)
    }

    // MARK: Instance locations

    private mutating func enter(_ component: DocumentPath.Component) {
        path.append(component)
        if tracksLocations { locations.push(component) }
    }

    private mutating func leave() {
        path.removeLast()
        if tracksLocations { locations.pop() }
    }

    // MARK: Evaluation

    /// Evaluates `node` against `instance` at the current location. With `reporting`, errors
    /// are recorded; without, the first failure ends the evaluation. With `collect`, the
    /// outcome carries what was evaluated.
    mutating func evaluate(_ node: Int, _ instance: JSONValue, reporting: Bool, collect: Bool) -> Outcome {
        if reporting {
            // Only an invalid schema has errors to find: a quiet, memoized look first.
            let quiet = evaluate(node, instance, reporting: false, collect: collect)
            if quiet.valid || isFull { return quiet }
        }
        let schema = nodes[node]
        if let constant = schema.constant {
            if !constant, reporting { report("false", node, keyword: "", "no value is allowed here") }
            return constant ? .valid : .invalid
        }
        guard depth < maximumDepth, stack.hasRoom(atDepth: depth) else {
            if !depthExceeded {
                depthExceeded = true
                report(
                    VettedError.Code.schemaDepthLimitExceeded.rawValue, node, keyword: "",
                    "validation nested deeper than \(maximumDepth) schemas or than the stack allows: a $ref cycle, or a schema and instance nested that deep")
            }
            return .invalid
        }
        let enteredResource = scope.last != schema.resource
        if enteredResource { pushScope(schema.resource) }
        defer { if enteredResource { popScope() } }
        let key = MemoKey(node: node, location: locations.current, scope: scopes.current, collect: collect)
        if !reporting, schema.memoized, let known = memo[key] { return known }
        depth += 1
        let outcome = evaluateKeywords(node, schema, instance, reporting: reporting, collect: collect || schema.needsAnnotations)
        depth -= 1
        if !reporting, schema.memoized { memo[key] = outcome }
        return outcome
    }

    private mutating func pushScope(_ resource: Int) {
        scope.append(resource)
        if usesDynamicScope { scopes.push(resource) }
    }

    private mutating func popScope() {
        scope.removeLast()
        if usesDynamicScope { scopes.pop() }
    }

    private mutating func evaluateKeywords(_ node: Int, _ schema: SchemaNode, _ instance: JSONValue, reporting: Bool, collect: Bool)
        -> Outcome
    {
        var valid = true
        var annotations = Annotations()
        for keyword in schema.keywords {
            if !valid && !reporting { return .invalid }
            if isFull && reporting && !valid { return .invalid }
            let keywordValid = apply(keyword, node, instance, reporting: reporting, collect: collect, annotations: &annotations)
            if !keywordValid { valid = false }
        }
        return Outcome(valid: valid, annotations: valid && collect ? annotations : Annotations())
    }

    /// The subschema `child` applied in place; its annotations join `annotations` when valid.
    private mutating func inPlace(_ child: Int, _ instance: JSONValue, reporting: Bool, collect: Bool, _ annotations: inout Annotations)
        -> Bool
    {
        let outcome = evaluate(child, instance, reporting: reporting, collect: collect)
        if outcome.valid, collect { annotations.merge(outcome.annotations) }
        return outcome.valid
    }

    /// The subschema `child` applied to a member or element of the instance.
    private mutating func below(
        _ child: Int, _ component: DocumentPath.Component, _ value: JSONValue, reporting: Bool, keyword: String, from node: Int
    ) -> Bool {
        enter(component)
        defer { leave() }
        if reporting, nodes[child].constant == false {
            report(keyword, node, keyword: keyword, "\(keyword) allows no value here")
            return false
        }
        return evaluate(child, value, reporting: reporting, collect: false).valid
    }

    /// A keyword that looks at the instance alone; `nil` for an applicator.
    @inline(never)
    private mutating func assert(_ keyword: Keyword, _ node: Int, _ instance: JSONValue, reporting: Bool) -> Bool? {
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
                matches = types.contains(.number) || (types.contains(.integer) && ExactNumber(number).isInteger)
            }
            if !matches, reporting {
                let expected = types.names
                report(
                    "type", node, keyword: "type",
                    "expected \(expected.joined(separator: " or ")), found \(instance.kindName)",
                    ["expected": .list(expected.map { .string($0) }), "found": .string(instance.kindName)])
            }
            return matches
        case .enumeration(let allowed, let count):
            let matches = allowed.contains(CanonicalJSON.text(instance))
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
            let value = ExactNumber(number)
            let matches = exclusive ? value < limit : !(limit < value)
            if !matches, reporting {
                let name = exclusive ? "exclusiveMaximum" : "maximum"
                report(name, node, keyword: name, exclusive ? "must be less than \(literal)" : "must be at most \(literal)", [name: .string(literal)])
            }
            return matches
        case .minimum(let limit, let literal, let exclusive):
            guard case .number(let number) = instance else { return true }
            let value = ExactNumber(number)
            let matches = exclusive ? limit < value : !(value < limit)
            if !matches, reporting {
                let name = exclusive ? "exclusiveMinimum" : "minimum"
                report(name, node, keyword: name, exclusive ? "must be greater than \(literal)" : "must be at least \(literal)", [name: .string(literal)])
            }
            return matches
        case .maxLength(let limit):
            guard case .string(let text) = instance else { return true }
            let matches = text.unicodeScalars.count <= limit
            if !matches, reporting { report("maxLength", node, keyword: "maxLength", "longer than \(limit) characters", ["maxLength": .integer(limit)]) }
            return matches
        case .minLength(let limit):
            guard case .string(let text) = instance else { return true }
            let matches = text.unicodeScalars.count >= limit
            if !matches, reporting { report("minLength", node, keyword: "minLength", "shorter than \(limit) characters", ["minLength": .integer(limit)]) }
            return matches
        case .pattern(let pattern, let source):
            guard case .string(let text) = instance else { return true }
            let matches = pattern.matches(text)
            if !matches, reporting {
                report(
                    "pattern", node, keyword: "pattern", "does not match the pattern",
                    ["pattern": .string(Excerpt.escape(source, maximumBytes: 200))])
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
            if !matches, reporting { report("maxItems", node, keyword: "maxItems", "more than \(limit) items", ["maxItems": .integer(limit)]) }
            return matches
        case .minItems(let limit):
            guard case .array(let elements) = instance else { return true }
            let matches = elements.count >= limit
            if !matches, reporting { report("minItems", node, keyword: "minItems", "fewer than \(limit) items", ["minItems": .integer(limit)]) }
            return matches
        case .uniqueItems:
            guard case .array(let elements) = instance else { return true }
            var seen: [String: Int] = [:]
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
            if !matches, reporting {
                report("maxProperties", node, keyword: "maxProperties", "more than \(limit) properties", ["maxProperties": .integer(limit)])
            }
            return matches
        case .minProperties(let limit):
            guard case .object(let object) = instance else { return true }
            let matches = object.count >= limit
            if !matches, reporting {
                report("minProperties", node, keyword: "minProperties", "fewer than \(limit) properties", ["minProperties": .integer(limit)])
            }
            return matches
        case .required(let names):
            guard case .object(let object) = instance else { return true }
            var matches = true
            for name in names where object[name] == nil {
                matches = false
                guard reporting else { break }
                report(
                    "required", node, keyword: "required", "the required property \"\(Excerpt.escape(name, maximumBytes: 60))\" is missing",
                    ["property": .string(Excerpt.escape(name, maximumBytes: 200))])
            }
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

    private mutating func apply(
        _ keyword: Keyword, _ node: Int, _ instance: JSONValue, reporting: Bool, collect: Bool, annotations: inout Annotations
    ) -> Bool {
        // Assertions in a function of their own: the recursive path's stack frames stay small.
        if let result = assert(keyword, node, instance, reporting: reporting) { return result }
        switch keyword {
        case .reference(let target, _):
            return inPlace(target, instance, reporting: reporting, collect: collect, &annotations)
        case .dynamicReference(let target, let anchor, _):
            var resolved = target
            if let anchor {
                for resource in scope {
                    if let node = resources[resource].dynamicAnchors[anchor] {
                        resolved = node
                        break
                    }
                }
            }
            return inPlace(resolved, instance, reporting: reporting, collect: collect, &annotations)
        case .allOf(let children):
            return applyAllOf(children, node, instance, reporting: reporting, collect: collect, &annotations)
        case .anyOf(let children):
            return applyAnyOf(children, node, instance, reporting: reporting, collect: collect, &annotations)
        case .oneOf(let children):
            return applyOneOf(children, node, instance, reporting: reporting, collect: collect, &annotations)
        case .not(let child):
            return applyNot(child, node, instance, reporting: reporting, collect: collect, &annotations)
        case .conditional(let condition, let then, let otherwise):
            return applyConditional(condition, then, otherwise, node, instance, reporting: reporting, collect: collect, &annotations)
        case .dependentSchemas(let dependencies):
            return applyDependentSchemas(dependencies, node, instance, reporting: reporting, collect: collect, &annotations)
        case .objectShape(let properties, let patterns, let additional):
            return applyObjectShape(properties, patterns, additional, node, instance, reporting: reporting, collect: collect, &annotations)
        case .propertyNames(let child):
            return applyPropertyNames(child, node, instance, reporting: reporting, collect: collect, &annotations)
        case .arrayShape(let prefix, let rest, let restKeyword):
            return applyArrayShape(prefix, rest, restKeyword, node, instance, reporting: reporting, collect: collect, &annotations)
        case .contains(let child, let minimum, let maximum):
            return applyContains(child, minimum, maximum, node, instance, reporting: reporting, collect: collect, &annotations)
        case .unevaluatedProperties(let child):
            return applyUnevaluatedProperties(child, node, instance, reporting: reporting, collect: collect, &annotations)
        case .unevaluatedItems(let child):
            return applyUnevaluatedItems(child, node, instance, reporting: reporting, collect: collect, &annotations)
        default:
            return true
        }
    }

    @inline(never)
    private mutating func applyAllOf(
        _ children: [Int], _ node: Int, _ instance: JSONValue, reporting: Bool, collect: Bool, _ annotations: inout Annotations
    ) -> Bool {
        var matches = true
        for child in children {
            if !inPlace(child, instance, reporting: reporting, collect: collect, &annotations) {
                matches = false
                if !reporting { return false }
            }
        }
        return matches
    }

    @inline(never)
    private mutating func applyAnyOf(
        _ children: [Int], _ node: Int, _ instance: JSONValue, reporting: Bool, collect: Bool, _ annotations: inout Annotations
    ) -> Bool {
        var matches = false
        for child in children {
            if inPlace(child, instance, reporting: false, collect: collect, &annotations) {
                matches = true
                if !collect { break }
            }
        }
        if !matches, reporting { report("anyOf", node, keyword: "anyOf", "matches none of the \(children.count) schemas of anyOf") }
        return matches
    }

    @inline(never)
    private mutating func applyOneOf(
        _ children: [Int], _ node: Int, _ instance: JSONValue, reporting: Bool, collect: Bool, _ annotations: inout Annotations
    ) -> Bool {
        var count = 0
        var chosen = Annotations()
        for child in children {
            let outcome = evaluate(child, instance, reporting: false, collect: collect)
            if outcome.valid {
                count += 1
                chosen = outcome.annotations
                if count > 1 { break }
            }
        }
        if count == 1 {
            if collect { annotations.merge(chosen) }
            return true
        }
        if reporting {
            report(
                "oneOf", node, keyword: "oneOf",
                count == 0 ? "matches none of the \(children.count) schemas of oneOf" : "matches more than one schema of oneOf")
        }
        return false
    }

    @inline(never)
    private mutating func applyNot(
        _ child: Int, _ node: Int, _ instance: JSONValue, reporting: Bool, collect: Bool, _ annotations: inout Annotations
    ) -> Bool {
        let matches = !evaluate(child, instance, reporting: false, collect: false).valid
        if !matches, reporting { report("not", node, keyword: "not", "matches the schema it must not match") }
        return matches
    }

    @inline(never)
    private mutating func applyConditional(
        _ condition: Int, _ then: Int?, _ otherwise: Int?, _ node: Int, _ instance: JSONValue, reporting: Bool, collect: Bool, _ annotations: inout Annotations
    ) -> Bool {
        let test = evaluate(condition, instance, reporting: false, collect: collect)
        if test.valid {
            if collect { annotations.merge(test.annotations) }
            guard let then else { return true }
            return inPlace(then, instance, reporting: reporting, collect: collect, &annotations)
        }
        guard let otherwise else { return true }
        return inPlace(otherwise, instance, reporting: reporting, collect: collect, &annotations)
    }

    @inline(never)
    private mutating func applyDependentSchemas(
        _ dependencies: [(String, Int)], _ node: Int, _ instance: JSONValue, reporting: Bool, collect: Bool, _ annotations: inout Annotations
    ) -> Bool {
        guard case .object(let object) = instance else { return true }
        var matches = true
        for (trigger, child) in dependencies where object[trigger] != nil {
            if !inPlace(child, instance, reporting: reporting, collect: collect, &annotations) {
                matches = false
                if !reporting { return false }
            }
        }
        return matches
    }

    @inline(never)
    private mutating func applyObjectShape(
        _ properties: [String: Int], _ patterns: [(LinearPattern, String, Int)], _ additional: Int?, _ node: Int, _ instance: JSONValue, reporting: Bool, collect: Bool, _ annotations: inout Annotations
    ) -> Bool {
        guard case .object(let object) = instance else { return true }
        var matches = true
        for member in object {
            var matched = false
            if let child = properties[member.key] {
                matched = true
                if !below(child, .key(member.key), member.value, reporting: reporting, keyword: "properties", from: node) {
                    matches = false
                    if !reporting { return false }
                }
            }
            for (pattern, _, child) in patterns where pattern.matches(member.key) {
                matched = true
                if !below(child, .key(member.key), member.value, reporting: reporting, keyword: "patternProperties", from: node) {
                    matches = false
                    if !reporting { return false }
                }
            }
            if !matched, let additional {
                if !below(additional, .key(member.key), member.value, reporting: reporting, keyword: "additionalProperties", from: node) {
                    matches = false
                    if !reporting { return false }
                }
            }
            if matched, collect { annotations.properties.insert(member.key) }
        }
        if additional != nil, collect { annotations.allProperties = true }
        return matches
    }

    @inline(never)
    private mutating func applyPropertyNames(
        _ child: Int, _ node: Int, _ instance: JSONValue, reporting: Bool, collect: Bool, _ annotations: inout Annotations
    ) -> Bool {
        guard case .object(let object) = instance else { return true }
        var matches = true
        for member in object {
            if !below(child, .key(member.key), .string(member.key), reporting: reporting, keyword: "propertyNames", from: node) {
                matches = false
                if !reporting { return false }
            }
        }
        return matches
    }

    @inline(never)
    private mutating func applyArrayShape(
        _ prefix: [Int], _ rest: Int?, _ restKeyword: String, _ node: Int, _ instance: JSONValue, reporting: Bool, collect: Bool, _ annotations: inout Annotations
    ) -> Bool {
        guard case .array(let elements) = instance else { return true }
        var matches = true
        for (position, element) in elements.enumerated() {
            let child: Int
            let keyword: String
            if position < prefix.count {
                child = prefix[position]
                keyword = restKeyword == "items" && !prefix.isEmpty ? "prefixItems" : "items"
            } else if let rest {
                child = rest
                keyword = restKeyword
            } else {
                break
            }
            if !below(child, .index(position), element, reporting: reporting, keyword: keyword, from: node) {
                matches = false
                if !reporting { return false }
            }
        }
        if collect {
            annotations.prefixItems = Swift.max(annotations.prefixItems, Swift.min(prefix.count, elements.count))
            if rest != nil { annotations.allItems = true }
        }
        return matches
    }

    @inline(never)
    private mutating func applyContains(
        _ child: Int, _ minimum: Int, _ maximum: Int?, _ node: Int, _ instance: JSONValue, reporting: Bool, collect: Bool, _ annotations: inout Annotations
    ) -> Bool {
        guard case .array(let elements) = instance else { return true }
        var found = 0
        for (position, element) in elements.enumerated() {
            enter(.index(position))
            let matched = evaluate(child, element, reporting: false, collect: false).valid
            leave()
            if matched {
                found += 1
                if collect { annotations.items.insert(position) }
            }
        }
        var matches = found >= minimum
        if let maximum, found > maximum { matches = false }
        if !matches, reporting {
            if found < minimum {
                report(
                    minimum == 1 ? "contains" : "minContains", node, keyword: minimum == 1 ? "contains" : "minContains",
                    "\(found) items match contains, fewer than \(minimum)", ["minContains": .integer(minimum), "found": .integer(found)])
            } else {
                report(
                    "maxContains", node, keyword: "maxContains", "\(found) items match contains, more than \(maximum ?? 0)",
                    ["maxContains": .integer(maximum ?? 0), "found": .integer(found)])
            }
        }
        return matches
    }

    @inline(never)
    private mutating func applyUnevaluatedProperties(
        _ child: Int, _ node: Int, _ instance: JSONValue, reporting: Bool, collect: Bool, _ annotations: inout Annotations
    ) -> Bool {
        guard case .object(let object) = instance else { return true }
        if annotations.allProperties { return true }
        var matches = true
        for member in object where !annotations.properties.contains(member.key) {
            if !below(child, .key(member.key), member.value, reporting: reporting, keyword: "unevaluatedProperties", from: node) {
                matches = false
                if !reporting { return false }
            }
        }
        if collect { annotations.allProperties = true }
        return matches
    }

    @inline(never)
    private mutating func applyUnevaluatedItems(
        _ child: Int, _ node: Int, _ instance: JSONValue, reporting: Bool, collect: Bool, _ annotations: inout Annotations
    ) -> Bool {
        guard case .array(let elements) = instance else { return true }
        if annotations.allItems { return true }
        var matches = true
        for (position, element) in elements.enumerated() where position >= annotations.prefixItems && !annotations.items.contains(position) {
            if !below(child, .index(position), element, reporting: reporting, keyword: "unevaluatedItems", from: node) {
                matches = false
                if !reporting { return false }
            }
        }
        if collect { annotations.allItems = true }
        return matches
    }
}
