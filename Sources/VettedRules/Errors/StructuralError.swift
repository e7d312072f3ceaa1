#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
public import VettedCore

extension DecodingError {
    /// The located ``VettedCore/VettedError`` this error carries as its
    /// `underlyingError`: the parse error, or the structural error with its
    /// code, `$`-path, offset, line, column and excerpt. `nil` for a
    /// `DecodingError` that did not come from a Vetted decoder.
    public var vettedError: VettedError? {
        switch self {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context), .dataCorrupted(let context):
            context.underlyingError as? VettedError
        @unknown default:
            nil
        }
    }

    /// This error with a located ``VettedCore/VettedError`` as its `underlyingError`
    /// (the same case, coding path and description): `locate` gives where the
    /// value at a coding path sits, or `nil` where the format cannot say.
    /// An error that already carries one is returned as it is.
    package func located(by locate: ([any CodingKey]) -> ValueLocation?) -> DecodingError {
        if let known = vettedError {
            // Raised by code that knows what is wrong but not where (generated decoding): placed here.
            guard known.offset == nil, case .dataCorrupted(let c) = self, let location = locate(c.codingPath) else { return self }
            let placed = VettedError(known.code, at: location.offset, in: location.source, path: known.path, message: known.message)
            return .dataCorrupted(Context(codingPath: c.codingPath, debugDescription: c.debugDescription, underlyingError: placed))
        }
        func error(_ code: VettedError.Code, _ path: [any CodingKey], at place: [any CodingKey], _ message: String) -> VettedError {
            let documentPath = DocumentPath(codingPath: path)
            if let location = locate(place) {
                return VettedError(code, at: location.offset, in: location.source, path: documentPath, message: message)
            }
            return VettedError(code: code, path: documentPath, message: message)
        }
        func context(_ context: Context, _ located: VettedError) -> Context {
            Context(codingPath: context.codingPath, debugDescription: context.debugDescription, underlyingError: located)
        }
        switch self {
        case .typeMismatch(let type, let c):
            return .typeMismatch(type, context(c, error(.typeMismatch, c.codingPath, at: c.codingPath, "expected \(Self.name(type))")))
        case .valueNotFound(let type, let c):
            return .valueNotFound(type, context(c, error(.valueNotFound, c.codingPath, at: c.codingPath, "no value where \(Self.name(type)) is required")))
        case .keyNotFound(let key, let c):
            // Located at the object that lacks the key.
            return .keyNotFound(key, context(c, error(.keyNotFound, c.codingPath + [key], at: c.codingPath, "required key is missing")))
        case .dataCorrupted(let c):
            // The description is the type's own and may quote the input: escaped and capped.
            let detail = Excerpt.escape(c.debugDescription, maximumBytes: 120, quotes: false)
            return .dataCorrupted(context(c, error(.invalidValue, c.codingPath, at: c.codingPath, "invalid value: \(detail)")))
        @unknown default:
            return self
        }
    }

    private static func name(_ type: Any.Type) -> String {
        Excerpt.escape(String(describing: type), maximumBytes: 80, quotes: false)
    }
}
