#if OpenAPI  // the trait that brings in swift-openapi-runtime and Yams (Package.swift)
import Foundation
import VettedCore
import VettedJSON
import Yams

/// An OpenAPI document's text as a `JSONValue`: JSON through Vetted's strict parser,
/// YAML through Yams, each within the contract's limits.
enum DocumentText {
    /// Nesting a YAML text may have before Yams composes it (Yams recurses once per level).
    static let yamlNestingCeiling = 512

    static func value(_ data: Data, limits: Limits) throws(VettedError) -> JSONValue {
        guard data.count <= limits.maxInputBytes else {
            throw VettedError(code: .inputSizeLimitExceeded, message: "the document is \(data.count) bytes, more than the limit of \(limits.maxInputBytes)")
        }
        let first = data.first { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D) }
        if first == UInt8(ascii: "{") { return try JSONParser(limits: limits).parse(data) }
        guard let text = String(validating: data, as: UTF8.self) else {
            throw VettedError(code: .invalidOpenAPIDocument, message: "the document is neither JSON nor UTF-8 YAML")
        }
        return try yaml(text, limits: limits)
    }

    static func yaml(_ text: String, limits: Limits) throws(VettedError) -> JSONValue {
        let nesting = estimatedNesting(text)
        guard nesting <= yamlNestingCeiling else {
            throw VettedError(
                code: .depthLimitExceeded,
                message: "the YAML document nests about \(nesting) levels deep (indentation and brackets), more than \(yamlNestingCeiling)")
        }
        let root: Node?
        do {
            root = try Yams.compose(yaml: text, .basic)
        } catch let error as YamlError {
            throw VettedError(code: .invalidOpenAPIDocument, message: "the document is not well-formed YAML: " + describe(error))
        } catch {
            throw VettedError(code: .invalidOpenAPIDocument, message: "the document is not well-formed YAML")
        }
        guard let root else { throw VettedError(code: .invalidOpenAPIDocument, message: "the document is empty") }
        var budget = Budget(values: limits.maxValues, bytes: limits.expansionAllowance(forInputBytes: text.utf8.count))
        return try convert(root, depth: 0, limits: limits, budget: &budget, path: DocumentPath())
    }

    /// The libyaml problem and where (line and column), without the text around it.
    static func describe(_ error: YamlError) -> String {
        switch error {
        case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _), .composer(_, let problem, let mark, _):
            return "\(Excerpt.escape(problem, maximumBytes: 80, quotes: false)) at line \(mark.line), column \(mark.column)"
        case .reader(let problem, _, _, _):
            return Excerpt.escape(problem, maximumBytes: 80, quotes: false)
        case .duplicatedKeysInMapping(_, let context):
            return "a key appears twice in one mapping at line \(context.mark.line), column \(context.mark.column)"
        default:
            return "libyaml could not read it"
        }
    }

    /// A bound on how deep the text nests: per line, its indentation and the sequence
    /// and key indicators that open it, plus the brackets open at that point. Never less
    /// than the real nesting; more when brackets sit inside quoted text.
    static func estimatedNesting(_ text: String) -> Int {
        var deepest = 0
        var brackets = 0
        var lineStart = true
        var prefix = 0
        for byte in text.utf8 {
            switch byte {
            case 0x0A:
                lineStart = true
                prefix = 0
            case 0x20, UInt8(ascii: "-"), UInt8(ascii: "?"), 0x09:
                if lineStart { prefix += 1 }
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                lineStart = false
                brackets += 1
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                lineStart = false
                brackets = Swift.max(0, brackets - 1)
            default:
                lineStart = false
            }
            deepest = Swift.max(deepest, prefix + brackets)
        }
        return deepest
    }

    struct Budget {
        var values: Int
        var bytes: Int
    }

    /// A composed node as JSON: mappings with string keys, YAML 1.2's core schema for
    /// plain scalars (so `yes`, `on` and `2024-01-01` stay strings), quoted scalars as strings.
    /// An alias is expanded where it is used, within the budget of values and bytes.
    static func convert(_ node: Node, depth: Int, limits: Limits, budget: inout Budget, path: DocumentPath) throws(VettedError) -> JSONValue {
        budget.values -= 1
        guard budget.values >= 0 else {
            throw VettedError(code: .valueLimitExceeded, path: path, message: "the document holds more than \(limits.maxValues) values (aliases count each time they are used)")
        }
        switch node {
        case .scalar(let scalar):
            budget.bytes -= scalar.string.utf8.count + ExpansionBudget.valueCost
            guard budget.bytes >= 0 else {
                throw VettedError(code: .amplificationLimitExceeded, path: path, message: "the document expands into more than its limits allow (aliases count each time they are used)")
            }
            return try self.scalar(scalar, path: path)
        case .mapping(let mapping):
            guard depth < limits.effectiveMaxDepth else { throw depthError(limits, path) }
            guard mapping.count <= limits.maxMembers else {
                throw VettedError(code: .memberLimitExceeded, path: path, message: "a mapping has more than \(limits.maxMembers) members")
            }
            var object = JSONObject()
            for (key, value) in mapping {
                guard case .scalar(let keyScalar) = key else {
                    throw VettedError(code: .invalidOpenAPIDocument, path: path, message: "a mapping key is not a scalar")
                }
                let name = keyScalar.string
                if name == "<<" && keyScalar.style == .plain {
                    throw VettedError(code: .invalidOpenAPIDocument, path: path, message: "YAML merge keys (<<) are not read; write the members out")
                }
                guard object[name] == nil else {
                    throw VettedError(code: .duplicateKey, path: path.appending(.key(name)), message: "the key \(Excerpt.escape(name)) appears twice in one mapping")
                }
                object[name] = try convert(value, depth: depth + 1, limits: limits, budget: &budget, path: path.appending(.key(name)))
            }
            return .object(object)
        case .sequence(let sequence):
            guard depth < limits.effectiveMaxDepth else { throw depthError(limits, path) }
            guard sequence.count <= limits.maxMembers else {
                throw VettedError(code: .memberLimitExceeded, path: path, message: "a sequence has more than \(limits.maxMembers) elements")
            }
            var elements: [JSONValue] = []
            elements.reserveCapacity(sequence.count)
            for (index, element) in sequence.enumerated() {
                elements.append(try convert(element, depth: depth + 1, limits: limits, budget: &budget, path: path.appending(.index(index))))
            }
            return .array(elements)
        case .alias:
            throw VettedError(code: .invalidOpenAPIDocument, path: path, message: "an alias names no anchor")
        }
    }

    static func depthError(_ limits: Limits, _ path: DocumentPath) -> VettedError {
        VettedError(code: .depthLimitExceeded, path: path, message: "the document nests deeper than \(limits.effectiveMaxDepth) levels")
    }

    static func scalar(_ scalar: Node.Scalar, path: DocumentPath) throws(VettedError) -> JSONValue {
        let text = scalar.string
        guard scalar.style == .plain else { return .string(text) }
        switch text {
        case "", "~", "null", "Null", "NULL": return .null
        case "true", "True", "TRUE": return .bool(true)
        case "false", "False", "FALSE": return .bool(false)
        case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF", ".nan", ".NaN", ".NAN":
            throw VettedError(code: .invalidOpenAPIDocument, path: path, message: "\(text) is not a JSON number")
        default:
            return number(text).map(JSONValue.number) ?? .string(text)
        }
    }

    /// A plain scalar YAML 1.2's core schema reads as a number, written as JSON writes it; `nil` for text.
    static func number(_ text: String) -> JSONNumber? {
        var bytes = Array(text.utf8)
        guard bytes.count <= 256, !bytes.isEmpty else { return nil }
        var negative = false
        if bytes[0] == UInt8(ascii: "-") || bytes[0] == UInt8(ascii: "+") {
            negative = bytes[0] == UInt8(ascii: "-")
            bytes.removeFirst()
        }
        let body = String(decoding: bytes, as: UTF8.self)
        if body.hasPrefix("0x") || body.hasPrefix("0o") {
            guard !negative || body.count > 2, let value = Int(body.dropFirst(2), radix: body.hasPrefix("0x") ? 16 : 8) else { return nil }
            return JSONNumber(negative ? -value : value)
        }
        // [0-9]+ ( . [0-9]* )? ( [eE] [-+]? [0-9]+ )?  or  . [0-9]+ ( … )?
        var index = 0
        func digits() -> [UInt8] {
            let start = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            return Array(bytes[start..<index])
        }
        var whole = digits()
        var fraction: [UInt8] = []
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            fraction = digits()
        }
        guard !(whole.isEmpty && fraction.isEmpty) else { return nil }
        var exponent: [UInt8] = []
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            var sign: [UInt8] = []
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
                sign = [bytes[index]]
                index += 1
            }
            let power = digits()
            guard !power.isEmpty else { return nil }
            exponent = [UInt8(ascii: "e")] + sign + power
        }
        guard index == bytes.count else { return nil }
        while whole.count > 1, whole[0] == UInt8(ascii: "0") { whole.removeFirst() }
        if whole.isEmpty { whole = [UInt8(ascii: "0")] }
        var literal = (negative ? [UInt8(ascii: "-")] : []) + whole
        if !fraction.isEmpty { literal += [UInt8(ascii: ".")] + fraction }
        return JSONNumber(literal: String(decoding: literal + exponent, as: UTF8.self))
    }
}

extension VettedError.Code {
    /// An OpenAPI document that cannot be read, or says something Vetted cannot enforce.
    public static let invalidOpenAPIDocument = VettedError.Code("invalidOpenAPIDocument")
}
#endif
