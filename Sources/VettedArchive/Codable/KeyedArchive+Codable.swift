import Foundation
import VettedCore
import VettedPlist
public import VettedRules

// Codable values inside keyed archives, stored as Foundation stores them
// (`NSKeyedArchiver.encodeEncodable(_:forKey:)`): the value's property list —
// what `PropertyListEncoder` makes of it — written under the key as an object
// graph of NSDictionary, NSArray, NSString, NSNumber, NSDate and NSData.
// Reading never instantiates anything but those value classes, and the
// value's type decodes with its rules (`Validatable`).

extension KeyedArchiver {
    /// Writes `value` under `key` as its property list's object graph
    /// (Foundation's `encodeEncodable(_:forKey:)` storage).
    public func encodeEncodable<T: Encodable>(_ value: T, forKey key: String) {
        guard error == nil else { return }
        let plist: PlistValue
        do {
            // The value is the app's own: Foundation's encoder writes its property list.
            let encoder = PropertyListEncoder()
            encoder.outputFormat = .binary
            plist = try PlistParser(limits: limits).parse(try encoder.encode(value))
        } catch {
            failWithError(error)
            return
        }
        guard let archived = ArchivedValue(plist) else {
            failWithError(VettedError(code: .unencodableValue, path: [.key(key)], message: "\(T.self) encodes a keyed-archive UID"))
            return
        }
        encode(archived, forKey: key)
    }
}

extension KeyedUnarchiver {
    /// The value Foundation's `encodeEncodable(_:forKey:)` (or ``KeyedArchiver/encodeEncodable(_:forKey:)``)
    /// wrote under `key`, decoded by ``VettedPropertyListDecoder`` with `T`'s
    /// rules; nil when the key is missing. A failure — an object graph that is
    /// not a property list, a `DecodingError`, rule violations — is kept as
    /// ``error``, as for every decode call.
    public func decodeDecodable<T: Decodable>(_ type: T.Type, forKey key: String, validationMode: ValidationMode = .collect) -> T? {
        guard error == nil, containsValue(forKey: key) else { return nil }
        let path = codingPath.appending(.key(key))
        guard let archived = decodeObject(of: ArchivedValue.self, forKey: key) else {
            if error == nil { failWithError(VettedError(code: .typeMismatch, path: path, message: "$null where a \(T.self) was asked")) }
            return nil
        }
        let plist: PlistValue
        do throws(VettedError) {
            plist = try archived.propertyList(at: path)
        } catch {
            failWithError(error)
            return nil
        }
        let decoder = VettedPropertyListDecoder()
        decoder.limits = limits
        decoder.validationMode = validationMode
        do {
            return try decoder.decode(T.self, from: plist)
        } catch {
            failWithError(error)
            return nil
        }
    }

    /// The top-level value under `key` (Foundation's `decodeTopLevelDecodable(_:forKey:)`): throws the failure.
    ///
    /// - Throws: `VettedError` for a missing or malformed value, `DecodingError` and `ValidationErrors` from decoding it.
    public func decodeTopLevelDecodable<T: Decodable>(_ type: T.Type, forKey key: String, validationMode: ValidationMode = .collect) throws -> T? {
        try finish(decodeDecodable(type, forKey: key, validationMode: validationMode))
    }
}

extension ArchivedValue {
    /// The archived form of a property-list value; nil for a UID (which only archives hold).
    init?(_ plist: PlistValue) {
        /// A UID: only archives hold one, so no property list of a Codable value does.
        struct HoldsUID: Error {}
        // Iterative: a value as deep as the limits allow never deepens the stack.
        let archived: ArchivedValue?
        do throws(HoldsUID) {
            archived = try plist.folded(
                entries: { dictionary throws(HoldsUID) in dictionary },
                leaf: { value throws(HoldsUID) -> ArchivedValue in
                    switch value {
                    case .string(let string): return .string(string)
                    case .data(let data): return .data(data)
                    case .date(let date): return .date(date)
                    case .bool(let bool): return .bool(bool)
                    case .real(let real): return .real(real)
                    case .integer(.signed(let integer)): return .integer(integer)
                    case .integer(.unsigned(let integer)): return .unsignedInteger(integer)
                    case .uid: throw HoldsUID()
                    }
                },
                array: { elements throws(HoldsUID) in .array(elements) },
                dictionary: { keys, values throws(HoldsUID) in .dictionary(keys.map(ArchivedValue.string), values) })
        } catch {
            return nil
        }
        guard let archived else { return nil }
        self = archived
    }

    /// The property list this archived value holds, or `typeMismatch` at the
    /// first part that a property list cannot hold (a set, a URL, a UUID, a
    /// null, a dictionary key that is not a string).
    func propertyList(at path: DocumentPath) throws(VettedError) -> PlistValue {
        enum Step {
            case visit(ArchivedValue, DocumentPath)
            case array(Int)
            case dictionary([String])
        }
        var steps: [Step] = [.visit(self, path)]
        var built: [PlistValue] = []
        while let step = steps.popLast() {
            switch step {
            case .visit(let value, let path):
                switch value {
                case .string(let string): built.append(.string(string))
                case .data(let data): built.append(.data(data))
                case .date(let date): built.append(.date(date))
                case .bool(let bool): built.append(.bool(bool))
                case .real(let real): built.append(.real(real))
                case .integer(let integer): built.append(.integer(PlistInteger(integer)))
                case .unsignedInteger(let integer): built.append(.integer(PlistInteger(integer)))
                case .array(let elements):
                    steps.append(.array(elements.count))
                    for (index, element) in elements.enumerated().reversed() { steps.append(.visit(element, path.appending(.index(index)))) }
                case .dictionary(let keys, let values):
                    var names: [String] = []
                    for key in keys {
                        guard case .string(let name) = key else {
                            throw VettedError(code: .typeMismatch, path: path, message: "a dictionary key that is not a string, in a Codable value")
                        }
                        names.append(name)
                    }
                    guard names.count == values.count else {
                        throw VettedError(code: .archiveCorrupted, path: path, message: "a dictionary with \(names.count) keys and \(values.count) values")
                    }
                    steps.append(.dictionary(names))
                    for (name, element) in zip(names, values).reversed() { steps.append(.visit(element, path.appending(.key(name)))) }
                case .set, .orderedSet, .url, .uuid, .null:
                    throw VettedError(code: .typeMismatch, path: path, message: "an object a property list cannot hold, in a Codable value")
                }
            case .array(let count):
                let elements = Array(built.suffix(count))
                built.removeLast(count)
                built.append(.array(elements))
            case .dictionary(let keys):
                let values = Array(built.suffix(keys.count))
                built.removeLast(keys.count)
                built.append(.dictionary(PlistDictionary(zip(keys, values).map { PlistDictionary.Entry(key: $0, value: $1) })))
            }
        }
        guard built.count == 1, let value = built.first else {
            throw VettedError(code: .archiveCorrupted, path: path, message: "an empty Codable value")
        }
        return value
    }
}
