import Foundation
public import Vetted
public import VettedCore
import VettedJSON

/// One thing wrong with untrusted data: which stage of the talk's lifecycle
/// caught it, where, and a stable code. The message is for a person and
/// never carries the payload (at most the decoder's short, escaped excerpt).
public struct Problem: Codable, Sendable, Hashable, CustomStringConvertible {
    /// The stages of "Data You Can Trust", named as Vetted names them where it has a name
    /// (`VettedFailure.stage`, a problem's `stage`): `syntax`, `structure`, `rules`.
    public enum Stage: String, Codable, Sendable, Hashable, CaseIterable {
        /// Length, checksum, signature: before a byte is parsed (Vetted's `input`).
        case raw
        /// The deserializer: bytes → inert values, or a located syntax error.
        case syntax
        /// The model's shape: types, nullability, required keys, tags.
        case structure
        /// The values' rules: range, length, domain, relations.
        case rules
        /// Model types from archives: which class, which conformance.
        case structured
        /// Not the data: the request around it (a query parameter, the content type).
        case request
        /// Not the data: what the server holds (an id in use, storage that failed).
        case store
    }

    public var stage: Stage
    /// `$[3].tags[1]`; `$` for the whole input.
    public var path: String
    public var code: String
    public var message: String

    public init(stage: Stage = .structure, path: String, code: String, message: String) {
        self.stage = stage
        self.path = path
        self.code = code
        self.message = message
    }

    public var description: String { "\(stage) · \(path) · \(code): \(message)" }

    /// The problems an error stands for, with paths prefixed by `prefix`
    /// (the element of an array that was decoded on its own, say).
    ///
    /// A `VettedError` thrown directly is a stage-`direct` failure: the gate
    /// throws them before parsing (raw), the unarchiver after (structured).
    public static func all(in error: any Error, direct: Stage = .raw, prefix: DocumentPath = []) -> [Problem] {
        func path(_ codingPath: [any CodingKey]) -> String {
            DocumentPath(prefix.components + DocumentPath(codingPath: codingPath).components).description
        }
        func located(_ error: VettedError, stage: Stage) -> Problem {
            var message = error.message
            if let location = error.location { message += " (line \(location.line), column \(location.column))" }
            else if let offset = error.offset { message += " (byte \(offset))" }
            return Problem(
                stage: stage, path: DocumentPath(prefix.components + error.path.components).description,
                code: error.code.rawValue, message: message)
        }
        switch error {
        case let error as VettedError:
            return [located(error, stage: direct)]
        case let errors as ValidationErrors:
            var problems = errors.errors.map { located($0, stage: .rules) }
            if errors.omitted > 0 {
                problems.append(Problem(stage: .rules, path: path([]), code: "moreErrors", message: "\(errors.omitted) more errors not listed"))
            }
            return problems
        case let error as DecodingError:
            switch error {
            case .dataCorrupted(let context):
                // Located by Vetted: a parse error (the syntax stage), or one of the model's shape (a
                // number that does not fit its field, an unknown tag). Its message is escaped and capped.
                if let parse = context.underlyingError as? VettedError {
                    return [located(parse, stage: parse.code.isStructural ? .structure : .syntax)]
                }
                // Not the context's description: the standard library quotes the rejected value there.
                return [Problem(path: path(context.codingPath), code: "invalidValue", message: "not a valid value for this field")]
            case .typeMismatch(let type, let context):
                return [Problem(path: path(context.codingPath), code: "typeMismatch", message: "expected \(Self.typeName(type))")]
            case .valueNotFound(let type, let context):
                return [Problem(path: path(context.codingPath), code: "valueNotFound", message: "null where \(Self.typeName(type)) is required")]
            case .keyNotFound(let key, let context):
                return [Problem(path: path(context.codingPath + [key]), code: "keyNotFound", message: "required key is missing")]
            @unknown default:
                return [Problem(path: path([]), code: "decodingFailed", message: "the data could not be decoded")]
            }
        default:
            return [Problem(stage: direct, path: path([]), code: "failed", message: "\(type(of: error))")]
        }
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "a Boolean"
        case is Int.Type, is Int32.Type, is Int64.Type: "an integer"
        case is Double.Type: "a number"
        default: "\(type)"
        }
    }
}

extension Problem {
    /// One entry of the server's RFC 9457 problem details: Vetted's `input` is the raw stage,
    /// and a rule declared wrong (`declaration`) is reported with the rules.
    public init(_ entry: ProblemDetails.Entry) {
        let stage: Stage =
            switch entry.stage {
            case "input": .raw
            case "declaration": .rules
            default: Stage(rawValue: entry.stage) ?? .structure
            }
        self.init(stage: stage, path: entry.path, code: entry.code, message: entry.detail)
    }
}
