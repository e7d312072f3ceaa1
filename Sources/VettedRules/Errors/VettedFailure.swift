public import VettedCore

/// The stage of reading untrusted data that refused it.
public enum FailureStage: String, Sendable, Hashable, CaseIterable {
    /// Refused as bytes, before or while being read: the gate (size, digest,
    /// signature), a reader's limits, an archive's structure. A ``VettedCore/VettedError``.
    case input
    /// Not well-formed: the parser's located error, inside `DecodingError.dataCorrupted`.
    case syntax
    /// Well-formed but not the model's shape: the other `DecodingError`s (a missing key, a
    /// type mismatch, a number that does not fit), located as syntax errors are.
    case structure
    /// The model's shape, but values break their rules: ``ValidationErrors``.
    case rules
    /// A rule declared wrong (`code.isRuleDeclaration`): the program's error, not the input's.
    case declaration
}

/// Any failure of Vetted's decoders read as one thing: its stage and its
/// located errors, for code that handles every stage in one `catch`.
///
/// ```swift
/// do {
///     listings = try decoder.decode([Listing].self, from: data)
/// } catch {
///     let failure = VettedFailure(error)
///     log(failure.stage, failure.errors.map { "\($0.path) \($0.code)" })
/// }
/// ```
public struct VettedFailure: Error, Sendable, CustomStringConvertible {
    public let stage: FailureStage
    /// One error per defect, each with its code and path (and offset where the stage has one).
    /// A structural `DecodingError` is given as one error whose code names its case, followed by
    /// the others its decoder collected (``VettedCore/VettedError/others``); ``omitted`` counts those past the cap.
    public let errors: [VettedError]
    /// The error as it was thrown.
    public let underlying: any Error
    /// How many more errors were found than ``errors`` lists (past the validation mode's cap).
    public var omitted: Int {
        switch underlying {
        case let rules as ValidationErrors: rules.omitted
        case let decoding as DecodingError: decoding.vettedError?.othersOmitted ?? 0
        default: 0
        }
    }

    public init(_ error: any Error) {
        if let failure = error as? VettedFailure {
            self = failure
            return
        }
        underlying = error
        switch error {
        case let rules as ValidationErrors:
            stage = .rules
            errors = rules.errors
        case let vetted as VettedError:
            stage = vetted.code.isRuleDeclaration ? .declaration : .input
            errors = [vetted]
        case let decoding as DecodingError:
            let (code, context) = Self.parts(decoding)
            if let located = context?.underlyingError as? VettedError {
                // A record over its cap is refused for its length, before it is parsed.
                stage = located.code == .recordTooLarge ? .input : located.code.isStructural ? .structure : .syntax
                // Under `.collect`, each structural error the call found: the first, then its others.
                errors = located.all
            } else {
                stage = .structure
                errors = [
                    VettedError(
                        code: code, path: DocumentPath(codingPath: context?.codingPath ?? []), message: context?.debugDescription ?? "\(decoding)")
                ]
            }
        default:
            stage = .structure
            errors = [VettedError(code: VettedError.Code("decodingFailed"), message: "\(error)")]
        }
    }

    public var description: String {
        "\(stage): " + errors.map { "\($0.path): \($0.code): \($0.message)" }.joined(separator: "; ")
    }

    private static func parts(_ error: DecodingError) -> (VettedError.Code, DecodingError.Context?) {
        switch error {
        case .typeMismatch(_, let context): (.typeMismatch, context)
        case .valueNotFound(_, let context): (.valueNotFound, context)
        case .keyNotFound(let key, let context):
            (
                .keyNotFound,
                // The located error kept: without it, a missing key was reported with Foundation's
                // description (`No value associated with key CodingKeys(…)`), not Vetted's message.
                DecodingError.Context(
                    codingPath: context.codingPath + [key], debugDescription: context.debugDescription, underlyingError: context.underlyingError)
            )
        case .dataCorrupted(let context): (.invalidValue, context)
        @unknown default: (VettedError.Code("decodingFailed"), nil)
        }
    }
}
