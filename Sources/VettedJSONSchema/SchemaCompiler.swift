import Foundation
public import VettedCore
import VettedJSON
import VettedRules

extension VettedError.Code {
    /// A schema keyword whose value is not what the draft allows (`"minimum": "x"`).
    public static let invalidSchema = VettedError.Code("invalidSchema")
    /// A `$ref` or `$dynamicRef` that names nothing the schema or its resources hold.
    public static let unresolvableReference = VettedError.Code("unresolvableReference")
    /// A schema that declares a dialect or a required vocabulary Vetted does not implement.
    public static let unsupportedSchema = VettedError.Code("unsupportedSchema")
    /// Validation went deeper than ``JSONSchema/maximumEvaluationDepth`` without consuming the
    /// instance: a `$ref` cycle, or a schema nested that deep.
    public static let schemaDepthLimitExceeded = VettedError.Code("schemaDepthLimitExceeded")
}

/// Compiles schema documents into nodes, once: each schema object is read once, every
/// reference resolved before validation starts, nothing fetched.
struct SchemaCompiler {
    struct Document {
        var json: JSONValue
        /// Its URI as `schemaLocation` shows it: empty for the root document.
        var label: String
        var base: URIReference
        var draft: JSONSchemaDraft
        /// Whether the validation vocabulary is in force (a custom metaschema may leave it out).
        var validation = true
    }

    struct PendingReference {
        var node: Int
        var keyword: Int
        var reference: String
        var base: URIReference
        var dynamic: Bool
        var pointer: String
        /// The draft in force where the reference is: a document it loads defaults to it.
        var draft: JSONSchemaDraft
    }

    private(set) var documents: [Document] = []
    private(set) var nodes: [SchemaNode] = []
    private(set) var resources: [SchemaResource] = []
    private var resourceIndex: [String: Int] = [:]
    /// A resource's URI (no fragment) to its root: document and pointer.
    private var resourceRoots: [String: (document: Int, pointer: String)] = [:]
    /// `uri#anchor` to its node.
    private var anchors: [String: Int] = [:]
    /// Document index and canonical pointer to the node compiled there.
    private var nodeAt: [String: Int] = [:]
    private var pending: [PendingReference] = []
    private var applied: [Int] = []
    private var hasDynamicReferences = false
    /// The anchor names dynamic references resolve by (bookended ones).
    private var dynamicTargets: Set<String> = []
    private let provided: [String: JSONValue]
    private let formatAssertion: Bool
    /// Every schema object counts against this, so compiling is linear and bounded.
    private var budget: Int

    static let defaultBase = URIReference("https://vetted.invalid/schema.json")
    static let maximumNodes = 1_000_000

    init(resources: [String: JSONValue], formatAssertion: Bool) {
        var provided: [String: JSONValue] = [:]
        for (uri, document) in resources {
            provided[URIReference(uri).withoutFragment.description] = document
        }
        self.provided = provided
        self.formatAssertion = formatAssertion
        budget = Self.maximumNodes
    }

    /// Compiles the root document and everything it refers to; returns the root node.
    mutating func compileRoot(_ document: JSONValue, draft: JSONSchemaDraft) throws(VettedError) -> Int {
        let root = try loadDocument(document, label: "", base: Self.defaultBase, draft: draft)
        try resolvePending()
        for index in nodes.indices where applied[index] >= 2 { nodes[index].memoized = true }
        return root
    }

    var usesDynamicScope: Bool { hasDynamicReferences }

    // MARK: Documents and resources

    private mutating func loadDocument(_ json: JSONValue, label: String, base: URIReference, draft: JSONSchemaDraft) throws(VettedError)
        -> Int
    {
        var draft = Self.declaredDraft(of: json) ?? draft
        var validation = true
        if case .object(let object) = json, case .string(let uri)? = object["$schema"], JSONSchemaDraft(metaschema: uri) == nil {
            (draft, validation) = try vocabularies(of: uri, label: label)
        }
        documents.append(Document(json: json, label: label, base: base, draft: draft, validation: validation))
        let document = documents.count - 1
        let key = base.withoutFragment.description
        if resourceRoots[key] == nil { resourceRoots[key] = (document, "") }
        return try compile(json, document: document, pointer: "", base: base, draft: draft, depth: 0)
    }

    static let knownVocabularies: Set<String> = [
        "https://json-schema.org/draft/2020-12/vocab/core", "https://json-schema.org/draft/2020-12/vocab/applicator",
        "https://json-schema.org/draft/2020-12/vocab/unevaluated", "https://json-schema.org/draft/2020-12/vocab/validation",
        "https://json-schema.org/draft/2020-12/vocab/meta-data", "https://json-schema.org/draft/2020-12/vocab/format-annotation",
        "https://json-schema.org/draft/2020-12/vocab/format-assertion", "https://json-schema.org/draft/2020-12/vocab/content",
    ]

    /// A custom metaschema's dialect and whether it keeps the validation vocabulary.
    /// A vocabulary it requires that Vetted does not implement is an error, as the specification asks.
    private func vocabularies(of metaschema: String, label: String) throws(VettedError) -> (JSONSchemaDraft, Bool) {
        let key = URIReference(metaschema).withoutFragment.description
        let builtIn = try Metaschemas.document(key)
        guard let document = provided[key] ?? builtIn else {
            var error = VettedError(
                code: .unsupportedSchema, message: "\"$schema\" names \"\(Excerpt.escape(metaschema, maximumBytes: 120))\", a metaschema this schema's resources do not hold")
            error.parameters["schemaLocation"] = .string(Excerpt.escape(label.isEmpty ? "/$schema" : label + "#/$schema", maximumBytes: 200))
            throw error
        }
        let draft = Self.declaredDraft(of: document) ?? .draft2020_12
        guard case .object(let vocabulary)? = document["$vocabulary"] else { return (draft, true) }
        for member in vocabulary where member.value == .bool(true) && !Self.knownVocabularies.contains(member.key) {
            throw VettedError(
                code: .unsupportedSchema,
                message: "the metaschema requires the vocabulary \"\(Excerpt.escape(member.key, maximumBytes: 120))\", which Vetted does not implement")
        }
        return (draft, vocabulary["https://json-schema.org/draft/2020-12/vocab/validation"] != nil)
    }

    private static func declaredDraft(of json: JSONValue) -> JSONSchemaDraft? {
        guard case .object(let object) = json, case .string(let uri)? = object["$schema"] else { return nil }
        return JSONSchemaDraft(metaschema: uri)
    }

    private mutating func resourceNumber(_ uri: String) -> Int {
        if let index = resourceIndex[uri] { return index }
        resources.append(SchemaResource(uri: uri))
        resourceIndex[uri] = resources.count - 1
        return resources.count - 1
    }

    // MARK: Schema objects

    private func failure(_ message: String, at document: Int, _ pointer: String) -> VettedError {
        let label = documents[document].label
        let location = label.isEmpty ? pointer : label + "#" + pointer
        var error = VettedError(
            code: .invalidSchema, message: "schema at \"\(Excerpt.escape(location, maximumBytes: 120))\": \(message)")
        error.parameters["schemaLocation"] = .string(Excerpt.escape(location, maximumBytes: 200))
        return error
    }

    private mutating func compile(
        _ json: JSONValue, document: Int, pointer: String, base: URIReference, draft: JSONSchemaDraft, depth: Int
    ) throws(VettedError) -> Int {
        let locationKey = "\(document)\u{0}\(pointer)"
        if let existing = nodeAt[locationKey] { return existing }
        guard depth <= Limits.depthCeiling else { throw failure("nested deeper than \(Limits.depthCeiling) levels", at: document, pointer) }
        guard budget > 0 else { throw failure("more than \(Self.maximumNodes) schema objects", at: document, pointer) }
        budget -= 1
        let label = documents[document].label
        switch json {
        case .bool(let flag):
            nodes.append(SchemaNode(constant: flag, document: label, pointer: pointer, resource: resourceNumber(base.withoutFragment.description)))
            applied.append(0)
            nodeAt[locationKey] = nodes.count - 1
            return nodes.count - 1
        case .object(let object):
            return try compileObject(object, document: document, pointer: pointer, base: base, draft: draft, depth: depth)
        default:
            throw failure("a schema is an object or a Boolean, not \(json.kindName)", at: document, pointer)
        }
    }

    private mutating func compileObject(
        _ object: JSONObject, document: Int, pointer: String, base inherited: URIReference, draft inheritedDraft: JSONSchemaDraft,
        depth: Int
    ) throws(VettedError) -> Int {
        var draft = inheritedDraft
        if case .string(let uri)? = object["$schema"] {
            if let declared = JSONSchemaDraft(metaschema: uri) {
                draft = declared
            } else if provided[URIReference(uri).withoutFragment.description] == nil,
                try Metaschemas.document(URIReference(uri).withoutFragment.description) == nil
            {
                throw failure("\"$schema\" names a dialect Vetted does not implement", at: document, pointer)
            }
        }
        let referenceOnly = draft == .draft7 && object["$ref"] != nil
        var base = inherited
        var anchorNames: [String] = []
        if case .string(let id)? = object["$id"], !referenceOnly {
            let resolved = base.resolving(id)
            if draft == .draft7, id.hasPrefix("#") {
                anchorNames.append(String(id.dropFirst()))
            } else {
                base = resolved.withoutFragment
                let key = base.description
                if resourceRoots[key] == nil { resourceRoots[key] = (document, pointer) }
            }
        }
        let index = nodes.count
        nodes.append(
            SchemaNode(
                constant: nil, document: documents[document].label, pointer: pointer,
                resource: resourceNumber(base.withoutFragment.description)))
        applied.append(0)
        nodeAt["\(document)\u{0}\(pointer)"] = index
        let resourceKey = base.withoutFragment.description
        if draft == .draft2020_12 {
            if case .string(let name)? = object["$anchor"] { anchorNames.append(name) }
            if case .string(let name)? = object["$dynamicAnchor"] {
                anchorNames.append(name)
                nodes[index].dynamicAnchor = name
                resources[nodes[index].resource].dynamicAnchors[name] = index
            }
        }
        for name in anchorNames where anchors[resourceKey + "#" + name] == nil {
            anchors[resourceKey + "#" + name] = index
        }

        var context = Context(document: document, pointer: pointer, base: base, draft: draft, depth: depth + 1)
        var keywords: [Keyword] = []
        // Subschemas in locations only (`$defs`), compiled so their ids and anchors are known.
        for container in draft == .draft7 ? ["definitions", "$defs"] : ["$defs", "definitions"] {
            if case .object(let definitions)? = object[container] {
                for member in definitions {
                    _ = try child(member.value, [container, member.key], &context, applied: false)
                }
            }
        }
        try checkKeywordTypes(object, referenceOnly: referenceOnly, document: document, pointer: pointer)
        if case .string(let reference)? = object["$ref"] {
            pending.append(
                PendingReference(
                    node: index, keyword: keywords.count, reference: reference, base: base, dynamic: false, pointer: pointer + "/$ref",
                    draft: draft))
            keywords.append(.reference(target: -1, uri: reference))
        }
        if referenceOnly {
            nodes[index].keywords = keywords
            return index
        }
        if draft == .draft2020_12, case .string(let reference)? = object["$dynamicRef"] {
            hasDynamicReferences = true
            pending.append(
                PendingReference(
                    node: index, keyword: keywords.count, reference: reference, base: base, dynamic: true,
                    pointer: pointer + "/$dynamicRef", draft: draft))
            keywords.append(.dynamicReference(target: -1, anchor: nil, uri: reference))
        }
        try compileAssertions(object, into: &keywords, &context)
        try compileApplicators(object, into: &keywords, &context)
        keywords = Keyword.inEvaluationOrder(keywords)
        if keywords.contains(where: { if case .unevaluatedProperties = $0 { true } else if case .unevaluatedItems = $0 { true } else { false } }) {
            nodes[index].needsAnnotations = true
        }
        nodes[index].keywords = keywords
        return index
    }

    /// A keyword this compiler reads, with a value of the wrong JSON type, is an error: read
    /// as absent, it would be a check that silently never runs (`{"$ref": 5}`).
    private func checkKeywordTypes(_ object: JSONObject, referenceOnly: Bool, document: Int, pointer: String) throws(VettedError) {
        let strings = referenceOnly ? ["$ref"] : ["$ref", "$dynamicRef", "$id", "$anchor", "$dynamicAnchor", "$schema", "format"]
        for name in strings {
            if let value = object[name], value.stringValue == nil { throw failure("\"\(name)\" must be a string", at: document, pointer) }
        }
        guard !referenceOnly else { return }
        for name in ["properties", "patternProperties", "$defs", "definitions", "dependentRequired", "dependentSchemas", "dependencies"] {
            if let value = object[name], value.objectValue == nil { throw failure("\"\(name)\" must be an object", at: document, pointer) }
        }
        if let value = object["uniqueItems"], value.boolValue == nil { throw failure("\"uniqueItems\" must be a Boolean", at: document, pointer) }
    }

    struct Context {
        var document: Int
        var pointer: String
        var base: URIReference
        var draft: JSONSchemaDraft
        var depth: Int
    }

    static func escapeToken(_ token: String) -> String {
        guard token.contains("~") || token.contains("/") else { return token }
        return token.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }

    private mutating func child(_ json: JSONValue, _ tokens: [String], _ context: inout Context, applied isApplied: Bool = true)
        throws(VettedError) -> Int
    {
        var pointer = context.pointer
        for token in tokens { pointer += "/" + Self.escapeToken(token) }
        let index = try compile(json, document: context.document, pointer: pointer, base: context.base, draft: context.draft, depth: context.depth)
        if isApplied { applied[index] += 1 }
        return index
    }

    private func number(_ object: JSONObject, _ name: String, _ context: Context) throws(VettedError) -> ExactNumber? {
        guard let value = object[name] else { return nil }
        guard case .number(let number) = value else { throw failure("\"\(name)\" must be a number", at: context.document, context.pointer) }
        return ExactNumber(number)
    }

    private func count(_ object: JSONObject, _ name: String, _ context: Context) throws(VettedError) -> Int? {
        guard let value = object[name] else { return nil }
        guard case .number(let number) = value, ExactNumber(number).isInteger, !(ExactNumber(number) < .zero) else {
            throw failure("\"\(name)\" must be a non-negative integer", at: context.document, context.pointer)
        }
        // A count beyond any instance's size is as good as the largest Int.
        return ExactNumber(number).intValue ?? Int.max
    }

    private func strings(_ value: JSONValue, _ name: String, _ context: Context) throws(VettedError) -> [String] {
        guard case .array(let elements) = value else { throw failure("\"\(name)\" must be an array of strings", at: context.document, context.pointer) }
        var result: [String] = []
        for element in elements {
            guard case .string(let text) = element else {
                throw failure("\"\(name)\" must be an array of strings", at: context.document, context.pointer)
            }
            result.append(text)
        }
        return result
    }

    private mutating func compileAssertions(_ object: JSONObject, into keywords: inout [Keyword], _ context: inout Context) throws(VettedError) {
        guard documents[context.document].validation else { return }
        if let value = object["type"] {
            var set = TypeSet()
            let names: [String]
            if case .string(let name) = value { names = [name] } else { names = try strings(value, "type", context) }
            for name in names {
                guard let type = TypeSet(name: name) else { throw failure("\"type\" names no JSON type", at: context.document, context.pointer) }
                set.insert(type)
            }
            keywords.append(.type(set))
        }
        if let value = object["enum"] {
            guard case .array(let elements) = value else { throw failure("\"enum\" must be an array", at: context.document, context.pointer) }
            let strings = Set(elements.compactMap { element -> CodePoints? in if case .string(let text) = element { CodePoints(text) } else { nil } })
            keywords.append(.enumeration(Set(elements.map(CanonicalJSON.text)), strings: strings, count: elements.count))
        }
        if let value = object["const"] { keywords.append(.constant(CanonicalJSON.text(value))) }
        if let divisor = try number(object, "multipleOf", context) {
            guard ExactNumber.zero < divisor else { throw failure("\"multipleOf\" must be greater than 0", at: context.document, context.pointer) }
            guard divisor.isMultiple(of: divisor) != nil else {
                throw failure("\"multipleOf\" has more than 19 significant digits", at: context.document, context.pointer)
            }
            keywords.append(.multipleOf(divisor, literal: object["multipleOf"]?.description ?? ""))
        }
        do {
            if let maximum = try number(object, "maximum", context) {
                keywords.append(.maximum(maximum, literal: object["maximum"]?.description ?? "", exclusive: false))
            }
            if let minimum = try number(object, "minimum", context) {
                keywords.append(.minimum(minimum, literal: object["minimum"]?.description ?? "", exclusive: false))
            }
            if let maximum = try number(object, "exclusiveMaximum", context) {
                keywords.append(.maximum(maximum, literal: object["exclusiveMaximum"]?.description ?? "", exclusive: true))
            }
            if let minimum = try number(object, "exclusiveMinimum", context) {
                keywords.append(.minimum(minimum, literal: object["exclusiveMinimum"]?.description ?? "", exclusive: true))
            }
        }
        if let limit = try count(object, "maxLength", context) { keywords.append(.maxLength(limit)) }
        if let limit = try count(object, "minLength", context) { keywords.append(.minLength(limit)) }
        if let value = object["pattern"] {
            guard case .string(let source) = value else { throw failure("\"pattern\" must be a string", at: context.document, context.pointer) }
            keywords.append(.pattern(try SchemaPattern.compile(source, at: location(context, "pattern")), escaped: Excerpt.escape(source, maximumBytes: 200)))
        }
        if case .string(let format)? = object["format"], formatAssertion {
            keywords.append(.format(format))
        }
        if let limit = try count(object, "maxItems", context) { keywords.append(.maxItems(limit)) }
        if let limit = try count(object, "minItems", context) { keywords.append(.minItems(limit)) }
        if case .bool(true)? = object["uniqueItems"] { keywords.append(.uniqueItems) }
        if let limit = try count(object, "maxProperties", context) { keywords.append(.maxProperties(limit)) }
        if let limit = try count(object, "minProperties", context) { keywords.append(.minProperties(limit)) }
        if let value = object["required"] { keywords.append(.required(try strings(value, "required", context))) }
        var dependencies: [(String, [String])] = []
        let dependencyKeyword = context.draft == .draft7 ? "dependencies" : "dependentRequired"
        if case .object(let members)? = object[dependencyKeyword] {
            for member in members {
                if context.draft == .draft7, !(member.value.arrayValue != nil) { continue }
                dependencies.append((member.key, try strings(member.value, dependencyKeyword, context)))
            }
        }
        if !dependencies.isEmpty { keywords.append(.dependentRequired(dependencies)) }
    }

    private func location(_ context: Context, _ keyword: String) -> String {
        let label = documents[context.document].label
        let pointer = context.pointer + "/" + keyword
        return label.isEmpty ? pointer : label + "#" + pointer
    }

    private mutating func schemas(_ value: JSONValue, _ name: String, _ context: inout Context) throws(VettedError) -> [Int] {
        guard case .array(let elements) = value, !elements.isEmpty || name == "prefixItems" || name == "items" else {
            throw failure("\"\(name)\" must be a non-empty array of schemas", at: context.document, context.pointer)
        }
        var result: [Int] = []
        for (position, element) in elements.enumerated() {
            result.append(try child(element, [name, String(position)], &context))
        }
        return result
    }

    private mutating func compileApplicators(_ object: JSONObject, into keywords: inout [Keyword], _ context: inout Context) throws(VettedError) {
        if let value = object["allOf"] { keywords.append(.allOf(try schemas(value, "allOf", &context))) }
        if let value = object["anyOf"] { keywords.append(.anyOf(try schemas(value, "anyOf", &context))) }
        if let value = object["oneOf"] { keywords.append(.oneOf(try schemas(value, "oneOf", &context))) }
        if let value = object["not"] { keywords.append(.not(try child(value, ["not"], &context))) }
        if let value = object["if"] {
            let condition = try child(value, ["if"], &context)
            let then = try object["then"].map { value throws(VettedError) in try child(value, ["then"], &context) }
            let otherwise = try object["else"].map { value throws(VettedError) in try child(value, ["else"], &context) }
            keywords.append(.conditional(condition: condition, then: then, otherwise: otherwise))
        } else {
            // `then` and `else` without `if` do nothing, but may be a `$ref`'s target.
            for name in ["then", "else"] { if let value = object[name] { _ = try child(value, [name], &context, applied: false) } }
        }
        var dependentSchemas: [(String, Int)] = []
        let dependencyKeyword = context.draft == .draft7 ? "dependencies" : "dependentSchemas"
        if case .object(let members)? = object[dependencyKeyword] {
            for member in members {
                if context.draft == .draft7, member.value.arrayValue != nil { continue }
                dependentSchemas.append((member.key, try child(member.value, [dependencyKeyword, member.key], &context)))
            }
        }
        if !dependentSchemas.isEmpty { keywords.append(.dependentSchemas(dependentSchemas)) }

        var properties: [String: Int] = [:]
        var patterns: [(LinearPattern, String, Int)] = []
        var additional: Int?
        if case .object(let members)? = object["properties"] {
            for member in members { properties[member.key] = try child(member.value, ["properties", member.key], &context) }
        }
        if case .object(let members)? = object["patternProperties"] {
            for member in members {
                let pattern = try SchemaPattern.compile(
                    member.key, at: location(context, "patternProperties/" + Self.escapeToken(member.key)))
                patterns.append((pattern, member.key, try child(member.value, ["patternProperties", member.key], &context)))
            }
        }
        if let value = object["additionalProperties"] { additional = try child(value, ["additionalProperties"], &context) }
        if object["properties"] != nil || object["patternProperties"] != nil || additional != nil {
            keywords.append(.objectShape(properties: properties, patterns: patterns, additional: additional))
        }
        if let value = object["propertyNames"] { keywords.append(.propertyNames(try child(value, ["propertyNames"], &context))) }

        switch context.draft {
        case .draft2020_12:
            var prefix: [Int] = []
            if let value = object["prefixItems"] { prefix = try schemas(value, "prefixItems", &context) }
            let rest = try object["items"].map { value throws(VettedError) in try child(value, ["items"], &context) }
            if object["prefixItems"] != nil || rest != nil { keywords.append(.arrayShape(prefix: prefix, rest: rest, restKeyword: "items")) }
            if let value = object["contains"] {
                let contains = try child(value, ["contains"], &context)
                let minimum = try count(object, "minContains", context) ?? 1
                let maximum = try count(object, "maxContains", context)
                keywords.append(.contains(contains, minimum: minimum, maximum: maximum))
            }
            if let value = object["unevaluatedItems"] { keywords.append(.unevaluatedItems(try child(value, ["unevaluatedItems"], &context))) }
            if let value = object["unevaluatedProperties"] {
                keywords.append(.unevaluatedProperties(try child(value, ["unevaluatedProperties"], &context)))
            }
        case .draft7:
            if let value = object["items"] {
                if case .array = value {
                    let prefix = try schemas(value, "items", &context)
                    let rest = try object["additionalItems"].map { value throws(VettedError) in try child(value, ["additionalItems"], &context) }
                    keywords.append(.arrayShape(prefix: prefix, rest: rest, restKeyword: "additionalItems"))
                } else {
                    keywords.append(.arrayShape(prefix: [], rest: try child(value, ["items"], &context), restKeyword: "items"))
                }
            }
            if let value = object["contains"] { keywords.append(.contains(try child(value, ["contains"], &context), minimum: 1, maximum: nil)) }
        }
    }

    // MARK: References

    private mutating func resolvePending() throws(VettedError) {
        var next = 0
        while next < pending.count {
            let reference = pending[next]
            next += 1
            let target = try resolve(reference)
            applied[target] += 1
            switch nodes[reference.node].keywords[reference.keyword] {
            case .reference(_, let uri):
                nodes[reference.node].keywords[reference.keyword] = .reference(target: target, uri: uri)
            case .dynamicReference(_, _, let uri):
                let fragment = URIReference(reference.reference).fragment
                var anchor: String?
                // Dynamic only when the first target itself declares the same dynamic anchor ("bookending").
                if let fragment, !fragment.hasPrefix("/"), !fragment.isEmpty, nodes[target].dynamicAnchor == fragment {
                    anchor = fragment
                    dynamicTargets.insert(fragment)
                }
                nodes[reference.node].keywords[reference.keyword] = .dynamicReference(target: target, anchor: anchor, uri: uri)
            default:
                break
            }
        }
        pending.removeAll()
        // Any node a dynamic reference may reach is reached through more than one path: memoized.
        for index in nodes.indices where nodes[index].dynamicAnchor.map(dynamicTargets.contains) == true { applied[index] += 2 }
    }

    private func unresolvable(_ reference: PendingReference) -> VettedError {
        let label = documents.first?.label ?? ""
        let location = label.isEmpty ? reference.pointer : label + "#" + reference.pointer
        var error = VettedError(
            code: .unresolvableReference,
            message: "\"\(Excerpt.escape(reference.reference, maximumBytes: 120))\" names nothing this schema or its resources hold")
        error.parameters["reference"] = .string(Excerpt.escape(reference.reference, maximumBytes: 200))
        error.parameters["schemaLocation"] = .string(Excerpt.escape(location, maximumBytes: 200))
        return error
    }

    private mutating func resolve(_ reference: PendingReference) throws(VettedError) -> Int {
        let target = reference.base.resolving(reference.reference)
        let key = target.withoutFragment.description
        if resourceRoots[key] == nil {
            let builtIn = provided[key] == nil ? try Metaschemas.document(key) : nil
            guard let document = provided[key] ?? builtIn else { throw unresolvable(reference) }
            _ = try loadDocument(document, label: key, base: target.withoutFragment, draft: reference.draft)
        }
        guard let root = resourceRoots[key] else { throw unresolvable(reference) }
        let fragment = target.fragment ?? ""
        if fragment.isEmpty || fragment.hasPrefix("/") {
            guard let tokens = Self.pointerTokens(fragment) else { throw unresolvable(reference) }
            var pointer = root.pointer
            for token in tokens { pointer += "/" + Self.escapeToken(token) }
            if let node = nodeAt["\(root.document)\u{0}\(pointer)"] { return node }
            return try compileAt(document: root.document, pointer: pointer, reference)
        }
        guard let node = anchors[key + "#" + fragment] else { throw unresolvable(reference) }
        return node
    }

    /// A JSON Pointer fragment's tokens, percent-decoded and unescaped; `nil` if malformed.
    static func pointerTokens(_ fragment: String, percentEncoded: Bool = true) -> [String]? {
        guard let decoded = percentEncoded ? fragment.removingPercentEncoding : fragment else { return nil }
        if decoded.isEmpty { return [] }
        guard decoded.hasPrefix("/") else { return nil }
        return decoded.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map {
            $0.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
        }
    }

    /// Compiles the value a pointer names that no applicator reached (inside an unknown
    /// keyword, say), with the base URI and draft in force there.
    private mutating func compileAt(document: Int, pointer: String, _ reference: PendingReference) throws(VettedError) -> Int {
        guard let tokens = Self.pointerTokens(pointer, percentEncoded: false) else { throw unresolvable(reference) }
        var value = documents[document].json
        var base = documents[document].base
        var draft = documents[document].draft
        for token in tokens {
            if case .object(let object) = value {
                if case .string(let uri)? = object["$schema"], let declared = JSONSchemaDraft(metaschema: uri) { draft = declared }
                if case .string(let id)? = object["$id"], !(draft == .draft7 && (object["$ref"] != nil || id.hasPrefix("#"))) {
                    base = base.resolving(id).withoutFragment
                }
                guard let member = object[token] else { throw unresolvable(reference) }
                value = member
            } else if case .array(let elements) = value, let position = Int(token), elements.indices.contains(position) {
                value = elements[position]
            } else {
                throw unresolvable(reference)
            }
        }
        return try compile(value, document: document, pointer: pointer, base: base, draft: draft, depth: 0)
    }
}
