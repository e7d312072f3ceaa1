package import VettedCore
import VettedRules

// Every `DecodingError` Vetted's decoders throw, worded in one place: Foundation's
// words where Foundation's decoders say the same thing (so code that matches them
// keeps working), and a `VettedError` carried as `dataCorrupted` for what only Vetted
// checks. The byte reader, the tape, the generated bodies and the property-list
// decoder all build their errors here.

extension DecodingError {
    /// `error`, at `codingPath`, as the `dataCorrupted` every Vetted decoder throws for
    /// what Foundation has no case for (the decoder locates it from the path).
    package static func carrying(_ error: VettedError, at codingPath: [any CodingKey]) -> DecodingError {
        .dataCorrupted(Context(codingPath: codingPath, debugDescription: error.message, underlyingError: error))
    }

    /// A `VettedError` of `code` with `message` at `codingPath`, carried as `dataCorrupted`.
    package static func vetted(_ code: VettedError.Code, at codingPath: [any CodingKey], _ message: String) -> DecodingError {
        carrying(VettedError(code: code, path: DocumentPath(codingPath: codingPath), message: message), at: codingPath)
    }

    /// Foundation's `dataCorrupted` with its words `description`, no underlying error.
    package static func corrupted(_ description: String, at codingPath: [any CodingKey]) -> DecodingError {
        .dataCorrupted(Context(codingPath: codingPath, debugDescription: description))
    }

    /// A required key that is absent, as synthesized decoding says it (`name`: the text
    /// the key stands for, when the key's own `stringValue` is not it).
    package static func absentKey(_ key: any CodingKey, at codingPath: [any CodingKey], name: String? = nil) -> DecodingError {
        .keyNotFound(key, Context(codingPath: codingPath, debugDescription: "No value associated with key \(key) (\"\(name ?? key.stringValue)\")."))
    }

    /// A nested container (`what`: "nested KeyedDecodingContainer<…>", "UnkeyedDecodingContainer")
    /// asked for at an absent key, as Foundation's keyed container says it.
    package static func absentContainer(_ what: String, forKey key: any CodingKey, at codingPath: [any CodingKey]) -> DecodingError {
        .keyNotFound(key, Context(codingPath: codingPath, debugDescription: "Cannot get \(what) -- no value found for key \(key) (\"\(key.stringValue)\")"))
    }

    /// A value asked of an unkeyed container with none left.
    package static func unkeyedAtEnd(_ type: Any.Type, at codingPath: [any CodingKey]) -> DecodingError {
        .valueNotFound(type, Context(codingPath: codingPath, debugDescription: "Unkeyed container is at end."))
    }

    /// Null where a `type` is required; JSONDecoder and PropertyListDecoder word it differently.
    package static func null(_ type: Any.Type, at codingPath: [any CodingKey], in format: DecodingTexts.Format) -> DecodingError {
        let description =
            switch format {
            case .json: "Cannot get value of type \(type) -- found null value instead"
            case .propertyList: "Expected \(type) value but found null instead."
            }
        return .valueNotFound(type, Context(codingPath: codingPath, debugDescription: description))
    }

    /// A value of another kind (`found`, as the format names it) where `type` is expected
    /// (`expected`, when the words name something else than the type).
    package static func mismatch(_ type: Any.Type, expected: String? = nil, found: String, at codingPath: [any CodingKey]) -> DecodingError {
        .typeMismatch(type, Context(codingPath: codingPath, debugDescription: DecodingTexts.expected(expected ?? "\(type)", found: found)))
    }

    /// A document the format's parser refused, as Foundation's top-level decoders say it.
    package static func notADocument(_ error: any Error, in format: DecodingTexts.Format, at codingPath: [any CodingKey] = []) -> DecodingError {
        let description =
            switch format {
            case .json: "The given data was not valid JSON. \(error)"
            case .propertyList: "The given data was not a valid property list. \(error)"
            }
        return .dataCorrupted(Context(codingPath: codingPath, debugDescription: description, underlyingError: error))
    }
}

/// The sentences of ``Swift/DecodingError``s that are also used on their own (a byte
/// reader builds its error where it has the offset).
package enum DecodingTexts {
    /// The format whose decoder's words a text follows.
    package enum Format: Sendable { case json, propertyList }

    /// "Expected to decode … but found … instead."
    package static func expected(_ expected: String, found: String) -> String {
        "Expected to decode \(expected) but found \(found) instead."
    }

    /// A container of the other kind (`object`: a keyed one was asked for).
    package static func containerExpected(object: Bool, found: String) -> String {
        expected(object ? "Dictionary<String, Any>" : "Array<Any>", found: found)
    }

    /// A string that is not base64.
    package static let notBase64 = "Encountered Data is not valid Base64."

    /// A string `URL(string:)` refuses.
    package static let invalidURL = "Invalid URL string."

    /// A date that is not a finite number of seconds (Vetted's words: Foundation accepts it).
    package static let nonFiniteDate = "the date is not a finite number of seconds"

    /// A date string `.iso8601` does not parse.
    package static let notISO8601 = "Expected date string to be ISO8601-formatted."

    /// A date string `.formatted` does not parse.
    package static let notFormatted = "Date string does not match format expected by formatter."

    /// A JSON number `type` cannot hold (the literal escaped and capped).
    package static func notRepresentable<T>(_ literal: String, in type: T.Type) -> String {
        "Number \(Excerpt.escape(literal, maximumBytes: 32)) is not representable in \(T.self)."
    }

    /// A finite JSON number beyond `Float`'s range.
    package static func notRepresentableInFloat(_ double: Double) -> String { "Number \(double) is not representable in Float." }

    /// A property-list number (`described`, escaped) that `type` cannot hold.
    package static func doesNotFit(_ described: String, in type: Any.Type) -> String {
        "Property list number <\(described)> does not fit in \(type)."
    }

    /// A model nested deeper than the call's stack budget (`exceeded`: the guard's words).
    package static func nestsTooDeep(_ exceeded: String) -> String { "the model nests " + exceeded }

    /// Two spellings of one field in one object.
    package static func bothSpellOneField(_ first: String, _ second: String) -> String {
        "keys \"\(Excerpt.escape(first))\" and \"\(Excerpt.escape(second))\" both spell one field"
    }
}
