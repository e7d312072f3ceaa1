public import Foundation
public import VettedCore
import VettedPlist

/// Writes keyed archives in Apple's NSKeyedArchiver format, as a binary
/// property list that `NSKeyedUnarchiver` reads.
///
/// Method names mirror `NSKeyedArchiver`. A class instance referenced twice is
/// written once and referenced twice (and a cycle among class instances is
/// written as a cycle); strings are written once per distinct value.
public final class KeyedArchiver {
    /// Whether every object written must support secure coding (default).
    public let requiresSecureCoding: Bool
    /// The first failure; ``archivedData(withRootObject:requiringSecureCoding:limits:)`` throws it.
    public private(set) var error: (any Error)?
    /// Limits on what is written: nesting depth (`maxDepth`) and objects (`maxValues`).
    public let limits: Limits

    private var objects: [PlistValue] = [.string("$null")]
    private var classUIDs: [String: UInt64] = [:]
    private var stringUIDs: [String: UInt64] = [:]
    private var instanceUIDs: [ObjectIdentifier: UInt64] = [:]
    /// Keeps encoded instances alive, so that their identifiers stay unique while encoding.
    private var retained: [AnyObject] = []
    /// The keyed objects being written, innermost last; the first is `$top`.
    private var stack: [PlistDictionary] = [PlistDictionary()]
    private var finished: Data?

    public init(requiringSecureCoding: Bool = true, limits: Limits = .default) {
        self.requiresSecureCoding = requiringSecureCoding
        self.limits = limits
    }

    /// The archive of `object` under the key `root`.
    ///
    /// - Throws: `VettedError` `unencodableValue` for a value the archiver cannot write (a type without secure coding when it is required).
    public static func archivedData(
        withRootObject object: any SecureCoding, requiringSecureCoding: Bool = true, limits: Limits = .default
    ) throws -> Data {
        let archiver = KeyedArchiver(requiringSecureCoding: requiringSecureCoding, limits: limits)
        archiver.encode(object, forKey: KeyedUnarchiver.rootKey)
        if let error = archiver.error { throw error }
        return archiver.encodedData
    }

    // MARK: Values

    /// Writes `object` (nil writes `$null`).
    public func encode(_ object: (any SecureCoding)?, forKey key: String) {
        guard error == nil else { return }
        let uid = object.map(reference) ?? 0
        set(key, .uid(uid))
    }

    public func encode(_ value: Bool, forKey key: String) { set(key, .bool(value)) }
    public func encode(_ value: Int, forKey key: String) { set(key, .integer(PlistInteger(value))) }
    public func encode(_ value: Int32, forKey key: String) { set(key, .integer(PlistInteger(Int64(value)))) }
    public func encode(_ value: Int64, forKey key: String) { set(key, .integer(PlistInteger(value))) }
    public func encode(_ value: Double, forKey key: String) { set(key, .real(value)) }
    public func encode(_ value: Float, forKey key: String) { set(key, .real(Double(value))) }
    /// Bytes stored inline (read with ``KeyedUnarchiver/decodeBytes(forKey:)``).
    public func encodeBytes(_ bytes: [UInt8], forKey key: String) { set(key, .data(Data(bytes))) }

    /// Records a failure; the first is kept.
    public func failWithError(_ error: any Error) {
        if self.error == nil { self.error = error }
    }

    // MARK: Containers (for the conformances of Array, Set, Dictionary)

    /// Writes the current object's elements as `NS.objects`.
    public func encodeElements<Element: SecureCoding>(_ elements: [Element]) {
        set("NS.objects", .array(elements.map { .uid(reference($0)) }))
    }

    /// Writes the current object's pairs as `NS.keys` and `NS.objects`.
    public func encodePairs<Key: SecureCoding, Value: SecureCoding>(_ keys: [Key], _ values: [Value]) {
        set("NS.keys", .array(keys.map { .uid(reference($0)) }))
        set("NS.objects", .array(values.map { .uid(reference($0)) }))
    }

    // MARK: Output

    /// The archive: a binary property list.
    public var encodedData: Data {
        if let finished { return finished }
        finishEncoding()
        return finished ?? Data()
    }

    /// Ends encoding; later encode calls are ignored.
    public func finishEncoding() {
        guard finished == nil else { return }
        let archive: PlistValue = .dictionary([
            "$version": .integer(PlistInteger(100_000)),
            "$archiver": .string("NSKeyedArchiver"),
            "$top": .dictionary(stack.first ?? PlistDictionary()),
            "$objects": .array(objects),
        ])
        finished = Data(PlistWriter.binary(archive))
    }

    // MARK: The one place objects are written

    private func set(_ key: String, _ value: PlistValue) {
        guard error == nil, finished == nil, !stack.isEmpty else { return }
        stack[stack.count - 1][key] = value  // a key written twice keeps the last value
    }

    /// The UID of `object`, written now unless it was already.
    private func reference(_ object: any SecureCoding) -> UInt64 {
        guard error == nil else { return 0 }
        if let primitive = object as? any PrimitiveArchivable { return primitiveUID(primitive.archiveForm) }
        if let value = object as? ArchivedValue { return archivedValueUID(value) }
        let type = Swift.type(of: object)
        if requiresSecureCoding, !type.supportsSecureCoding {
            failWithError(VettedError(code: .unencodableValue, message: "\(type) does not support secure coding"))
            return 0
        }
        // A subclass that only inherits its superclass's names would be written under the parent's
        // name and read back as the parent: a different object, silently. Refused, as the unarchiver refuses it.
        if requiresSecureCoding, KeyedUnarchiver.inheritsConformance(type) {
            failWithError(
                VettedError(
                    code: .secureCodingNotSupported,
                    message: "\(type) inherits its secure coding from a superclass without declaring its own archiveClassNames"))
            return 0
        }
        guard let name = type.archiveClassNames.first else {
            failWithError(VettedError(code: .unencodableValue, message: "\(type) declares no archive class name"))
            return 0
        }
        let instance = type is AnyClass ? (object as AnyObject) : nil
        if let instance, let uid = instanceUIDs[ObjectIdentifier(instance)] { return uid }
        return writeObject(name, superclasses: type.archiveSuperclassNames, instance: instance) { object.encode(with: $0) }
    }

    /// Writes one keyed object of class `name` whose keys `body` encodes. The one place the
    /// depth and size limits are checked, for every kind of object.
    private func writeObject(_ name: String, superclasses: [String], instance: AnyObject? = nil, _ body: (KeyedArchiver) -> Void) -> UInt64 {
        guard stack.count <= limits.effectiveMaxDepth, objects.count < limits.maxValues else {
            failWithError(VettedError(code: .depthLimitExceeded, message: "the object graph is deeper or larger than the limits"))
            return 0
        }
        let uid = UInt64(objects.count)
        objects.append(.string("$null"))  // reserved: a cycle back to this object refers to this UID
        if let instance {
            instanceUIDs[ObjectIdentifier(instance)] = uid
            retained.append(instance)
        }
        let classUID = classReference(name, superclasses: superclasses)
        stack.append(PlistDictionary([.init(key: "$class", value: .uid(classUID))]))
        body(self)
        objects[Int(uid)] = .dictionary(stack.removeLast())
        return uid
    }

    private func primitiveUID(_ form: ArchiveForm) -> UInt64 {
        let value: PlistValue
        switch form {
        case .string(let string):
            if let uid = stringUIDs[string] { return uid }
            stringUIDs[string] = UInt64(objects.count)
            value = .string(string)
        case .integer(let integer): value = .integer(PlistInteger(integer))
        case .unsignedInteger(let integer): value = .integer(PlistInteger(integer))
        case .real(let real): value = .real(real)
        case .bool(let bool): value = .bool(bool)
        case .data(let data): value = .data(data)
        }
        objects.append(value)
        return UInt64(objects.count - 1)
    }

    private func archivedValueUID(_ value: ArchivedValue) -> UInt64 {
        switch value {
        case .string(let string): return primitiveUID(.string(string))
        case .integer(let integer): return primitiveUID(.integer(integer))
        case .unsignedInteger(let integer): return primitiveUID(.unsignedInteger(integer))
        case .real(let real): return primitiveUID(.real(real))
        case .bool(let bool): return primitiveUID(.bool(bool))
        case .data(let data): return primitiveUID(.data(data))
        case .date(let date): return reference(date)
        case .uuid(let uuid): return reference(uuid)
        case .url(let url): return reference(url)
        case .null: return reference(ArchiveNull())
        case .array(let elements): return writeObject("NSArray", superclasses: ["NSObject"]) { $0.encodeElements(elements) }
        case .set(let elements): return writeObject("NSSet", superclasses: ["NSObject"]) { $0.encodeElements(elements) }
        case .orderedSet(let elements): return writeObject("NSOrderedSet", superclasses: ["NSObject"]) { $0.encodeElements(elements) }
        case .dictionary(let keys, let values): return writeObject("NSDictionary", superclasses: ["NSObject"]) { $0.encodePairs(keys, values) }
        }
    }

    private func classReference(_ name: String, superclasses: [String]) -> UInt64 {
        if let uid = classUIDs[name] { return uid }
        let uid = UInt64(objects.count)
        objects.append(
            .dictionary([
                "$classes": .array(([name] + superclasses).map(PlistValue.string)),
                "$classname": .string(name),
            ]))
        classUIDs[name] = uid
        return uid
    }
}
