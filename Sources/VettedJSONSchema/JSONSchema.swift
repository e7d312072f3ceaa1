#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif
public import VettedCore
@_spi(Streaming) public import VettedJSON
public import VettedRules

/// A JSON Schema (draft 2020-12, or draft 7 when its `$schema` says so),
/// compiled once and used for any number of instances, from any number of tasks.
///
/// ```swift
/// let schema = try JSONSchema(#"{"type": "object", "properties": {"price": {"minimum": 0}}}"#)
/// let report = schema.validate(try JSONValue(parsing: #"{"price": -5}"#))
/// report.errors.first?.code       // minimum
/// report.errors.first?.path       // $.price
/// ```
///
/// Compiling reads the whole schema and resolves every `$ref` before the first
/// validation: a reference that names nothing is a compile error, never a
/// silently passing keyword. Other documents come only from `resources`; nothing
/// is ever fetched. Patterns run in linear time (``LinearPattern``); a pattern it
/// cannot read is a compile error.
public struct JSONSchema: Sendable {
    /// How a schema is compiled.
    public struct Options: Sendable, Hashable {
        /// The draft of a schema that does not say (`$schema`).
        public var defaultDraft: JSONSchemaDraft
        /// Whether `format` asserts (date-time, date, time, duration, email, hostname, ipv4,
        /// ipv6, uri, uri-reference, iri, iri-reference, uuid, json-pointer,
        /// relative-json-pointer, regex). Off by default: `format` is an annotation, as the
        /// specification says.
        public var assertFormats: Bool
        /// The limits the instance and schema texts are parsed with.
        public var limits: Limits

        public init(defaultDraft: JSONSchemaDraft = .draft2020_12, assertFormats: Bool = false, limits: Limits = .default) {
            self.defaultDraft = defaultDraft
            self.assertFormats = assertFormats
            self.limits = limits
        }
    }

    /// Schema evaluations nested in one another, at most this deep (a `$ref` cycle stops here).
    public static let maximumEvaluationDepth = 1_000

    let nodes: [SchemaNode]
    let resources: [SchemaResource]
    let root: Int
    let usesDynamicScope: Bool
    /// How a document validated from its bytes reads each node's objects and arrays.
    let streamPlans: [StreamPlan]
    let needsContent: [Bool]
    let stringChecks: [StringCheck?]
    let numberChecks: [NumberCheck?]
    public let options: Options

    /// Compiles `document`; other documents it refers to come from `resources`, keyed by absolute URI.
    ///
    /// - Throws: `VettedError` `invalidSchema` for a keyword with a value its draft does not
    ///   allow, `unresolvableReference` naming a `$ref` that resolves to nothing,
    ///   `invalidPattern` for a pattern that cannot be matched in linear time,
    ///   `unsupportedSchema` for a dialect Vetted does not implement.
    public init(_ document: JSONValue, resources: [String: JSONValue] = [:], options: Options = Options()) throws(VettedError) {
        var compiler = SchemaCompiler(resources: resources, formatAssertion: options.assertFormats)
        root = try compiler.compileRoot(document, draft: options.defaultDraft)
        nodes = compiler.nodes.map { node in
            var node = node
            node.escapeLocation(maximumBytes: SchemaNode.locationBytes)
            return node
        }
        self.resources = compiler.resources
        usesDynamicScope = compiler.usesDynamicScope
        streamPlans = StreamPlan.plans(compiler.nodes)
        needsContent = compiler.nodes.map(StreamPlan.needsContent)
        stringChecks = compiler.nodes.map { StringCheck($0, nodes: compiler.nodes) }
        numberChecks = compiler.nodes.map(NumberCheck.init)
        self.options = options
    }

    /// Parses `data` with the options' limits, then compiles it.
    public init(_ data: Data, resources: [String: JSONValue] = [:], options: Options = Options()) throws(VettedError) {
        try self.init(JSONParser(limits: options.limits).parse(data), resources: resources, options: options)
    }

    /// Parses `text` with the options' limits, then compiles it.
    public init(_ text: String, resources: [String: JSONValue] = [:], options: Options = Options()) throws(VettedError) {
        try self.init(JSONParser(limits: options.limits).parse(text), resources: resources, options: options)
    }

    /// Validates `instance`: every error up to the mode's cap, or the first.
    public func validate(_ instance: JSONValue, mode: ValidationMode = .collect) -> JSONSchemaReport {
        var evaluator = evaluator(for: instance, mode: mode)
        let valid = evaluator.evaluate(root, instance, reporting: true, collect: false).valid
        return Self.report(valid: valid, evaluator)
    }

    private func evaluator(for instance: JSONValue, mode: ValidationMode) -> SchemaEvaluator {
        let cap: Int
        switch mode {
        case .collect(let upTo): cap = Swift.max(1, upTo)
        case .failFast: cap = 1
        }
        return SchemaEvaluator(
            nodes: nodes, resources: resources, usesDynamicScope: usesDynamicScope, instance: instance, cap: cap, maximumDepth: Self.maximumEvaluationDepth,
            stack: StackGuard(budget: options.limits.maxStackBytes))
    }

    private static func report(valid: Bool, _ evaluator: SchemaEvaluator) -> JSONSchemaReport {
        var errors = evaluator.errors
        if !valid, errors.isEmpty {
            errors.append(VettedError(code: .internalInvariantViolated, message: "the instance is invalid but no keyword said why"))
        }
        return JSONSchemaReport(errors: errors, moreErrors: evaluator.truncated)
    }

    /// Validates `data` as it parses it, with the options' limits: the document is read
    /// once. A document that does not parse is one error, the parser's (code, offset,
    /// excerpt), whatever the schema says of what came before it. Each schema error carries
    /// the byte offset of the value it is about, its line and column and an excerpt. The
    /// errors are those ``validate(_:mode:)-(JSONValue,_)`` gives for the parsed value, in its order.
    public func validate(_ data: Data, mode: ValidationMode = .collect) -> JSONSchemaReport {
        validate(SourceText(data), mode: mode)
    }

    /// The same for bytes already in an array (a request body as read): no copy into `Data`.
    package func validate(bytes: [UInt8], mode: ValidationMode = .collect) -> JSONSchemaReport {
        validate(SourceText(bytes), mode: mode)
    }

    private func validate(_ source: SourceText, mode: ValidationMode) -> JSONSchemaReport {
        // A dynamic scope is read from the tree; so is a document that ran the stack out
        // (where the tree's own guard gives the answer).
        if !usesDynamicScope, let report = validateStreaming(source, mode: mode) { return report }
        return validateParsed(source, mode: mode)
    }

    /// The stream's answer, or `nil` when the stack ran out.
    private func validateStreaming(_ source: SourceText, mode: ValidationMode) -> JSONSchemaReport? {
        var stream = SchemaStream(evaluator: evaluator(for: .null, mode: mode), plans: streamPlans, needsContent: needsContent, stringChecks: stringChecks, numberChecks: numberChecks)
        let result = JSONPullReader.read(source, limits: options.limits) { (pull) throws(VettedError) -> Bool in
            try stream.value(root, &pull)
        }
        if stream.stackExhausted || stream.evaluator.stackExhausted { return nil }
        switch result {
        case .failure(let error):
            var report = JSONSchemaReport(errors: [error], moreErrors: 0)
            report.isWellFormed = false
            return report
        case .success(let valid):
            var report = Self.report(valid: valid, stream.evaluator)
            report.locate(in: source, known: stream.offsets)
            return report
        }
    }

    /// Parses `data` whole, then validates the value and locates its errors: the two steps
    /// ``validate(_:mode:)-(Data,_)`` does in one, for tests that compare them.
    @_spi(Testing) public func validateParsed(_ data: Data, mode: ValidationMode = .collect) -> JSONSchemaReport {
        validateParsed(SourceText(data), mode: mode)
    }

    /// Parses `source`, then validates the value.
    func validateParsed(_ source: SourceText, mode: ValidationMode) -> JSONSchemaReport {
        let instance: JSONValue
        do {
            instance = try JSONParser(limits: options.limits).parse(source)
        } catch {
            var report = JSONSchemaReport(errors: [error], moreErrors: 0)
            report.isWellFormed = false
            return report
        }
        var report = validate(instance, mode: mode)
        report.locate(in: source)
        return report
    }
}

/// What validating one instance found.
public struct JSONSchemaReport: Sendable, CustomStringConvertible {
    /// Every error found, up to the cap, in the order the schema's keywords met them.
    /// Each has the failing keyword as its code (`minimum`, `required`, …), the instance
    /// location as its path, and the schema location (a JSON Pointer) in
    /// `parameters["schemaLocation"]`.
    public internal(set) var errors: [VettedError]
    /// Errors found beyond the cap.
    public internal(set) var moreErrors: Int
    /// `false` when the instance's bytes did not parse: then ``errors`` holds the parser's one error.
    public internal(set) var isWellFormed = true

    init(errors: [VettedError], moreErrors: Int) {
        self.errors = errors
        self.moreErrors = moreErrors
    }

    /// Whether the instance is valid against the schema.
    public var isValid: Bool { errors.isEmpty }

    public var description: String {
        if isValid { return "valid" }
        var lines = errors.map(\.description)
        if moreErrors > 0 { lines.append("… and \(moreErrors) more") }
        return lines.joined(separator: "\n")
    }

    /// The report in the specification's `basic` output format.
    public var basicOutput: JSONValue {
        var output = JSONObject()
        output["valid"] = .bool(isValid)
        if !isValid {
            output["errors"] = .array(
                errors.map { error in
                    var unit = JSONObject()
                    unit["keywordLocation"] = .string(error.parameters["schemaLocation"]?.string ?? "")
                    unit["instanceLocation"] = .string(error.path.jsonPointer)
                    unit["error"] = .string(error.message)
                    return .object(unit)
                })
        }
        return .object(output)
    }

    /// Gives each error the byte offset of the value at its path in `source`: `known`, by
    /// error index, where the value's offset is known already, else found from the path.
    mutating func locate(in source: SourceText, known: [Int: Int] = [:]) {
        guard errors.contains(where: { $0.offset == nil }) else { return }
        var offsets = known
        if errors.indices.contains(where: { errors[$0].offset == nil && known[$0] == nil }) {
            offsets.merge(JSONLocator.offsets(of: errors.map(\.path), in: source)) { first, _ in first }
        }
        for index in errors.indices where errors[index].offset == nil {
            guard let offset = offsets[index] else { continue }
            errors[index].place(at: offset, in: source)
        }
        // Every line and column in one pass: asked one by one, each would count from the start.
        let lines = source.locations(of: errors.map { $0.offset ?? 0 })
        for index in errors.indices where errors[index].offset != nil { errors[index].setLocation(lines[index]) }
    }
}
