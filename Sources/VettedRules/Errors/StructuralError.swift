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

    /// The same case with its context changed by `transform`.
    package func mappingContext(_ transform: (Context) -> Context) -> DecodingError {
        switch self {
        case .typeMismatch(let type, let c): return .typeMismatch(type, transform(c))
        case .valueNotFound(let type, let c): return .valueNotFound(type, transform(c))
        case .keyNotFound(let key, let c): return .keyNotFound(key, transform(c))
        case .dataCorrupted(let c): return .dataCorrupted(transform(c))
        @unknown default: return self
        }
    }

    /// The same case, coding path and description with `error` as its `underlyingError`.
    package func replacingVettedError(_ error: VettedError) -> DecodingError {
        mappingContext { Context(codingPath: $0.codingPath, debugDescription: $0.debugDescription, underlyingError: error) }
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
            return .typeMismatch(type, context(c, error(.typeMismatch, c.codingPath, at: c.codingPath, "\(Self.field(c.codingPath))expected \(Self.documentName(type))")))
        case .valueNotFound(let type, let c):
            return .valueNotFound(
                type, context(c, error(.valueNotFound, c.codingPath, at: c.codingPath, "\(Self.field(c.codingPath))null where \(Self.documentName(type)) is required")))
        case .keyNotFound(let key, let c):
            // Located at the object that lacks the key.
            let name = Excerpt.escape(key.stringValue)
            return .keyNotFound(key, context(c, error(.keyNotFound, c.codingPath + [key], at: c.codingPath, "the required field \"\(name)\" is missing")))
        case .dataCorrupted(let c):
            // The description is the type's own and may quote the input: escaped and capped at an
            // excerpt's size, so at most that much of the input is shown (before: 120 bytes, of
            // which 69 could be input). A raw-value enum's own text names a Swift type and quotes
            // the value: said in the document's terms instead.
            let message: String
            if c.debugDescription.hasPrefix("Cannot initialize ") {
                message = "\(Self.field(c.codingPath))not one of the allowed values"
            } else {
                message = "\(Self.field(c.codingPath))invalid value: \(Excerpt.escape(c.debugDescription, quotes: false))"
            }
            return .dataCorrupted(context(c, error(.invalidValue, c.codingPath, at: c.codingPath, message)))
        @unknown default:
            return self
        }
    }

    /// `"price": ` for a value under a key (escaped and capped), `` otherwise.
    private static func field(_ codingPath: [any CodingKey]) -> String {
        guard let last = codingPath.last, last.intValue == nil else { return "" }
        return "\"\(Excerpt.escape(last.stringValue))\": "
    }

    /// What a decoder asked for, in the document's terms (`an object`, `a string`, `an
    /// integer`), never a Swift type's name (`Dictionary<String, Any>`).
    package static func documentName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type, is Substring.Type, is Character.Type, is URL.Type, is UUID.Type: return "a string"
        case is Bool.Type: return "true or false"
        case is any BinaryInteger.Type: return "an integer"
        case is any BinaryFloatingPoint.Type, is Decimal.Type: return "a number"
        case is Date.Type: return "a date"
        case is Data.Type: return "data"
        default:
            let name = String(describing: type)
            if name.hasPrefix("Dictionary<") || name.hasPrefix("KeyedDecodingContainer<") { return "an object" }
            if name.hasPrefix("Array<") || name.hasPrefix("Set<") || name.hasPrefix("ContiguousArray<") { return "an array" }
            if name.hasPrefix("Optional<") { return "a value or null" }
            return "a value of another type"
        }
    }
}

extension DecodingError {
    /// This error, the first of a call's structural errors (located), carrying the others
    /// (``VettedCore/VettedError/others``) and how many past the cap were counted.
    package func carrying(others: [VettedError], omitted: Int) -> DecodingError {
        guard var located = vettedError, !others.isEmpty || omitted > 0 else { return self }
        located.others = others
        located.othersOmitted = omitted
        return replacingVettedError(located)
    }
}
