import Foundation
@_spi(Scanning) import VettedCore
import VettedDecoding
import VettedRules

// MARK: - The decoder's side

/// `[G]` for a generated `G`: a document the direct path reads whole.
protocol DirectTopLevelArray {
    static func readDirect(_ reader: inout JSONDirectReader) throws(_VettedDirectMiss) -> Self
}

extension Array: DirectTopLevelArray where Element: _VettedDecodable {
    static func readDirect(_ reader: inout JSONDirectReader) throws(_VettedDirectMiss) -> [Element] {
        try reader.elements(Element.self)
    }
}

extension JSONDirectReader {
    /// The whole document as `T`, or a miss.
    mutating func document<T>(_ type: T.Type) throws(_VettedDirectMiss) -> T {
        let value: T
        if let generated = T.self as? any _VettedDecodable.Type {
            value = try one(generated, as: T.self)
        } else if let array = T.self as? any DirectTopLevelArray.Type {
            value = try many(array, as: T.self)
        } else {
            unsupported = true
            throw _VettedDirectMiss()
        }
        reader.scannerState.skipWhitespace()
        guard reader.scannerState.isAtEnd else { throw _VettedDirectMiss() }
        return value
    }

    private mutating func one<G: _VettedDecodable, T>(_ type: G.Type, as: T.Type) throws(_VettedDirectMiss) -> T {
        let value = try generated(G.self)
        do { return try SameType.cast(value, to: T.self) } catch { throw _VettedDirectMiss() }
    }

    private mutating func many<A: DirectTopLevelArray, T>(_ type: A.Type, as: T.Type) throws(_VettedDirectMiss) -> T {
        let value = try A.readDirect(&self)
        do { return try SameType.cast(value, to: T.self) } catch { throw _VettedDirectMiss() }
    }
}

/// Types the direct path found it cannot decode (a field of a type it does not
/// read, a rule it leaves to the tape path): not tried again in this process.
let directUnsupportedTypes = Locked<Set<ObjectIdentifier>>([])

extension VettedJSONDecoder {
    /// The document decoded straight from the bytes, or `nil` (then the tape path decodes it).
    static func decodeDirectly<T>(_ type: T.Type, source: SourceText, parser: JSONParser, options: Options) -> T? {
        guard case .useDefaultKeys = options.keyDecodingStrategy, options.directDecoding,
            source.count <= parser.limits.maxInputBytes
        else { return nil }
        switch options.dateDecodingStrategy {
        case .formatted, .custom: return nil
        case .deferredToDate, .iso8601, .secondsSince1970, .millisecondsSince1970: break
        }
        let id = ObjectIdentifier(T.self)
        guard !directUnsupportedTypes.current.contains(id) else { return nil }
        let document = DecodingDocument(
            source: source, tape: JSONTape(expectedBytes: 0), options: options, duplicateKeys: parser.options.duplicateKeys)
        let outcome = source.withScanner { scanner -> (T?, Bool) in
            document.scanner = scanner
            defer { document.scanner = nil }
            var direct = JSONDirectReader(
                reader: JSONReader(scanner: scanner, source: source, limits: parser.limits, options: parser.options, mode: .validate),
                document: document, limits: parser.limits)
            do {
                return (try direct.document(T.self), false)
            } catch {
                return (nil, direct.unsupported)
            }
        }
        if outcome.1 { directUnsupportedTypes.update { $0.insert(id) } }
        return outcome.0
    }
}
