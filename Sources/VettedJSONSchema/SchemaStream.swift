import VettedCore
@_spi(Streaming) import VettedJSON

/// The names of a node's `required`, each a slot (a name twice, one slot).
struct RequiredSlots: Sendable {
    var slots: [String: Int] = [:]
    /// The slot of each name of `required`, in its order.
    var order: [Int] = []
    var isEmpty: Bool { slots.isEmpty }
}

/// How a stream reads an object or array that a node meets.
enum StreamPlan: Sendable {
    /// Whole: the value is built by the parser's loop and evaluated as a tree (what
    /// applies several subschemas to one value, or compares it whole).
    case whole
    /// A `$ref` and nothing else: its target reads the value.
    case reference(Int)
    /// Member by member, element by element: the node's keywords look at the value's
    /// first byte, its members or elements (each read by one subschema) and its end.
    case members(required: RequiredSlots)

    /// The plan of each node.
    static func plans(_ nodes: [SchemaNode]) -> [StreamPlan] {
        nodes.map { node in
            if node.keywords.count == 1, case .reference(let target, _) = node.keywords[0] { return .reference(target) }
            guard node.constant == nil, !node.needsAnnotations else { return .whole }
            var required = RequiredSlots()
            for keyword in node.keywords {
                switch keyword {
                case .type, .multipleOf, .maximum, .minimum, .maxLength, .minLength, .pattern, .format, .objectShape, .arrayShape,
                    .maxItems, .minItems, .maxProperties, .minProperties:
                    continue
                case .required(let names):
                    for name in names {
                        if required.slots[name] == nil { required.slots[name] = required.slots.count }
                        required.order.append(required.slots[name] ?? 0)
                    }
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

/// A node that looks at a number only for its type and integer bounds: a number written
/// as a short integer that passes is never made into a literal.
struct NumberCheck: Sendable {
    var minimums: [(Int, exclusive: Bool)] = []
    var maximums: [(Int, exclusive: Bool)] = []

    init?(_ node: SchemaNode) {
        guard node.constant == nil, !node.memoized else { return nil }
        for keyword in node.keywords {
            switch keyword {
            case .type(let types) where types.contains(.number) || types.contains(.integer): continue
            case .minimum(let limit, _, let exclusive):
                guard let small = limit.small else { return nil }
                minimums.append((small, exclusive))
            case .maximum(let limit, _, let exclusive):
                guard let small = limit.small else { return nil }
                maximums.append((small, exclusive))
            // Keywords about other kinds of value pass every number.
            case .maxLength, .minLength, .pattern, .maxItems, .minItems, .maxProperties, .minProperties, .required, .objectShape, .arrayShape:
                continue
            default: return nil
            }
        }
    }

    /// Whether the integer `value` passes (an integer is a number and an integer to `type`).
    func passes(_ value: Int) -> Bool {
        minimums.allSatisfy { $0.exclusive ? value > $0.0 : value >= $0.0 } && maximums.allSatisfy { $0.exclusive ? value < $0.0 : value <= $0.0 }
    }
}

/// A node that looks at a string only for its type and length: a string whose bytes
/// show it passes is never decoded.
struct StringCheck: Sendable {
    var minimum = 0
    var maximum = Int.max
    /// Patterns the string must match, and sets of strings it must be one of (`enum`): these
    /// need its text, decoded once.
    var patterns: [LinearPattern] = []
    var allowed: [Set<CodePoints>] = []
    /// How many `$ref`s the check followed: the evaluator would go that many levels deeper.
    var hops = 0

    /// Most `$ref`s followed from one node: past it, the evaluator decides.
    static let maximumHops = 8

    /// The check of `node`, when that is all it does to a string (and it allows strings):
    /// its type, length, `pattern` and `enum`, through the plain `$ref`s it makes.
    init?(_ node: SchemaNode, nodes: [SchemaNode]) {
        // A node has at most one `$ref`: the chain is followed one node at a time.
        var next: SchemaNode? = node
        while let current = next {
            next = nil
            guard current.constant == nil, !current.memoized else { return nil }
            for keyword in current.keywords {
                switch keyword {
                case .type(let types) where types.contains(.string): continue
                case .minLength(let limit): minimum = Swift.max(minimum, limit)
                case .maxLength(let limit): maximum = Swift.min(maximum, limit)
                case .pattern(let pattern, _): patterns.append(pattern)
                case .enumeration(_, let strings, _): allowed.append(strings)
                case .reference(let target, _):
                    // Evaluated in place at one level deeper, as the evaluator does.
                    guard hops < Self.maximumHops, next == nil, nodes.indices.contains(target) else { return nil }
                    hops += 1
                    next = nodes[target]
                // Keywords about other kinds of value pass every string.
                case .multipleOf, .maximum, .minimum, .maxItems, .minItems, .maxProperties, .minProperties, .required, .objectShape, .arrayShape:
                    continue
                default: return nil
                }
            }
        }
    }

    /// Whether the check needs the string's text (a pattern or an `enum`), not only its bytes.
    var needsText: Bool { !patterns.isEmpty || !allowed.isEmpty }

    /// Whether a string passes for certain, from its bytes as written (as ``SchemaEvaluator``
    /// decides it from its characters): a plain ASCII string has as many characters as bytes;
    /// any other has at most as many, and at least one for every 12 (`\\uD83D\\uDE00` is 12 bytes,
    /// one character). `false` when the bytes do not decide.
    func passes(_ span: JSONPullReader.StringSpan) -> Bool {
        let bytes = span.byteCount
        let fewest = span.isPlainASCII ? bytes : bytes / 12
        return fewest >= minimum && bytes <= maximum
    }

    /// Whether `text` matches every pattern and is in every `enum`, as the evaluator decides them.
    func passes(_ text: String) -> Bool {
        for pattern in patterns where !pattern.matches(text) { return false }
        guard !allowed.isEmpty else { return true }
        let probe = CodePoints(probe: text)
        return allowed.allSatisfy { $0.contains(probe) }
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
    let stringChecks: [StringCheck?]
    let numberChecks: [NumberCheck?]
    let nodes: [SchemaNode]
    /// Inside a subschema evaluated quietly (a shared one met once the cap is reached):
    /// validity only, as the tree's quiet look.
    private var silent = 0
    /// The byte offset of each error met at a value the stream holds (by error index);
    /// errors inside a value built whole are located from their path afterwards.
    var offsets: [Int: Int] = [:]
    /// Whether the stack ran out (``Limits/maxStackBytes``) in the stream's own recursion.
    var stackExhausted = false
    /// Per node, what the member at each position of the last object it read was: its
    /// key's fingerprint, its subschemas and its required slot. Records of one shape are
    /// read without making or hashing a key.
    private var known: [[KnownMember]]

    struct KnownMember {
        var key: JSONPullReader.KeyFingerprint?
        var children: [(child: Int, keyword: String)]
        var slot: Int?
    }

    /// Positions of an object remembered per node.
    static let knownPositions = 64

    init(evaluator: SchemaEvaluator, plans: [StreamPlan], needsContent: [Bool], stringChecks: [StringCheck?], numberChecks: [NumberCheck?]) {
        self.evaluator = evaluator
        self.plans = plans
        self.needsContent = needsContent
        self.stringChecks = stringChecks
        self.numberChecks = numberChecks
        nodes = evaluator.nodes
        known = Array(repeating: [], count: evaluator.nodes.count)
    }

    private var reporting: Bool { silent == 0 }

    // MARK: Values

    /// Evaluates `node` against the next value of `pull` and reads past it.
    mutating func value(_ node: Int, _ pull: inout JSONPullReader) throws(VettedError) -> Bool {
        let kind = try pull.peek()
        let start = pull.offset
        if kind == .string, let check = stringChecks[node] {
            let span = try pull.readStringSpan()
            // What `evaluate` would decide without a word: in depth (through the `$ref`s the
            // check followed), a string that passes.
            let depth = evaluator.depth + check.hops
            let inDepth = check.passes(span) && depth < evaluator.maximumDepth && evaluator.stack.hasRoom(atDepth: depth)
            guard check.needsText else {
                return inDepth ? true : detached(node, .string(pull.string(span)), at: start, &pull)
            }
            let text = pull.string(span)
            if inDepth, check.passes(text) { return true }
            return detached(node, .string(text), at: start, &pull)
        }
        if kind == .number, let check = numberChecks[node] {
            let span = try pull.readNumberSpan()
            let depth = evaluator.depth
            if let value = span.smallInteger, check.passes(value), depth < evaluator.maximumDepth, evaluator.stack.hasRoom(atDepth: depth) {
                return true
            }
            return detached(node, pull.number(span), at: start, &pull)
        }
        guard kind == .object || kind == .array else {
            let scalar = try pull.readScalar(content: needsContent[node])
            return detached(node, scalar, at: start, &pull)
        }
        return try object(node, kind == .object, at: start, &pull)
    }

    /// `node` evaluated by the tree against one value the stream has read.
    private mutating func detached(_ node: Int, _ value: JSONValue, at start: Int, _ pull: inout JSONPullReader) -> Bool {
        let mark = evaluator.errors.count
        let valid = evaluator.evaluateDetached(node, value, reporting: reporting)
        adopt(from: mark, at: start, &pull)
        return valid
    }

    /// Gives the errors recorded since `mark` the path of the value just read (their own is
    /// inside it) and, for those about the value itself, its offset.
    private mutating func adopt(from mark: Int, at start: Int, _ pull: inout JSONPullReader) {
        guard evaluator.errors.count > mark else { return }
        let base = pull.path()
        for index in mark..<evaluator.errors.count {
            let inner = evaluator.errors[index].path
            if inner.isEmpty {
                if offsets.isEmpty { offsets.reserveCapacity(8) }
                offsets[index] = start
                evaluator.errors[index].path = base
            } else {
                evaluator.errors[index].path = DocumentPath(base.components + inner.components)
            }
        }
    }

    /// An object or array under `node`: the checks ``SchemaEvaluator/evaluate(_:_:reporting:collect:)`` makes first.
    private mutating func container(_ node: Int, _ isObject: Bool, at start: Int, _ pull: inout JSONPullReader) throws(VettedError) -> Bool {
        if let constant = nodes[node].constant {
            if !constant, reporting {
                let mark = evaluator.errors.count
                evaluator.reportFalse(node)
                adopt(from: mark, at: start, &pull)
            }
            try pull.skipValue()
            return constant
        }
        let depth = evaluator.depth
        guard depth < evaluator.maximumDepth else {
            if reporting {
                let mark = evaluator.errors.count
                evaluator.reportDepthExceeded(node)
                adopt(from: mark, at: start, &pull)
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
            return try object(target, isObject, at: start, &pull)
        case .members(let required):
            return try keywords(node, isObject, required: required, at: start, &pull)
        case .whole:
            let whole = try pull.readValue()
            return detached(node, whole, at: start, &pull)
        }
    }

    /// An object or array under `node` (the value's own, or a `$ref`'s target), as the tree's
    /// `evaluate` reads it: whole for a node that needs it whole; quietly for a shared node
    /// met once the cap is reached (the memo's quiet look, which then reports nothing).
    private mutating func object(_ node: Int, _ isObject: Bool, at start: Int, _ pull: inout JSONPullReader) throws(VettedError) -> Bool {
        if case .whole = plans[node] {
            let whole = try pull.readValue()
            return detached(node, whole, at: start, &pull)
        }
        if reporting, nodes[node].memoized, evaluator.isFull {
            silent += 1
            defer { silent -= 1 }
            return try container(node, isObject, at: start, &pull)
        }
        return try container(node, isObject, at: start, &pull)
    }

    /// What a stack that ran out is: recorded, so the document goes to the tree.
    private static func stackExhausted() -> VettedError {
        VettedError(code: .internalInvariantViolated, message: "the stack ran out while validating from the bytes")
    }

    // MARK: Keywords

    /// The node's keywords in their order, the members or elements read where the first
    /// keyword that needs them stands (or after the last, unread).
    private mutating func keywords(
        _ node: Int, _ isObject: Bool, required: RequiredSlots, at start: Int, _ pull: inout JSONPullReader
    ) throws(VettedError) -> Bool {
        var valid = true
        var content: Content?
        for keyword in nodes[node].keywords {
            if !valid && (!reporting || evaluator.isFull) { break }
            switch keyword {
            case .type(let types):
                guard !types.contains(isObject ? .object : .array) else { continue }
                valid = false
                if reporting { report(at: start, &pull) { $0.reportType(types, found: isObject ? "object" : "array", node) } }
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
                    if reporting { report(at: start, &pull) { $0.reportCount(isObject ? "maxProperties" : "maxItems", limit, node) } }
                }
            case .minItems(let limit) where !isObject, .minProperties(let limit) where isObject:
                let read = try counted(&content, node, isObject, required: required, &pull)
                if read.count < limit {
                    valid = false
                    if reporting { report(at: start, &pull) { $0.reportCount(isObject ? "minProperties" : "minItems", limit, node) } }
                }
            case .required(let names) where isObject:
                let read = try counted(&content, node, isObject, required: required, &pull)
                for (position, name) in names.enumerated() where !(required.order.indices.contains(position) && read.isPresent(required.order[position])) {
                    valid = false
                    guard reporting else { break }
                    report(at: start, &pull) { $0.reportMissing(name, node) }
                }
            default:
                continue
            }
        }
        if content == nil { try pull.skipValue() }
        return valid
    }

    /// A report about the value at `start` (the container itself), placed there.
    private mutating func report(at start: Int, _ pull: inout JSONPullReader, _ make: (inout SchemaEvaluator) -> Void) {
        let mark = evaluator.errors.count
        make(&evaluator)
        adopt(from: mark, at: start, &pull)
    }

    /// What reading an object's members or an array's elements found.
    struct Content {
        var valid = true
        var count = 0
        /// Per required slot, whether a member had its name: a bit for each of the first 64, then an array.
        private var bits: UInt64 = 0
        private var more: [Bool] = []

        init(slots: Int = 0) {
            if slots > 64 { more = Array(repeating: false, count: slots - 64) }
        }

        mutating func present(_ slot: Int) {
            if slot < 64 {
                bits |= 1 << UInt64(slot)
            } else if more.indices.contains(slot - 64) {
                more[slot - 64] = true
            }
        }

        func isPresent(_ slot: Int) -> Bool {
            slot < 64 ? bits & (1 << UInt64(slot)) != 0 : more.indices.contains(slot - 64) && more[slot - 64]
        }
    }

    /// The members or elements already read, or read now only to be counted (and the required names seen).
    private mutating func counted(
        _ content: inout Content?, _ node: Int, _ isObject: Bool, required: RequiredSlots, _ pull: inout JSONPullReader
    ) throws(VettedError) -> Content {
        if let content { return content }
        let read = isObject ? try members(node, required: required, shape: nil, &pull) : try elements(node, shape: nil, &pull)
        content = read
        return read
    }

    private typealias ObjectShape = (properties: [String: Int], patterns: [(LinearPattern, String, Int)], additional: Int?)

    /// Reads an object's members: each by the subschema `properties`, `patternProperties` or
    /// `additionalProperties` gives it (as ``SchemaEvaluator/applyObjectShape``), noting the required names.
    private mutating func members(_ node: Int, required: RequiredSlots, shape: ObjectShape?, _ pull: inout JSONPullReader) throws(VettedError) -> Content {
        var content = Content(slots: required.slots.count)
        guard try pull.open() else { return content }
        let needsKey = shape != nil || !required.isEmpty
        repeat {
            let position = content.count
            content.count += 1
            guard needsKey else {
                _ = try pull.peek()
                try pull.skipValue()
                continue
            }
            let member = self.member(at: position, node, required: required, shape: shape, &pull)
            if let slot = member.slot { content.present(slot) }
            guard shape != nil, content.valid || reporting else {
                _ = try pull.peek()
                try pull.skipValue()
                continue
            }
            if !(try below(member.children, node, &pull)) { content.valid = false }
        } while try pull.next()
        return content
    }

    /// The subschemas and required slot of the member being read (its key known again from
    /// the last object `node` read, when it sat at the same position).
    private mutating func member(at position: Int, _ node: Int, required: RequiredSlots, shape: ObjectShape?, _ pull: inout JSONPullReader) -> KnownMember {
        var fingerprint: JSONPullReader.KeyFingerprint?
        if position < Self.knownPositions, let print = pull.keyFingerprint() {
            if position < known[node].count, known[node][position].key == print { return known[node][position] }
            fingerprint = print
        }
        let key = pull.key()
        var children: [(child: Int, keyword: String)] = []
        if let shape {
            if let child = shape.properties[key] { children.append((child, "properties")) }
            for (pattern, _, child) in shape.patterns where pattern.matches(key) { children.append((child, "patternProperties")) }
            if children.isEmpty, let additional = shape.additional { children.append((additional, "additionalProperties")) }
        }
        let member = KnownMember(key: fingerprint, children: children, slot: required.slots[key])
        if fingerprint != nil {
            if position < known[node].count {
                known[node][position] = member
            } else if position == known[node].count {
                known[node].append(member)
            }
        }
        return member
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
                    report(at: start, &pull) { $0.reportNoValueAllowed(keyword, node) }
                    valid = false
                } else if !detached(child, whole, at: start, &pull) {
                    valid = false
                }
            }
            return valid
        }
        let (child, keyword) = children[0]
        if reporting, nodes[child].constant == false {
            report(at: start, &pull) { $0.reportNoValueAllowed(keyword, node) }
            try pull.skipValue()
            return false
        }
        return try value(child, &pull)
    }
}
