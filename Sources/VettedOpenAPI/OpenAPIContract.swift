#if OpenAPI  // the trait that brings in swift-openapi-runtime and Yams (Package.swift)
public import Foundation
public import Vetted

/// An OpenAPI 3.0 or 3.1 document compiled for checking requests: per operation, the
/// schemas of its request body (per media type), of its path, query, header and cookie
/// parameters, and of its responses.
///
/// ```swift
/// let contract = try OpenAPIContract(Data(contentsOf: documentURL))
/// let middleware = VettedOpenAPIMiddleware(contract: contract)
/// ```
///
/// Everything is compiled before the first request: an operation, `$ref` or schema that
/// cannot be compiled is an error naming it (`invalidOpenAPIDocument`,
/// `unresolvableReference`, `invalidSchema`, `invalidPattern`), never a route left
/// unchecked. So is a `default` that breaks its own schema (`defaultBreaksRule`), and a
/// request body of a media type other than JSON whose schema says more than "bytes"
/// (unless ``Options/uncheckedMediaTypes`` names that type).
///
/// OpenAPI 3.0's schemas are read as 3.0 means them: `nullable: true` admits `null`, a
/// boolean `exclusiveMinimum`/`exclusiveMaximum` makes its bound exclusive, a `$ref`'s
/// siblings are ignored, `example` is an annotation, and a required property that is
/// `readOnly` is required of responses only (`writeOnly`: of requests only). 3.1's are JSON
/// Schema 2020-12.
/// YAML is read by YAML 1.2's core schema: `yes`, `on` and dates stay strings.
public struct OpenAPIContract: Sendable {
    /// How a contract reads its document and the requests it checks.
    public struct Options: Sendable {
        /// The parser's limits, for the document and for each body.
        public var limits: Limits
        /// Largest request body read, in bytes: a larger one is 413 without being read.
        public var maxBodyBytes: Int
        /// Time a request body has to arrive whole: past it, 408.
        public var bodyDeadline: Duration
        /// Largest response body read when responses are checked.
        public var maxResponseBytes: Int
        /// Errors reported per request, at most (the rest are counted).
        public var maxErrors: Int
        /// Whether `format` asserts (`date-time`, `email`, `uuid`, …); an annotation by default, as JSON Schema says.
        public var assertFormats: Bool
        /// Media types (such as `multipart/form-data`) whose request bodies are passed on unchecked
        /// although their schema has constraints: without naming them here, such a body is an error at start-up.
        public var uncheckedMediaTypes: Set<String>

        public init(
            limits: Limits = .default, maxBodyBytes: Int = 1 << 20, bodyDeadline: Duration = .seconds(10), maxResponseBytes: Int = 8 << 20,
            maxErrors: Int = 100, assertFormats: Bool = false, uncheckedMediaTypes: Set<String> = []
        ) {
            self.limits = limits
            self.maxBodyBytes = maxBodyBytes
            self.bodyDeadline = bodyDeadline
            self.maxResponseBytes = maxResponseBytes
            self.maxErrors = maxErrors
            self.assertFormats = assertFormats
            self.uncheckedMediaTypes = uncheckedMediaTypes
        }
    }

    public let options: Options
    /// The document's `openapi` version family.
    public let isOpenAPI30: Bool
    let operations: [String: Operation]
    let document: OpenAPIDocument
    /// Each path of the document as segments (a template segment is `nil`), and its methods.
    let paths: [(segments: [String?], methods: [String])]

    /// The operations' IDs, as swift-openapi-generator names them (an operation without
    /// `operationId` is `method` + path, `post/listings/{id}`).
    public var operationIDs: [String] { operations.keys.sorted() }

    /// Reads and compiles `document`, YAML or JSON.
    ///
    /// - Throws: `VettedError`: the parser's own error for a document that does not read,
    ///   else one naming the operation and what in it cannot be enforced.
    public init(_ document: Data, options: Options = Options()) throws(VettedError) {
        let json = try DocumentText.value(document, limits: options.limits)
        let openAPI = try OpenAPIDocument(json)
        var compiler = ContractCompiler(document: openAPI, options: options)
        operations = try compiler.operations()
        paths = Self.paths(of: operations.values)
        self.document = openAPI
        isOpenAPI30 = openAPI.version == .v3_0
        self.options = options
    }

    /// The methods the document lists for a request's `path` (without its query; relative to
    /// the server's base), upper-case and sorted, or `nil` when no path of the document matches.
    ///
    /// What a server answers a method the document does not list: 405 with these in `Allow`
    /// (RFC 9110 §15.5.6) for a path the document has, 404 for one it has not. The operation
    /// middleware cannot: the transport calls it only for a route it has. A template segment
    /// (`{id}`, or one holding a template, `{name}.json`) matches any one non-empty segment.
    public func allowedMethods(forPath path: String) -> [String]? {
        let segments = path.split(separator: "/")
        var found: Set<String>?
        for (template, methods) in paths where template.count == segments.count {
            guard zip(template, segments).allSatisfy({ step, segment in step.map { $0 == segment } ?? true }) else { continue }
            found = (found ?? []).union(methods)
        }
        return found.map { $0.sorted() }
    }

    static func paths(of operations: some Sequence<Operation>) -> [(segments: [String?], methods: [String])] {
        var methods: [String: Set<String>] = [:]
        for operation in operations { methods[operation.path, default: []].insert(operation.method.uppercased()) }
        return methods.keys.sorted().map { path in
            let segments = path.split(separator: "/").map { $0.contains("{") ? nil : String($0) }
            return (segments, (methods[path] ?? []).sorted())
        }
    }

    /// Reads and compiles a document from its text.
    public init(_ text: String, options: Options = Options()) throws(VettedError) {
        try self.init(Data(text.utf8), options: options)
    }
}

// MARK: - The compiled contract

/// Where a parameter is.
enum ParameterLocation: String, Sendable {
    case path, query, header, cookie
}

/// What a parameter's text becomes before its schema reads it.
enum ParameterKind: Sendable {
    case string, integer, number, boolean
}

struct CompiledParameter: Sendable {
    let name: String
    let location: ParameterLocation
    let required: Bool
    let schema: JSONSchema?
    let kind: ParameterKind
    /// For an array: its elements' kind and whether each is its own `name=value` pair (`explode`).
    let elements: ParameterKind?
    let explode: Bool
}

struct CompiledMedia: Sendable {
    /// The media type or range as the document writes it, lowercased: `application/json`, `image/*`, `*/*`.
    let range: String
    let schema: JSONSchema?
    /// Where a request body's absent properties get their defaults; `nil` when none has one.
    let defaults: DefaultPlan?
    let isJSON: Bool
}

struct CompiledBody: Sendable {
    let required: Bool
    let media: [CompiledMedia]
}

struct Operation: Sendable {
    let id: String
    let method: String
    let path: String
    let parameters: [CompiledParameter]
    let body: CompiledBody?
    /// By status as the document writes it: `200`, `2XX`, `default`.
    let responses: [String: [CompiledMedia]]

    var label: String { "operation \(Excerpt.escape(id, maximumBytes: 80)) (\(method.uppercased()) \(Excerpt.escape(path, maximumBytes: 80)))" }
}

extension [CompiledMedia] {
    /// The declared media type a `Content-Type` value falls under: the value as written, then its
    /// essence (no parameters, case or blanks), then `type/*`, then `*/*`.
    func match(_ contentType: String?) -> CompiledMedia? {
        guard let contentType else { return nil }
        // Most clients send a media type exactly as the document spells it (`application/json`):
        // found without normalising. A document's keys are lowercased as written, parameters and
        // all, so an exact hit is the most specific match there is (`application/json; charset=utf-8`
        // sent for that key); any other spelling is matched by its essence.
        if let exact = first(where: { $0.range == contentType }) { return exact }
        let essence = Self.essence(of: contentType)
        guard let slash = essence.firstIndex(of: "/") else { return nil }
        if let exact = first(where: { $0.range == essence }) { return exact }
        let family = essence[..<slash] + "/*"
        if let range = first(where: { $0.range == family }) { return range }
        return first(where: { $0.range == "*/*" })
    }

    /// A `Content-Type` value without its parameters, trimmed and lowercased as the document's
    /// keys are. An ASCII value (every one a client should send) is read byte by byte, without Foundation.
    static func essence(of contentType: String) -> String {
        let bytes = contentType.utf8
        guard bytes.allSatisfy({ $0 < 0x80 }) else {
            return contentType.split(separator: ";", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        }
        let end = bytes.firstIndex(of: UInt8(ascii: ";")) ?? bytes.endIndex
        var kept: [UInt8] = []
        kept.reserveCapacity(bytes.distance(from: bytes.startIndex, to: end))
        for byte in bytes[..<end] { kept.append((0x41...0x5A).contains(byte) ? byte | 0x20 : byte) }
        let blank: (UInt8) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        guard let first = kept.firstIndex(where: { !blank($0) }), let last = kept.lastIndex(where: { !blank($0) }) else { return "" }
        return String(decoding: kept[first...last], as: UTF8.self)
    }
}
#endif
