import VettedCore
@_spi(Streaming) import VettedJSON

/// How a stream reads an object or array that a node meets.
enum StreamPlan: Sendable {
    /// Whole: the value is built by the parser's loop and evaluated as a tree (what
    /// applies several subschemas to one value, or compares it whole).
    case whole
    /// A `$ref` and nothing else: its target reads the value.
    case reference(Int)
    /// Member by member, element by element: the node's keywords look at the value's
    /// first byte, its members or elements (each read by one subschema) and its end.
    /// `required` names each required property's slot (a name twice, one slot).
    case members(required: [String: Int])

    /// The plan of each node.
    static func plans(_ nodes: [SchemaNode]) -> [StreamPlan] {
        nodes.map { node in
            if node.keywords.count == 1, case .reference(let target, _) = node.keywords[0] { return .reference(target) }
            guard node.constant == nil, !node.needsAnnotations else { return .whole }
            var required: [String: Int] = [:]
            for keyword in node.keywords {
                switch keyword {
                case .type, .multipleOf, .maximum, .minimum, .maxLength, .minLength, .pattern, .format, .objectShape, .arrayShape,
                    .maxItems, .minItems, .maxProperties, .minProperties:
                    continue
                case .required(let names):
                    for name in names where required[name] == nil { required[name] = required.count }
                default:
                    return .whole
                }
            }
            return .members(required: required)
        }
    }

    /// Whether a string's content matters to `node` (not when it only checks the type).
    static func needsContent(_ node: SchemaNode) -> Bool {
        node.constant == nil && !node.keywords.allSatisfy { if case .type = $0 { true } else { false } }
    }
}

/// One validation of a document straight from its bytes: the parser's reader
/// (``JSONPullReader``) is walked beside the schema, so the document is read once.
/// Scalars are handed to the tree evaluator one at a time; an object or array is
/// read member by member where each member has one subschema (``StreamPlan``), and
/// built whole only where a node needs it whole. It mirrors ``SchemaEvaluator`` step
/// for step (the order of keywords, where it stops once the cap is reached), so a
/// document gives the errors its parsed value gives, each located as it is met.
struct SchemaStream {
    var evaluator: SchemaEvaluator
    let plans: [StreamPlan]
    let needsContent: [Bool]
    /// Inside a subschema evaluated quietly (a shared one met once the cap is reached):
    /// validity only, as the tree's quiet look.
    private var silent = 0
    /// The byte offset of each error met at a value the stream holds (by error index);
    /// errors inside a value built whole are located from their path afterwards.
    var offsets: [Int: Int] = [:]
    /// Whether the stack ran out (``Limits/maxStackBytes``) in the stream's own recursion.
    var stackExhausted = false

    init(evaluator: SchemaEvaluator, plans: [StreamPlan], needsContent: [Bool]) {
        self.evaluator = evaluator
        self.plans = plans
        self.needsContent = needsContent
    }

    private var nodes: [SchemaNode] { evaluator.nodes }
    private var reporting: Bool { silent == 0 }

    // MARK: Values

    /// Evaluates `node` against the next value of `pull` and reads past it.
    mutating func value(_ node: Int, _ pull: inout JSONPullReader) throws(VettedError) -> Bool {
        let kind = try pull.peek()
        let start = pull.offset
        guard kind == .object || kind == .array else {
            let scalar = try pull.readScalar(content: needsContent[node])
            return detached(node, scalar, at: start, pull)
        }
        if case .whole = plans[node] {
            let whole = try pull.readValue()
            return detached(node, whole, at: start, pull)
        }
        if reporting, nodes[node].memoized, evaluator.isFull {
            // The tree's quiet look, which then reports nothing.
            silent += 1
            defer { silent -= 1 }
            return try container(node, kind == .object, at: start, &pull)
        }
        return try container(node, kind == .object, at: start, &pull)
    }

    /// `node` evaluated by the tree against one value the stream has read.
    private mutating func detached(_ node: Int, _ value: JSONValue, at start: Int, _ pull: JSONPullReader) -> Bool {
        let mark = evaluator.errors.count
        let valid = evaluator.evaluateDetached(node, value, reporting: reporting)
        adopt(from: mark, at: start, pull)
        return valid
    }

    /// Gives the errors recorded since `mark` the path of the value just read (their own is
    /// inside it) and, for those about the value itself, its offset.
    private mutating func adopt(from mark: Int, at start: Int, _ pull: JSONPullReader) {
        guard evaluator.errors.count > mark else { return }
        let base = pull.path().components
        for index in mark..<evaluator.errors.count {
            let inner = evaluator.errors[index].path
            if inner.isEmpty { offsets[index] = start }
            evaluator.errors[index].path = DocumentPath(base + inner.components)
        }
    }

    /// An object or array under `node`: the checks ``SchemaEvaluator/evaluate(_:_:reporting:collect:)`` makes first.
    private mutating func container(_ node: Int, _ isObject: Bool, at start: Int, _ pull: inout JSONPullReader) throws(VettedError) -> Bool {
        if let constant = nodes[node].constant {
            if !constant, reporting {
                let mark = evaluator.errors.count
                evaluator.reportFalse(node)
                adopt(from: mark, at: start, pull)
            }
            try pull.skipValue()
            return constant
        }
        let depth = evaluator.depth
        guard depth < evaluator.maximumDepth else {
            if reporting {
                let mark = evaluator.errors.count
                evaluator.reportDepthExceeded(node)
                adopt(from: mark, at: start, pull)
            }
            try pull.skipValue()
            return false
        }
        guard evaluator.stack.hasRoom(atDepth: depth) else {
            stackExhausted = true
            throw Self.stackExhausted()
        }
        let resource = nodes[node].resource
        let enteredResource = evaluator.currentResource != resource
        if enteredResource { evaluator.pushScope(resource) }
        defer { if enteredResource { evaluator.popScope() } }
        evaluator.depth += 1
        defer { evaluator.depth -= 1 }
        switch plans[node] {
        case .reference(let target):
            return try reference(target, isObject, at: start, &pull)
        case .members(let required):
            return try keywords(node, isObject, required: required, at: start, &pull)
        case .whole:
            let whole = try pull.readValue()
            return detached(node, whole, at: start, pull)
        }
    }

    /// A `$ref`'s target, read as the tree reads it (`evaluate` with its memo's quiet look).
    private mutating func reference(_ target: Int, _ isObject: Bool, at start: Int, _ pull: inout JSONPullReader) throws(VettedError) -> Bool {
        if case .whole = plans[target] {
            let whole = try pull.readValue()
            return detached(target, whole, at: start, pull)
        }
        if reporting, nodes[target].memoized, evaluator.isFull {
            silent += 1
            defer { silent -= 1 }
            return try container(target, isObject, at: start, &pull)
        }
        return try container(target, isObject, at: start, &pull)
    }

    /// What a stack that ran out is: recorded, so the document goes to the tree.
    private static func stackExhausted() -> VettedError {
        VettedError(code: .internalInvariantViolated, message: "the stack ran out while validating from the bytes")
    }

    // MARK: Keywords

    /// The node's keywords in their order, the members or elements read where the first
    /// keyword that needs them stands (or after the last, unread).
    private mutating func keywords(
        _ node: Int, _ isObject: Bool, required: [String: Int], at start: Int, _ pull: inout JSONPullReader
    ) throws(VettedError) -> Bool {
        var valid = true
        var content: Content?
        for keyword in nodes[node].keywords {
            if !valid && (!reporting || evaluator.isFull) { break }
            switch keyword {
            case .type(let types):
                guard !types.contains(isObject ? .object : .array) else { continue }
                valid = false
                if reporting { report(at: start, pull) { $0.reportType(types, found: isObject ? "object" : "array", node) } }
            case .objectShape(let properties, let patterns, let additional) where isObject:
                let read = try members(node, required: required, shape: (properties, patterns, additional), &pull)
                content = read
                if !read.valid { valid = false }
            case .arrayShape(let prefix, let rest, let restKeyword) where !isObject:
                let read = try elements(node, shape: (prefix, rest, restKeyword), &pull)
                content = read
                if !read.valid { valid = false }
            case .maxItems(let limit) where !isObject, .maxProperties(let limit) where isObject:
                let read = try counted(&content, node, isObject, required: required, &pull)
                if read.count > limit {
                    valid = false
                    if reporting { report(at: start, pull) { $0.reportCount(isObject ? "maxProperties" : "maxItems", limit, node) } }
                }
            case .minItems(let limit) where !isObject, .minProperties(let limit) where isObject:
                let read = try counted(&content, node, isObject, required: required, &pull)
                if read.count < limit {
                    valid = false
                    if reporting { report(at: start, pull) { $0.reportCount(isObject ? "minProperties" : "minItems", limit, node) } }
                }
            case .required(let names) where isObject:
                let read = try counted(&content, node, isObject, required: required, &pull)
                for name in names where !(required[name].map { read.present.indices.contains($0) && read.present[$0] } ?? false) {
                    valid = false
                    guard reporting else { break }
                    report(at: start, pull) { $0.reportMissing(name, node) }
                }
            default:
                continue
            }
        }
        if content == nil { try pull.skipValue() }
        return valid
    }

    /// A report about the value at `start` (the container itself), placed there.
    private mutating func report(at start: Int, _ pull: JSONPullReader, _ make: (inout SchemaEvaluator) -> Void) {
        let mark = evaluator.errors.count
        make(&evaluator)
        adopt(from: mark, at: start, pull)
    }

    /// What reading an object's members or an array's elements found.
    struct Content {
        var valid = true
        var count = 0
        /// Per required slot, whether a member had its name.
        var present: [Bool] = []
    }

    /// The members or elements already read, or read now only to be counted (and the required names seen).
    private mutating func counted(
        _ content: inout Content?, _ node: Int, _ isObject: Bool, required: [String: Int], _ pull: inout JSONPullReader
    ) throws(VettedError) -> Content {
        if let content { return content }
        let read = isObject ? try members(node, required: required, shape: nil, &pull) : try elements(node, shape: nil, &pull)
        content = read
        return read
    }

    private typealias ObjectShape = (properties: [String: Int], patterns: [(LinearPattern, String, Int)], additional: Int?)

    /// Reads an object's members: each by the subschema `properties`, `patternProperties` or
    /// `additionalProperties` gives it (as ``SchemaEvaluator/applyObjectShape``), noting the required names.
    private mutating func members(_ node: Int, required: [String: Int], shape: ObjectShape?, _ pull: inout JSONPullReader) throws(VettedError) -> Content {
        var content = Content(present: Array(repeating: false, count: required.count))
        guard try pull.open() else { return content }
        var children: [(child: Int, keyword: String)] = []
        repeat {
            content.count += 1
            let needsKey = shape != nil || !required.isEmpty
            let key = needsKey ? pull.key() : ""
            if !required.isEmpty, let slot = required[key], content.present.indices.contains(slot) { content.present[slot] = true }
            guard let shape, content.valid || reporting else {
                _ = try pull.peek()
                try pull.skipValue()
                continue
            }
            children.removeAll(keepingCapacity: true)
            if let child = shape.properties[key] { children.append((child, "properties")) }
            for (pattern, _, child) in shape.patterns where pattern.matches(key) { children.append((child, "patternProperties")) }
            if children.isEmpty, let additional = shape.additional { children.append((additional, "additionalProperties")) }
            if !(try below(children, node, &pull)) { content.valid = false }
        } while try pull.next()
        return content
    }

    private typealias ArrayShape = (prefix: [Int], rest: Int?, restKeyword: String)

    /// Reads an array's elements, each by its `prefixItems` or `items` subschema (as ``SchemaEvaluator/applyArrayShape``).
    private mutating func elements(_ node: Int, shape: ArrayShape?, _ pull: inout JSONPullReader) throws(VettedError) -> Content {
        var content = Content()
        guard try pull.open() else { return content }
        repeat {
            let position = content.count
            content.count += 1
            guard let shape, content.valid || reporting else {
                _ = try pull.peek()
                try pull.skipValue()
                continue
            }
            let child: (child: Int, keyword: String)?
            if position < shape.prefix.count {
                child = (shape.prefix[position], shape.restKeyword == "items" && !shape.prefix.isEmpty ? "prefixItems" : "items")
            } else if let rest = shape.rest {
                child = (rest, shape.restKeyword)
            } else {
                child = nil
            }
            if !(try below(child.map { [$0] } ?? [], node, &pull)) { content.valid = false }
        } while try pull.next()
        return content
    }

    /// The next value under each of `children` (as ``SchemaEvaluator/below``): read by the
    /// one, or built whole for several.
    private mutating func below(_ children: [(child: Int, keyword: String)], _ node: Int, _ pull: inout JSONPullReader) throws(VettedError) -> Bool {
        _ = try pull.peek()
        let start = pull.offset
        guard children.count == 1 else {
            guard !children.isEmpty else {
                try pull.skipValue()
                return true
            }
            let whole = try pull.readValue()
            var valid = true
            for (child, keyword) in children {
                if !valid && !reporting { break }
                if reporting, nodes[child].constant == false {
                    report(at: start, pull) { $0.reportNoValueAllowed(keyword, node) }
                    valid = false
                } else if !detached(child, whole, at: start, pull) {
                    valid = false
                }
            }
            return valid
        }
        let (child, keyword) = children[0]
        if reporting, nodes[child].constant == false {
            report(at: start, pull) { $0.reportNoValueAllowed(keyword, node) }
            try pull.skipValue()
            return false
        }
        return try value(child, &pull)
    }
}
