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
    /// The instance validated, from which a report's path is read (a stream sets each value it hands over).
    var instance: JSONValue
    /// Where the evaluation is: the position of each member or element stepped into, from
    /// the instance's root (keys are read back only when an error is reported).
    private var path: [Int] = []
    var depth = 0
    private var scope: [Int] = []
    /// The dynamic scope's number, for the memo.
    private var scopes = PathNumbers<Int>()
    /// The instance location's number, for the memo.
    private var locations = PathNumbers<Int>()
    private var memo: [MemoKey: Outcome] = [:]
    private var depthExceeded = false
    /// Whether the stack, not ``maximumDepth``, stopped an evaluation: the one answer that
    /// depends on where the caller's stack stands (a stream then leaves the document to the tree).
    var stackExhausted = false
    /// Per `properties` node, the subschema of each member of the last object whose keys it
    /// read, and per `required` node whether the last such object had them all: objects of one
    /// shape share their keys' storage, so the next record of an array is answered without
    /// hashing a key (`[String]`'s `==` is one comparison for shared storage).
    var memberSchemas: [Int: (keys: [String], children: [Int])] = [:]
    var requiredMet: [Int: [String]] = [:]


    struct MemoKey: Hashable {
        var node: Int
        var location: Int
        var scope: Int
        var collect: Bool
    }

    init(
        nodes: [SchemaNode], resources: [SchemaResource], usesDynamicScope: Bool, instance: JSONValue, cap: Int, maximumDepth: Int, stack: StackGuard
    ) {
        self.instance = instance
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

    /// Records an error; past the cap, only counts it (the message and parameters are then never built).
    mutating func report(
        _ code: String, _ node: Int, keyword: String, _ message: @autoclosure () -> String,
        _ parameters: @autoclosure () -> KeyValuePairs<String, RuleParameter> = [:]
    ) {
        guard errors.count < cap else {
            truncated += 1
            return
        }
        var error = VettedError(code: VettedError.Code(code), path: instancePath(), message: message())
        // One dictionary, made at its final size: the rule's parameters and where in the schema.
        let given = parameters()
        var all = [String: RuleParameter](minimumCapacity: given.count + 1)
        for (name, value) in given { all[name] = value }
        all["schemaLocation"] = .string(
            SchemaNode.reportedLocation(nodes[node].escapedLocation, keyword, maximumBytes: SchemaNode.locationBytes, whole: nodes[node].schemaLocation))
        error.parameters = all
        errors.append(error)
    }

    /// `child` is `false` under `keyword` of `node`.
    @inline(never)
    mutating func reportNoValueAllowed(_ keyword: String, _ node: Int) {
        report(keyword, node, keyword: keyword, "\(keyword) allows no value here")
    }

    // MARK: Instance locations

    /// Evaluates `node` against `value`, a value of a stream handed over on its own: the
    /// locations the memo numbered belong to the last such value, so they are forgotten.
    mutating func evaluateDetached(_ node: Int, _ value: JSONValue, reporting: Bool) -> Bool {
        instance = value
        if tracksLocations, !memo.isEmpty { memo = [:] }
        return evaluate(node, value, reporting: reporting, collect: false).valid
    }

    /// Steps into the member or element at `position` of the current value; the location's
    /// number is kept only when some node is memoized.
    mutating func enter(_ position: Int) {
        path.append(position)
        if tracksLocations { locations.push(position) }
    }

    mutating func leave() {
        path.removeLast()
        if tracksLocations { locations.pop() }
    }

    /// The current location as a path of keys and indexes, read from the instance.
    private func instancePath() -> DocumentPath {
        var components: [DocumentPath.Component] = []
        var value = instance
        for position in path {
            switch value {
            case .object(let object) where position < Swift.min(object.keys.count, object.values.count):
                components.append(.key(object.keys[position]))
                value = object.values[position]
            case .array(let elements) where position < elements.count:
                components.append(.index(position))
                value = elements[position]
            default:
                components.append(.index(position))
            }
        }
        return DocumentPath(components)
    }

    // MARK: Evaluation

    /// Evaluates `node` against `instance` at the current location. With `reporting`, errors
    /// are recorded; without, the first failure ends the evaluation. With `collect`, the
    /// outcome carries what was evaluated.
    mutating func evaluate(_ node: Int, _ instance: JSONValue, reporting: Bool, collect: Bool) -> Outcome {
        if reporting, nodes[node].memoized {
            // A shared subschema: a quiet, memoized look first, so that however many paths
            // reach it, it is evaluated once per location, and reported only when invalid.
            let quiet = evaluate(node, instance, reporting: false, collect: collect)
            if quiet.valid || isFull { return quiet }
        }
        if let constant = nodes[node].constant {
            if !constant, reporting { reportFalse(node) }
            return constant ? .valid : .invalid
        }
        guard depth < maximumDepth, stack.hasRoom(atDepth: depth) else {
            reportDepthExceeded(node)
            return .invalid
        }
        let resource = nodes[node].resource
        let enteredResource = scope.last != resource
        if enteredResource { pushScope(resource) }
        defer { if enteredResource { popScope() } }
        if !reporting, nodes[node].memoized { return evaluateMemoized(node, instance, collect: collect) }
        return evaluateKeywords(node, instance, reporting: reporting, collect: collect || nodes[node].needsAnnotations)
    }

    // The rare paths and the memo in functions of their own: the recursive path's frames stay small.

    @inline(never)
    private mutating func evaluateMemoized(_ node: Int, _ instance: JSONValue, collect: Bool) -> Outcome {
        let key = MemoKey(node: node, location: locations.current, scope: scopes.current, collect: collect)
        if let known = memo[key] { return known }
        let outcome = evaluateKeywords(node, instance, reporting: false, collect: collect || nodes[node].needsAnnotations)
        memo[key] = outcome
        return outcome
    }

    @inline(never)
    mutating func reportFalse(_ node: Int) {
        report("false", node, keyword: "", "no value is allowed here")
    }

    @inline(never)
    mutating func reportDepthExceeded(_ node: Int) {
        if depth < maximumDepth { stackExhausted = true }
        guard !depthExceeded else { return }
        depthExceeded = true
        let maximum = maximumDepth
        // Which limit: the evaluations' count answers the same wherever it is called from; the
        // stack's (Limits.maxStackBytes) depends on how much of it the caller has used.
        let limit = depth < maximum ? "maxStackBytes" : "maximumEvaluationDepth"
        report(
            VettedError.Code.schemaDepthLimitExceeded.rawValue, node, keyword: "",
            "validation nested deeper than \(maximum) schemas or than the stack allows: a $ref cycle, or a schema and instance nested that deep",
            ["limit": .string(limit)])
    }

    /// The schema resource evaluated last entered.
    var currentResource: Int? { scope.last }

    mutating func pushScope(_ resource: Int) {
        scope.append(resource)
        if usesDynamicScope { scopes.push(resource) }
    }

    mutating func popScope() {
        scope.removeLast()
        if usesDynamicScope { scopes.pop() }
    }

    private mutating func evaluateKeywords(_ node: Int, _ instance: JSONValue, reporting: Bool, collect: Bool) -> Outcome {
        depth += 1
        defer { depth -= 1 }
        var valid = true
        var annotations = Annotations()
        for keyword in nodes[node].keywords {
            if !valid && !reporting { return .invalid }
            if isFull && reporting && !valid { return .invalid }
            let keywordValid = apply(keyword, node, instance, reporting: reporting, collect: collect, annotations: &annotations)
            if !keywordValid { valid = false }
        }
        return Outcome(valid: valid, annotations: valid && collect ? annotations : Annotations())
    }

    /// The subschema `child` applied in place; its annotations join `annotations` when valid.
    mutating func inPlace(_ child: Int, _ instance: JSONValue, reporting: Bool, collect: Bool, _ annotations: inout Annotations)
        -> Bool
    {
        let outcome = evaluate(child, instance, reporting: reporting, collect: collect)
        if outcome.valid, collect { annotations.merge(outcome.annotations) }
        return outcome.valid
    }

    /// The subschema `child` applied to a member or element of the instance.
    mutating func below(_ child: Int, _ position: Int, _ value: JSONValue, reporting: Bool, keyword: String, from node: Int) -> Bool {
        enter(position)
        defer { leave() }
        if reporting, nodes[child].constant == false {
            reportNoValueAllowed(keyword, node)
            return false
        }
        return evaluate(child, value, reporting: reporting, collect: false).valid
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
}
