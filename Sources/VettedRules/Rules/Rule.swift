public import VettedCore

/// One check on a value: a stable ``VettedError/Code`` and a predicate that
/// says what is wrong, or nothing.
///
/// Rules are format-agnostic: they run on decoded Swift values (and on
/// `JSONValue`s through their accessors), and every failure is a
/// ``RuleViolation`` with a message fit for a person. The debug description
/// adds an escaped, capped excerpt of the value, never more.
///
/// ```swift
/// let name: Rule<String> = .length(1...200)
/// let tags: Rule<[String]> = .count(1...10) && .each(.oneOf(["music", "books"]))
/// if let violation = name.check("") { print(violation) }  // tooShort: must have at least 1 character
/// ```
public struct Rule<Value>: Sendable {
    private let body: @Sendable (Value) -> RuleViolation?
    /// What is read only when declaring, describing or failing: one reference,
    /// so that copying a rule for each check costs one retain, not three.
    private let facts: RuleFacts

    /// Why the rule cannot work as declared (a pattern that does not compile, a URL
    /// policy with no hosts), or `nil`. Such a rule fails every value with this
    /// error's code, which decoders throw as a declaration error in every mode
    /// (never a value to skip), and ``Validation/checkDeclarations(of:)`` reports
    /// without any value.
    public var declarationError: VettedError? { facts.declarationError }
    /// What the rule checks, as data: one descriptor per check (`a && b` has
    /// both). A rule made from a closure alone has one of kind
    /// ``RuleDescriptor/undescribedKind``: it says nothing a schema could use.
    public var descriptors: [RuleDescriptor] { facts.descriptors }

    /// A rule from a closure that returns a violation, or `nil` when `value` passes.
    /// It does not describe itself: a schema reports it as not expressible.
    public init(_ body: @escaping @Sendable (Value) -> RuleViolation?) {
        self.body = body
        facts = RuleFacts(declarationError: nil, descriptors: [RuleDescriptor(RuleDescriptor.undescribedKind)])
    }

    /// A rule from a closure, with what it checks: `descriptor` is written into
    /// schemas as an `x-vetted-<kind>` annotation with its parameters.
    public init(describedAs descriptor: RuleDescriptor, _ body: @escaping @Sendable (Value) -> RuleViolation?) {
        self.body = body
        facts = RuleFacts(declarationError: nil, descriptors: [descriptor])
    }

    /// A rule that cannot work as declared: every check reports `error`.
    public init(misdeclared error: VettedError) {
        body = { _ in RuleViolation(error.code, error.message) }
        facts = RuleFacts(
            declarationError: error, descriptors: [RuleDescriptor(RuleDescriptor.misdeclaredKind, ["code": .string(error.code.rawValue)])])
    }

    /// `body`, keeping the declaration error and descriptors of the rules it was built from.
    package init(
        _ body: @escaping @Sendable (Value) -> RuleViolation?, declarationError: VettedError?, descriptors: [RuleDescriptor]
    ) {
        self.body = body
        facts = RuleFacts(declarationError: declarationError, descriptors: descriptors)
    }

    /// A custom rule: `test` returns whether the value passes; a failure gets `code` and `message`.
    /// It does not describe itself (see ``custom(_:_:describedAs:_:)``).
    public static func custom(
        _ code: VettedError.Code, _ message: String, _ test: @escaping @Sendable (Value) -> Bool
    ) -> Rule {
        Rule(describedAs: RuleDescriptor(RuleDescriptor.undescribedKind, ["code": .string(code.rawValue)])) { value in
            test(value) ? nil : RuleViolation(code, message, value: value)
        }
    }

    /// A custom rule that says what it checks: a failure gets `code`, `message` and the descriptor's parameters.
    public static func custom(
        _ code: VettedError.Code, _ message: String, describedAs descriptor: RuleDescriptor, _ test: @escaping @Sendable (Value) -> Bool
    ) -> Rule {
        Rule(describedAs: descriptor) { value in
            test(value) ? nil : RuleViolation(code, message, value: value, parameters: descriptor.parameters)
        }
    }

    /// The violation, or `nil` when `value` passes.
    public func check(_ value: Value) -> RuleViolation? { body(value) }

    /// Both rules; the first violation wins.
    public static func && (lhs: Rule, rhs: Rule) -> Rule {
        Rule(
            { value in lhs.check(value) ?? rhs.check(value) }, declarationError: lhs.declarationError ?? rhs.declarationError,
            descriptors: lhs.descriptors + rhs.descriptors)
    }

    /// Runs `self` on `value`, throwing the violation as a ``VettedError`` at `path`.
    ///
    /// - Throws: `VettedError` with the rule's code at `path` when `value` breaks the rule.
    public func validate(_ value: Value, at path: DocumentPath = DocumentPath()) throws(VettedError) {
        if let violation = check(value) { throw violation.error(at: path) }
    }
}

/// What a rule found wrong.
public struct RuleViolation: Error, Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    /// Stable, named after the defect (`outOfRange`, `tooLong`, `hostNotAllowed`, …).
    public let code: VettedError.Code
    /// The rest, in one reference: a check that passes returns `nil`, and a
    /// `RuleViolation?` this small costs nothing to drop.
    private let details: Details

    /// One line for a person; never quotes the value.
    public var message: String { details.message }
    /// The value, escaped and capped, for debugging only.
    public var excerpt: String? { details.excerpt }
    /// Where inside the checked value the defect is, when the rule looked
    /// into it (`.each` names the element: `[1]`); empty for the value itself.
    public var path: DocumentPath { details.path }
    /// The rule's parameters that say what was expected (`minimum`, `maximum`,
    /// `unit`, `allowed`, …) or what was found (`codePoint`, `position`): for a
    /// client to act on and an app to word its own message (see ``RuleMessageProvider``).
    public var parameters: [String: RuleParameter] { details.parameters }

    public init(_ code: VettedError.Code, _ message: String, value: Any? = nil, parameters: [String: RuleParameter] = [:]) {
        self.init(
            code, message, excerpt: value.map { Excerpt.escape(String(describing: $0)) }, path: DocumentPath(), parameters: parameters)
    }

    /// A violation of an `Int`'s rule: its excerpt as ``init(_:_:value:parameters:)`` makes it, without a cast through `Any`.
    init(_ code: VettedError.Code, _ message: String, integer value: Int, parameters: [String: RuleParameter]) {
        self.init(code, message, excerpt: Excerpt.escape(String(value)), path: DocumentPath(), parameters: parameters)
    }

    /// A violation of a `String`'s rule: its excerpt as ``init(_:_:value:parameters:)`` makes it, without a cast through `Any`.
    init(_ code: VettedError.Code, _ message: String, string value: String, parameters: [String: RuleParameter]) {
        self.init(code, message, excerpt: Excerpt.escape(value), path: DocumentPath(), parameters: parameters)
    }

    init(_ code: VettedError.Code, _ message: String, excerpt: String?, path: DocumentPath, parameters: [String: RuleParameter]) {
        self.code = code
        details = Details(message: message, excerpt: excerpt, path: path, parameters: parameters)
    }

    /// Immutable once made, hence `Sendable`.
    private final class Details: Sendable {
        let message: String
        let excerpt: String?
        let path: DocumentPath
        let parameters: [String: RuleParameter]

        init(message: String, excerpt: String?, path: DocumentPath, parameters: [String: RuleParameter]) {
            self.message = message
            self.excerpt = excerpt
            self.path = path
            self.parameters = parameters
        }
    }

    public static func == (lhs: RuleViolation, rhs: RuleViolation) -> Bool {
        lhs.code == rhs.code && lhs.message == rhs.message && lhs.excerpt == rhs.excerpt && lhs.path == rhs.path
            && lhs.parameters == rhs.parameters
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(message)
        hasher.combine(excerpt)
        hasher.combine(path)
        hasher.combine(parameters)
    }

    /// The same violation with `parameters` besides its own.
    package func adding(_ parameters: [String: RuleParameter]) -> RuleViolation {
        RuleViolation(
            code, message, excerpt: excerpt, path: path, parameters: self.parameters.merging(parameters, uniquingKeysWith: { own, _ in own }))
    }

    /// The same violation, one step further down: at `component` of the value it was found in.
    public func inside(_ component: DocumentPath.Component) -> RuleViolation {
        RuleViolation(code, message, excerpt: excerpt, path: DocumentPath([component] + path.components), parameters: parameters)
    }

    public var description: String { path.isEmpty ? "\(code): \(message)" : "\(code) at \(path.components.map(\.description).joined()): \(message)" }
    public var debugDescription: String { excerpt.map { "\(description) (value: \($0))" } ?? description }

    /// Where the violation is when its value is at `path`: `path`, then the violation's own
    /// path inside the value (an element's, a member's), if it has one.
    package func path(below path: DocumentPath) -> DocumentPath {
        self.path.components.isEmpty ? path : DocumentPath(path.components + self.path.components)
    }

    /// The shared error type, located at `path`.
    /// `path` is where the checked value is; the violation's own ``path`` is appended.
    public func error(at path: DocumentPath) -> VettedError {
        var error = VettedError(
            code: code, path: self.path(below: path), message: message,
            excerpt: excerpt.map { Excerpt(text: $0, caret: 0) })
        error.parameters = parameters
        return error
    }
}

extension VettedError.Code {
    /// A number outside its allowed range.
    public static let outOfRange = VettedError.Code("outOfRange")
    /// Text or a collection shorter than allowed.
    public static let tooShort = VettedError.Code("tooShort")
    /// Text or a collection longer than allowed.
    public static let tooLong = VettedError.Code("tooLong")
    /// An empty string or collection where something is required.
    public static let empty = VettedError.Code("empty")
    /// Text that does not match its pattern.
    public static let patternMismatch = VettedError.Code("patternMismatch")
    /// A pattern too long or malformed to compile: a declaration error.
    public static let invalidPattern = VettedError.Code("invalidPattern")
    /// A ``URLPolicy`` with no hosts that did not ask for ``URLPolicy/anyHost(schemes:maximumLength:allowsIPHosts:allowsUserInfo:)``: a declaration error.
    public static let emptyHostAllowlist = VettedError.Code("emptyHostAllowlist")
    /// A value outside its allowed set.
    public static let notAllowed = VettedError.Code("notAllowed")
    /// A collection with repeated elements.
    public static let notUnique = VettedError.Code("notUnique")
    /// A date before the earliest allowed.
    public static let tooEarly = VettedError.Code("tooEarly")
    /// A date after the latest allowed.
    public static let tooLate = VettedError.Code("tooLate")
    /// A date (or number) that is NaN or infinite: every comparison with it is false, so no range can hold it.
    public static let nonFiniteDate = VettedError.Code("nonFiniteDate")
    /// Text that is not a URL.
    public static let invalidURL = VettedError.Code("invalidURL")
    /// A URL scheme outside the allowlist.
    public static let schemeNotAllowed = VettedError.Code("schemeNotAllowed")
    /// A URL host outside the allowlist.
    public static let hostNotAllowed = VettedError.Code("hostNotAllowed")
    /// A URL with user information (`https://example.com@evil.test`).
    public static let userInfoNotAllowed = VettedError.Code("userInfoNotAllowed")
    /// A URL whose host is an IP address.
    public static let ipHostNotAllowed = VettedError.Code("ipHostNotAllowed")
    /// A host that looks like an allowed one: punycode, or mixed scripts.
    public static let confusableHost = VettedError.Code("confusableHost")
    /// A relation between fields that does not hold.
    public static let relationViolated = VettedError.Code("relationViolated")
}

/// A rule's declaration error and descriptors. Immutable once made, hence `Sendable`.
private final class RuleFacts: Sendable {
    let declarationError: VettedError?
    let descriptors: [RuleDescriptor]

    init(declarationError: VettedError?, descriptors: [RuleDescriptor]) {
        self.declarationError = declarationError
        self.descriptors = descriptors
    }
}

extension Rule {
    /// `rule` itself: how `@Check(.rule(Listing.priceRule))` names a rule made elsewhere.
    public static func rule(_ rule: Rule<Value>) -> Rule<Value> { rule }
}
