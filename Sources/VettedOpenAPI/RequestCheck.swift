#if OpenAPI  // the trait that brings in swift-openapi-runtime and Yams (Package.swift)
import Foundation
public import HTTPTypes
public import Vetted

extension OpenAPIContract {
    /// Checks one request against its operation: the body against the schema of its media
    /// type, and the path, query, header and cookie parameters against theirs, every error
    /// up to ``Options/maxErrors``.
    ///
    /// Returns the body to hand on — `body` itself, or with `applyDefaults` the body with
    /// each absent property that has a `default` filled in (and validated again) — or the
    /// problem to answer: 400 for a body that is not JSON, 415 for a media type the operation
    /// does not take, 422 for a body or parameter that breaks its schema (one entry per
    /// error; a parameter's entries point into `/path`, `/query`, `/header` or `/cookie`,
    /// as `/query/limit`), and 500 for an operation the document does not have (the server's
    /// fault: the generated code and the document disagree).
    public func check(
        operationID: String, request: HTTPRequest, pathParameters: [String: Substring] = [:], body: [UInt8]?, applyDefaults: Bool = false
    ) -> Result<[UInt8]?, VettedProblem> {
        guard let operation = operations[operationID] else {
            let error = VettedError(
                code: .invalidOpenAPIDocument, message: "operation \(Excerpt.escape(operationID, maximumBytes: 80)) is not in the contract's document")
            return .failure(VettedProblem(details: ProblemDetails.serverFault, underlying: error))
        }
        var entries: [ProblemDetails.Entry] = []
        var more = 0
        // The query and cookies are split only for an operation that has parameters.
        if !operation.parameters.isEmpty {
            let values = ParameterValues(request: request, pathParameters: pathParameters)
            for parameter in operation.parameters {
                guard entries.count < options.maxErrors else { break }
                switch values.value(of: parameter, limits: options.limits) {
                case .missing:
                    if parameter.required { entries.append(Self.missing(parameter)) }
                case .malformed:
                    let error = VettedError(code: .malformedParameter, message: "the \(parameter.location.rawValue) parameter is not percent-encoded correctly")
                    return .failure(Self.problem(.syntax, [Self.entry(error, parameter, stage: .syntax)], more: 0, underlying: error))
                case .value(let value):
                    guard let schema = parameter.schema else { continue }
                    let report = schema.validate(value, mode: .collect(upTo: Swift.max(1, options.maxErrors - entries.count)))
                    entries += report.errors.map { Self.entry($0, parameter, stage: .rules) }
                    more += report.moreErrors
                }
            }
        }
        var handedOn = body
        if let spec = operation.body {
            switch checkBody(spec, request: request, body: body, applyDefaults: applyDefaults, room: Swift.max(1, options.maxErrors - entries.count)) {
            case .failure(let problem): return .failure(problem)
            case .success(let outcome):
                entries += outcome.entries
                more += outcome.more
                if let filled = outcome.filled { handedOn = filled }
            }
        }
        guard entries.isEmpty else {
            let error = VettedError(code: .invalidOpenAPIDocument, message: "the request breaks its operation's schemas")
            return .failure(Self.problem(.rules, entries, more: more, underlying: error))
        }
        return .success(handedOn)
    }

    /// What is wrong with a response the handler produced, or `nil` when it keeps the document's
    /// word: its status listed for the operation (exactly, as `2XX`, or as `default`), its
    /// media type declared there, and a JSON body valid against that media type's schema.
    public func checkResponse(operationID: String, response: HTTPResponse, body: [UInt8]?) -> ValidationErrors? {
        guard let operation = operations[operationID] else {
            return ValidationErrors(errors: [VettedError(code: .invalidOpenAPIDocument, message: "operation \(Excerpt.escape(operationID, maximumBytes: 80)) is not in the contract's document")])
        }
        let code = response.status.code
        guard let media = operation.responses[String(code)] ?? operation.responses["\(code / 100)XX"] ?? operation.responses["default"] else {
            return ValidationErrors(errors: [VettedError(code: .undocumentedResponse, message: "status \(code) is not a response the document lists for this operation")])
        }
        let bytes = body ?? []
        if media.isEmpty {
            guard bytes.isEmpty else {
                return ValidationErrors(errors: [VettedError(code: .undocumentedResponse, message: "status \(code) has a body, which the document does not declare")])
            }
            return nil
        }
        let contentType = response.headerFields[.contentType]
        guard let declared = media.match(contentType) else {
            let given = contentType.map { Excerpt.escape($0) } ?? "no media type"
            return ValidationErrors(errors: [VettedError(code: .undocumentedResponse, message: "status \(code) is \(given), which the document does not declare for it")])
        }
        guard declared.isJSON, let schema = declared.schema else { return nil }
        let report = schema.validate(bytes: bytes, mode: .collect(upTo: options.maxErrors))
        return report.isValid ? nil : ValidationErrors(errors: report.errors, omitted: report.moreErrors)
    }

    struct BodyOutcome {
        var entries: [ProblemDetails.Entry] = []
        var more = 0
        var filled: [UInt8]?
    }

    private func checkBody(_ spec: CompiledBody, request: HTTPRequest, body: [UInt8]?, applyDefaults: Bool, room: Int) -> Result<BodyOutcome, VettedProblem> {
        let bytes = body ?? []
        let contentType = request.headerFields[.contentType]
        var outcome = BodyOutcome()
        if bytes.isEmpty, contentType == nil {
            if spec.required {
                var error = VettedError(code: .keyNotFound, message: "the request body is required")
                error.parameters["required"] = .bool(true)
                outcome.entries.append(ProblemDetails.Entry(error, stage: .rules))
            }
            return .success(outcome)
        }
        guard let media = spec.media.match(contentType) else {
            return .failure(.unsupportedMediaType(contentType, expected: spec.media.map(\.range)))
        }
        guard media.isJSON, let schema = media.schema, !(bytes.isEmpty && !spec.required) else { return .success(outcome) }
        let report = schema.validate(bytes: bytes, mode: .collect(upTo: room))
        if !report.isWellFormed, let error = report.errors.first {
            return .failure(Self.problem(.syntax, [ProblemDetails.Entry(error, stage: .syntax)], more: 0, underlying: error))
        }
        outcome.entries = report.errors.map { Self.entry($0) }
        outcome.more = report.moreErrors
        guard report.isValid, applyDefaults, let plan = media.defaults else { return .success(outcome) }
        // Filled in only on a valid body (so it parses: the validation just read it); the
        // filled body is validated again as a whole.
        var value: JSONValue
        do {
            value = try JSONParser(limits: options.limits).parse(bytes)
        } catch {
            return .failure(Self.problem(.syntax, [ProblemDetails.Entry(error, stage: .syntax)], more: 0, underlying: error))
        }
        guard plan.fill(&value, maximumDepth: options.limits.effectiveMaxDepth) else { return .success(outcome) }
        let filled = schema.validate(value, mode: .collect(upTo: room))
        outcome.entries = filled.errors.map { Self.entry($0) }
        outcome.more = filled.moreErrors
        if filled.isValid { outcome.filled = JSONWriter().bytes(value) }
        return .success(outcome)
    }

    // MARK: Problems and entries

    enum ProblemKind {
        case syntax, rules

        var details: (type: String, title: String, status: Int) {
            switch self {
            case .syntax: ("urn:vetted:problem:syntax", "The request is not well-formed", 400)
            case .rules: ("urn:vetted:problem:rules", "The request breaks its contract", 422)
            }
        }
    }

    static func problem(_ kind: ProblemKind, _ entries: [ProblemDetails.Entry], more: Int, underlying: VettedError) -> VettedProblem {
        var entries = entries
        if more > 0 {
            entries.append(
                ProblemDetails.Entry(pointer: "", path: "$", code: "moreErrors", stage: FailureStage.rules.rawValue, detail: "\(more) more errors not listed"))
        }
        let summary = entries.count == 1 ? entries[0].detail : "\(entries.count) errors"
        let (type, title, status) = kind.details
        return VettedProblem(details: ProblemDetails(type: type, title: title, status: status, detail: summary, errors: entries), underlying: underlying)
    }

    /// A body error's entry, its `schemaLocation` a fragment of the document.
    static func entry(_ error: VettedError) -> ProblemDetails.Entry {
        var entry = ProblemDetails.Entry(error, stage: .rules)
        entry.parameters = entry.parameters.mapValues(ContractCompiler.shortLocation)
        return entry
    }

    /// A parameter error's entry: its pointer and path start at the parameter (`/query/limit`, `query.limit`).
    static func entry(_ error: VettedError, _ parameter: CompiledParameter, stage: FailureStage) -> ProblemDetails.Entry {
        let name = Excerpt.escape(parameter.name, maximumBytes: 80, quotes: false)
        var parameters = error.parameters.mapValues(ContractCompiler.shortLocation)
        parameters["in"] = .string(parameter.location.rawValue)
        parameters["name"] = .string(name)
        let inner = error.path.description.dropFirst()
        return ProblemDetails.Entry(
            pointer: "/\(parameter.location.rawValue)/" + OpenAPIDocument.escape(name) + error.path.jsonPointer,
            path: "\(parameter.location.rawValue).\(name)" + inner, code: error.code.rawValue, stage: stage.rawValue, detail: error.message,
            parameters: parameters)
    }

    static func missing(_ parameter: CompiledParameter) -> ProblemDetails.Entry {
        var error = VettedError(code: .keyNotFound, message: "the required \(parameter.location.rawValue) parameter is missing")
        error.parameters["required"] = .bool(true)
        return entry(error, parameter, stage: .rules)
    }
}

extension ProblemDetails {
    /// The server's own fault, told without its details (the middleware logs them).
    static let serverFault = ProblemDetails(
        type: "urn:vetted:problem:declaration", title: "Internal server error", status: 500,
        detail: "The server could not handle this request; the fault is the server's, not the request's.")
}

extension VettedError.Code {
    /// A response whose status, media type or body the document does not describe.
    public static let undocumentedResponse = VettedError.Code("undocumentedResponse")
    /// A parameter's text that is not percent-encoded correctly.
    public static let malformedParameter = VettedError.Code("malformedParameter")
}

// MARK: - Parameter values

/// A request's parameters as text, read once: the query split into pairs, the cookies into names.
struct ParameterValues {
    enum Found {
        case missing
        case malformed
        case value(JSONValue)
    }

    let request: HTTPRequest
    let pathParameters: [String: Substring]
    private var query: [String: [Substring]] = [:]
    private var cookies: [String: Substring] = [:]
    private var malformedQuery: Set<String> = []

    init(request: HTTPRequest, pathParameters: [String: Substring]) {
        self.request = request
        self.pathParameters = pathParameters
        if let path = request.path, let mark = path.firstIndex(of: "?") {
            for pair in path[path.index(after: mark)...].split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let rawName = parts.first ?? ""
                let rawValue = parts.count > 1 ? parts[1] : ""
                guard let name = String(rawName).removingPercentEncoding else { continue }
                guard let value = String(rawValue).removingPercentEncoding else {
                    malformedQuery.insert(name)
                    continue
                }
                query[name, default: []].append(Substring(value))
            }
        }
        for line in request.headerFields[values: .cookie] {
            for crumb in line.split(separator: ";") {
                let parts = crumb.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard let name = parts.first.map({ $0.trimmingCharacters(in: .whitespaces) }), parts.count == 2 else { continue }
                if cookies[name] == nil { cookies[name] = parts[1] }
            }
        }
    }

    func value(of parameter: CompiledParameter, limits: Limits) -> Found {
        let texts: [Substring]
        switch parameter.location {
        case .path:
            guard let raw = pathParameters[parameter.name] else { return .missing }
            guard let decoded = String(raw).removingPercentEncoding else { return .malformed }
            texts = [Substring(decoded)]
        case .query:
            if malformedQuery.contains(parameter.name) { return .malformed }
            guard let found = query[parameter.name] else { return .missing }
            texts = found
        case .header:
            guard let name = HTTPField.Name(parameter.name) else { return .missing }
            let found = request.headerFields[values: name]
            guard !found.isEmpty else { return .missing }
            texts = [Substring(found.joined(separator: ","))]
        case .cookie:
            guard let found = cookies[parameter.name] else { return .missing }
            texts = [found]
        }
        if let elements = parameter.elements {
            // Exploded (`tag=a&tag=b`), each pair is one element, `tag=` an empty one; else the one
            // value is split at commas. As the generated server reads them, so that one text has one answer.
            let items = parameter.explode ? texts : texts.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }
            return .value(.array(items.map { Self.read($0, as: elements, limits: limits) }))
        }
        // A parameter given twice is read as its first value (as the generated server reads it).
        return .value(Self.read(texts.first ?? "", as: parameter.kind, limits: limits))
    }

    /// A parameter's text as the JSON its schema reads: a number or boolean when it is one, else the text.
    static func read(_ text: Substring, as kind: ParameterKind, limits: Limits) -> JSONValue {
        switch kind {
        case .string:
            return .string(String(text))
        case .boolean:
            return text == "true" ? .bool(true) : text == "false" ? .bool(false) : .string(String(text))
        case .integer, .number:
            // Text that is not a JSON number stays text, which the schema's `type` then refuses.
            guard text.utf8.count <= limits.maxNumberLength, text.utf8.first.map({ $0 == UInt8(ascii: "-") || (0x30...0x39).contains($0) }) == true,
                case .number(let number)? = try? JSONParser(limits: limits).parse(String(text))
            else { return .string(String(text)) }
            return .number(number)
        }
    }
}
#endif
