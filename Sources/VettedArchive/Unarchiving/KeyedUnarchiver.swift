public import Foundation
public import VettedCore
import VettedPlist

/// Reads keyed archives (Apple's NSKeyedArchiver format) the secure way.
///
/// Method names mirror `NSKeyedUnarchiver`, so switching is a rename. The
/// archive never chooses which code runs: a class is instantiated only when the
/// current decode call allows it (see ``SecureCoding``). Built on a checked
/// ``ArchiveGraph``, so no malformed archive can crash it, make it recurse
/// without bound, or make it build more than `limits` allow.
///
/// Failures follow ``decodingFailurePolicy``: the first error is kept in
/// ``error`` and never replaced, every later decode call returns nil or 0 at
/// once, and the top-level calls (`unarchivedObject…`) throw it.
public final class KeyedUnarchiver {
    /// What a failure does. Swift cannot catch Objective-C exceptions, so neither
    /// policy ever ends the process.
    public enum DecodingFailurePolicy: Sendable {
        /// Decode calls return nil or 0 and the error is kept (the default).
        case setErrorAndReturn
        /// Vetted's safe meaning of raising: the first failure ends decoding as an
        /// exception would — every later decode call returns nil or 0, and objects
        /// whose `init?(coder:)` returns after the failure are discarded, never
        /// handed to the code that asked for them — and the top-level call throws.
        case raiseException
    }

    /// The key `NSKeyedArchiver` uses for the root object.
    public static let rootKey = "root"

    public let graph: ArchiveGraph
    public let limits: Limits
    public var decodingFailurePolicy: DecodingFailurePolicy = .setErrorAndReturn
    /// Whether every instantiated type must return `true` from `supportsSecureCoding`
    /// (default). Even when `false`, only allowed types are ever instantiated.
    public var requiresSecureCoding = true
    /// Whether an object holding a key that its class never read is `archiveCorrupted`
    /// at that key. Off by default, as in Foundation, where such a key is a newer
    /// writer's field; turn it on where every key is known (a store only this app
    /// writes), so that nothing rides along unread beside the fields.
    public var rejectsUnreadKeys = false
    /// The first failure, kept until the unarchiver is discarded.
    public private(set) var error: (any Error)?

    /// One object being decoded: its keys, what it was decoded as, where it is.
    struct Level {
        let object: PlistDictionary
        let allowed: [any SecureCoding.Type]
        let path: DocumentPath
        let className: String
        /// Keys the class read (or asked about with `containsValue`), and keys it asked for that are absent.
        var read = Set<String>()
        var missing: [String] = []
        /// A collection whose keys were all checked and read (``onlyCollectionKeys(in:_:)``).
        var allRead = false
    }

    /// The stored value for `key` in the current object, noting the key as read, or
    /// as asked for and absent (see ``checkKeys(of:)``).
    private func lookup(_ key: String) -> PlistValue? {
        guard !levels.isEmpty else { return nil }
        let value = levels[levels.count - 1].object[key]
        if value == nil {
            if levels[levels.count - 1].missing.count < 64 { levels[levels.count - 1].missing.append(key) }
        } else {
            levels[levels.count - 1].read.insert(key)
        }
        return value
    }

    /// A key the class asked for is absent while the object holds a key the class never
    /// read: a damaged key (`sold` archived, `sole` read back), whose value would
    /// otherwise come back as the default (`false`, `0`, `nil`) without a word. That is
    /// `archiveCorrupted` at the key. (An absent key alone is an older archive; a key
    /// never read alone is a newer one: both stay silent, as in Foundation.)
    private func checkKeys(of level: Level) {
        guard error == nil else { return }
        guard let missing = level.missing.first else {
            if rejectsUnreadKeys, !level.allRead, let stray = level.object.keys.first(where: { $0 != "$class" && !level.read.contains($0) }) {
                fail(.archiveCorrupted, "\(level.className) never read \(Excerpt.escape(stray)), which the archive holds", at: level.path.appending(.key(stray)))
            }
            return
        }
        let unread = level.object.keys.filter { $0 != "$class" && !level.read.contains($0) }
        guard let stray = unread.first else { return }
        fail(
            .archiveCorrupted,
            "\(level.className) asked for \(Excerpt.escape(missing)), which is absent, and never read \(Excerpt.escape(stray)): a damaged key?",
            at: level.path.appending(.key(missing)))
    }

    var levels: [Level]
    private var inProgress = Set<Int>()
    /// The stack budget of the outermost object being decoded.
    private var stack: StackGuard?
    private var cache: [Int: Any] = [:]
    /// Class names by the index of their class dictionary, each checked once.
    private var classNames: [Int: String] = [:]
    private var decodedValues = 0
    /// What the objects decoded so far expand into (a shared object each time it is decoded).
    private var budget: ExpansionBudget
    private var registered: [String: any SecureCoding.Type] = [:]
    /// The classes an `ofClasses:` collection call allows for its elements (and keys),
    /// taken by the collection object it reads, so nested ones never see them.
    private var pendingClasses: (keys: [any SecureCoding.Type], objects: [any SecureCoding.Type])?

    /// Reads the archive's structure (binary or XML plist); no object is decoded yet.
    ///
    /// - Throws: `VettedError`: the plist's syntax and limits, then the archive's structure.
    public convenience init(forReadingFrom data: Data, limits: Limits = .default) throws(VettedError) {
        try self.init(forReadingFrom: Array(data), limits: limits)
    }

    /// - Throws: `VettedError` when the bytes are not a property list (the reader's codes) or not a keyed archive (`notAKeyedArchive`).
    public init(forReadingFrom bytes: [UInt8], limits: Limits = .default) throws(VettedError) {
        graph = try ArchiveGraph(parsing: bytes, limits: limits)
        self.limits = limits
        budget = ExpansionBudget(limits: limits, inputBytes: bytes.count)
        let top = graph.top
        levels = [Level(object: top, allowed: [], path: DocumentPath(), className: "$top")]
    }

    /// The types allowed for the object being decoded now (empty at the top level).
    public var allowedClasses: [any SecureCoding.Type] { levels.last?.allowed ?? [] }

    /// The archived class name of the object being decoded now (`$top` at the top level).
    public var currentClassName: String { levels.last?.className ?? "$top" }

    /// The path of the object being decoded now (`$.root.listing`).
    public var codingPath: DocumentPath { levels.last?.path ?? DocumentPath() }

    /// Reads the archive's class `name` as `type` wherever `type` or one of its superclasses
    /// is allowed — the only way a subclass is ever instantiated, and the way to read
    /// names another archiver wrote (`MyApp.Purchase`). `type` must declare its own
    /// ``SecureCoding`` conformance (its own ``SecureCoding/archiveClassNames``).
    public func setClass(_ type: any SecureCoding.Type, forClassName name: String) {
        registered[name] = type
    }

    // MARK: Top level

    /// The root object, if it is a `T`.
    ///
    /// - Throws: `VettedError` (`classNotAllowed`, `secureCodingNotSupported`, `typeMismatch`, `archiveCorrupted`, `archiveCycle`, the limits, or the property-list reader's codes), or the error a type passed to ``failWithError(_:)``.
    public static func unarchivedObject<T: SecureCoding>(ofClass type: T.Type, from data: Data, limits: Limits = .default) throws -> T? {
        let unarchiver = try KeyedUnarchiver(forReadingFrom: data, limits: limits)
        return try unarchiver.finish(unarchiver.decodeObject(of: type, forKey: rootKey))
    }

    /// The root object, if it is one of `types`.
    ///
    /// - Throws: `VettedError` (`classNotAllowed`, `secureCodingNotSupported`, `typeMismatch`, `archiveCorrupted`, `archiveCycle`, the limits, or the property-list reader's codes), or the error a type passed to ``failWithError(_:)``.
    public static func unarchivedObject(ofClasses types: [any SecureCoding.Type], from data: Data, limits: Limits = .default) throws -> Any? {
        let unarchiver = try KeyedUnarchiver(forReadingFrom: data, limits: limits)
        return try unarchiver.finish(unarchiver.decodeObject(ofClasses: types, forKey: rootKey))
    }

    /// The root array, if every element is a `T`.
    ///
    /// - Throws: `VettedError` (`classNotAllowed`, `secureCodingNotSupported`, `typeMismatch`, `archiveCorrupted`, `archiveCycle`, the limits, or the property-list reader's codes), or the error a type passed to ``failWithError(_:)``.
    public static func unarchivedArrayOfObjects<T: SecureCoding>(ofClass type: T.Type, from data: Data, limits: Limits = .default) throws -> [T]? {
        let unarchiver = try KeyedUnarchiver(forReadingFrom: data, limits: limits)
        return try unarchiver.finish(unarchiver.decodeArrayOfObjects(ofClass: type, forKey: rootKey))
    }

    /// The root dictionary, if every key is a `Key` and every value a `Value`.
    ///
    /// - Throws: `VettedError` (`classNotAllowed`, `secureCodingNotSupported`, `typeMismatch`, `archiveCorrupted`, `archiveCycle`, the limits, or the property-list reader's codes), or the error a type passed to ``failWithError(_:)``.
    public static func unarchivedDictionary<Key: SecureCoding & Hashable, Value: SecureCoding>(
        ofKeyClass keyType: Key.Type, objectClass valueType: Value.Type, from data: Data, limits: Limits = .default
    ) throws -> [Key: Value]? {
        let unarchiver = try KeyedUnarchiver(forReadingFrom: data, limits: limits)
        return try unarchiver.finish(unarchiver.decodeDictionary(withKeysOfClass: keyType, objectsOfClass: valueType, forKey: rootKey))
    }

    /// The root array, if every element is one of `types`.
    ///
    /// - Throws: `VettedError` (`classNotAllowed`, `secureCodingNotSupported`, `typeMismatch`, `archiveCorrupted`, `archiveCycle`, the limits, or the property-list reader's codes), or the error a type passed to ``failWithError(_:)``.
    public static func unarchivedArrayOfObjects(ofClasses types: [any SecureCoding.Type], from data: Data, limits: Limits = .default) throws -> [Any]? {
        let unarchiver = try KeyedUnarchiver(forReadingFrom: data, limits: limits)
        return try unarchiver.finish(unarchiver.decodeArrayOfObjects(ofClasses: types, forKey: rootKey))
    }

    /// The root dictionary, if every key is one of `keyTypes` and every value one of `valueTypes`.
    ///
    /// - Throws: `VettedError` (`classNotAllowed`, `secureCodingNotSupported`, `typeMismatch`, `archiveCorrupted`, `archiveCycle`, the limits, or the property-list reader's codes), or the error a type passed to ``failWithError(_:)``.
    public static func unarchivedDictionary(
        keysOfClasses keyTypes: [any SecureCoding.Type], objectsOfClasses valueTypes: [any SecureCoding.Type], from data: Data,
        limits: Limits = .default
    ) throws -> [AnyHashable: Any]? {
        let unarchiver = try KeyedUnarchiver(forReadingFrom: data, limits: limits)
        return try unarchiver.finish(unarchiver.decodeDictionary(withKeysOfClasses: keyTypes, objectsOfClasses: valueTypes, forKey: rootKey))
    }

    /// Throws the kept error, if any; else returns `value`.
    ///
    /// - Throws: The first error kept while decoding (`VettedError`, `DecodingError`, `ValidationErrors`).
    public func finish<T>(_ value: T?) throws -> T? {
        if let error { throw error }
        return value
    }

    // MARK: Objects

    /// The object for `key`, if it is a `T` (or a registered subclass of one).
    public func decodeObject<T: SecureCoding>(of type: T.Type, forKey key: String) -> T? {
        guard let value = decodeObject(ofClasses: [type], forKey: key) else { return nil }
        guard let typed = value as? T else {
            fail(.typeMismatch, "expected \(T.self), found \(Swift.type(of: value))", at: codingPath.appending(.key(key)))
            return nil
        }
        return typed
    }

    /// The object for `key`, if its class is one of `types`.
    public func decodeObject(ofClasses types: [any SecureCoding.Type], forKey key: String) -> Any? {
        guard error == nil, let level = levels.last, let reference = lookup(key) else { return nil }
        let path = level.path.appending(.key(key))
        guard case .uid(let uid) = reference else {
            fail(.typeMismatch, "a primitive value where an object was asked", at: path)
            return nil
        }
        return object(uid, allowed: types, at: path)
    }

    /// The array for `key`, if every element is a `T`.
    public func decodeArrayOfObjects<T: SecureCoding>(ofClass type: T.Type, forKey key: String) -> [T]? {
        decodeObject(of: [T].self, forKey: key)
    }

    /// The dictionary for `key`, if every key is a `Key` and every value a `Value`.
    public func decodeDictionary<Key: SecureCoding & Hashable, Value: SecureCoding>(
        withKeysOfClass keyType: Key.Type, objectsOfClass valueType: Value.Type, forKey key: String
    ) -> [Key: Value]? {
        decodeObject(of: [Key: Value].self, forKey: key)
    }

    /// The array for `key`, if every element is one of `types`.
    public func decodeArrayOfObjects(ofClasses types: [any SecureCoding.Type], forKey key: String) -> [Any]? {
        pendingClasses = ([], types)
        defer { pendingClasses = nil }
        return decodeObject(of: ArchivedList.self, forKey: key)?.elements
    }

    /// The dictionary for `key`, if every key is one of `keyTypes` and every value one of `valueTypes`.
    public func decodeDictionary(
        withKeysOfClasses keyTypes: [any SecureCoding.Type], objectsOfClasses valueTypes: [any SecureCoding.Type], forKey key: String
    ) -> [AnyHashable: Any]? {
        pendingClasses = (keyTypes, valueTypes)
        defer { pendingClasses = nil }
        return decodeObject(of: ArchivedMap.self, forKey: key)?.pairs
    }

    /// The classes of the `ofClasses:` call under way, taken once.
    func takePendingClasses() -> (keys: [any SecureCoding.Type], objects: [any SecureCoding.Type])? {
        defer { pendingClasses = nil }
        return pendingClasses
    }

    // MARK: Primitives

    /// Whether the current object has a value for `key` (a missing value is not a failure).
    /// Asking counts as reading: a class that checks for a key handles its absence itself.
    public func containsValue(forKey key: String) -> Bool {
        guard !levels.isEmpty else { return false }
        levels[levels.count - 1].read.insert(key)
        return levels[levels.count - 1].object[key] != nil
    }

    public func decodeBool(forKey key: String) -> Bool {
        primitive(key, "Bool") { if case .bool(let value) = $0 { value } else { nil } } ?? false
    }

    public func decodeInteger(forKey key: String) -> Int { integer(Int.self, key) }
    public func decodeInt32(forKey key: String) -> Int32 { integer(Int32.self, key) }
    public func decodeInt64(forKey key: String) -> Int64 { integer(Int64.self, key) }

    /// A stored double; a stored integer is a type mismatch, as is the reverse for the integer calls.
    public func decodeDouble(forKey key: String) -> Double {
        primitive(key, "Double") { if case .real(let value) = $0 { value } else { nil } } ?? 0
    }

    public func decodeFloat(forKey key: String) -> Float {
        let double = decodeDouble(forKey: key)
        guard !double.isFinite || abs(double) <= Double(Float.greatestFiniteMagnitude) else {
            fail(.numberOutOfRange, "\(double) does not fit a Float", at: codingPath.appending(.key(key)))
            return 0
        }
        return Float(double)
    }

    /// Bytes stored inline (`encodeBytes`).
    public func decodeBytes(forKey key: String) -> [UInt8]? {
        primitive(key, "bytes") { if case .data(let value) = $0 { Array(value) } else { nil } }
    }

    /// Inline bytes for `key`, or nil without an error when the value is of another kind.
    func decodeBytesIfInline(forKey key: String) -> [UInt8]? {
        guard case .data(let data)? = lookup(key) else { return nil }
        return Array(data)
    }

    /// Records the type's own failure (a domain rule, say); the first error is kept.
    public func failWithError(_ error: any Error) {
        if self.error == nil { self.error = error }
    }

    /// An `archiveCorrupted` error at the current path, for `init?(coder:)` to report.
    public func corrupted(_ message: String) -> VettedError {
        VettedError(code: .archiveCorrupted, path: codingPath, message: message)
    }

    // MARK: The one place objects are made

    /// Decodes object `uid` as one of `allowed`. Every check happens before any code of the type runs.
    func object(_ uid: UInt64, allowed: [any SecureCoding.Type], at path: DocumentPath) -> Any? {
        guard uid != 0 else { return nil }  // $null
        guard uid < UInt64(graph.objects.count) else {
            fail(.archiveCorrupted, "UID \(uid) is outside the object table (\(graph.objects.count) objects)", at: path)
            return nil
        }
        decodedValues += 1
        guard decodedValues <= limits.maxValues else {
            fail(.valueLimitExceeded, "more than \(limits.maxValues) values decoded", at: path)
            return nil
        }
        let index = Int(uid)
        let stored = graph.objects[index]
        let payload =
            switch stored {
            case .string(let value): value.utf8.count
            case .data(let value): value.count
            default: 0
            }
        guard budget.chargeValue(payload: payload) else {
            fail(.amplificationLimitExceeded, budget.exceededMessage, at: path)
            return nil
        }
        let form: ArchiveForm
        switch stored {
        case .string(let value): form = .string(value)
        case .data(let value): form = .data(value)
        case .bool(let value): form = .bool(value)
        case .real(let value): form = .real(value)
        case .integer(.signed(let value)): form = .integer(value)
        case .integer(.unsigned(let value)): form = .unsignedInteger(value)
        case .dictionary(let dictionary): return keyedObject(index, dictionary, allowed: allowed, at: path)
        case .array, .date, .uid:
            fail(.archiveCorrupted, "object \(index) is a bare \(Self.kind(stored)), which keyed archives never hold", at: path)
            return nil
        }
        return primitiveObject(form, allowed: allowed, at: path)
    }

    private func primitiveObject(_ form: ArchiveForm, allowed: [any SecureCoding.Type], at path: DocumentPath) -> Any? {
        let className: String =
            switch form {
            case .string: "NSString"
            case .data: "NSData"
            default: "NSNumber"
            }
        if allowed.contains(where: { $0 == ArchivedValue.self }), let value = ArchivedValue(primitive: form) { return value }
        var sawClass = false
        for type in allowed {
            guard let primitive = type as? any PrimitiveArchivable.Type, primitive.archiveClassNames.contains(className) else { continue }
            sawClass = true
            if let value = primitive.init(archiveForm: form) { return value }
        }
        if sawClass {
            fail(.typeMismatch, "the archived \(className) is not a \(Self.names(allowed))", at: path)
        } else {
            fail(.classNotAllowed, "the archive holds \(className) here; allowed: \(Self.names(allowed))", at: path)
        }
        return nil
    }

    private func keyedObject(_ index: Int, _ dictionary: PlistDictionary, allowed: [any SecureCoding.Type], at path: DocumentPath) -> Any? {
        let name: String
        do {
            guard let uid = try graph.classUID(ofObject: index) else {
                fail(.archiveCorrupted, "object \(index) is a dictionary without $class", at: path)
                return nil
            }
            // $classes is never consulted: it grants nothing. A class dictionary is checked once.
            if let known = classNames[uid] {
                name = known
            } else {
                name = try graph.className(ofClassAt: uid, object: index)
                classNames[uid] = name
            }
        } catch {
            fail(error.code, error.message, at: path)
            return nil
        }
        guard let type = resolve(name, allowed: allowed, at: path) else { return nil }
        if let cached = cache[index] { return cached }
        guard !inProgress.contains(index) else {
            fail(.archiveCycle, "object \(index) (\(Excerpt.escape(name, quotes: false))) contains itself", at: path)
            return nil
        }
        guard levels.count <= limits.effectiveMaxDepth else {
            fail(.depthLimitExceeded, "objects nest deeper than \(limits.effectiveMaxDepth)", at: path)
            return nil
        }
        // Classes recurse in their own init(coder:): the outermost object sets
        // the stack budget, deeper ones (past a few) check it.
        if levels.count == 1 { stack = StackGuard(budget: limits.maxStackBytes) }
        defer { if levels.count == 1 { stack = nil } }
        if let stack, !stack.hasRoom(atDepth: levels.count) {
            fail(.depthLimitExceeded, "objects nest " + stack.exceededMessage, at: path)
            return nil
        }
        inProgress.insert(index)
        levels.append(Level(object: dictionary, allowed: allowed, path: path, className: name))
        let value = type.init(coder: self)
        checkKeys(of: levels.removeLast())
        inProgress.remove(index)
        if error != nil, decodingFailurePolicy == .raiseException { return nil }
        // The `ofClasses:` collections are read anew each time: their allowed classes are the call's, not the type's.
        if let value, !(type is ArchivedList.Type || type is ArchivedMap.Type) { cache[index] = value }
        return value
    }

    /// The allowed type that reads class `name`, after the secure-coding checks.
    private func resolve(_ name: String, allowed: [any SecureCoding.Type], at path: DocumentPath) -> (any SecureCoding.Type)? {
        // The app's own mapping first (setClass), then the names the allowed types declare.
        var candidate: (any SecureCoding.Type)?
        if let registered = registered[name], allowed.contains(where: { Self.isSubtype(registered, of: $0) }) {
            candidate = registered
        } else {
            candidate = allowed.first { $0.archiveClassNames.contains(name) }
        }
        guard let type = candidate else {
            fail(.classNotAllowed, "the archive holds class \(Excerpt.escape(name)) here; allowed: \(Self.names(allowed))", at: path)
            return nil
        }
        if requiresSecureCoding, !type.supportsSecureCoding {
            fail(.secureCodingNotSupported, "\(type) does not support secure coding", at: path)
            return nil
        }
        // A class must declare its own conformance: a subclass that inherits its superclass's
        // names (and with them its conformance) is refused — the talk's escape hatch.
        if Self.inheritsConformance(type) {
            fail(
                .secureCodingNotSupported,
                "\(type) inherits its secure coding from a superclass without declaring its own archiveClassNames", at: path)
            return nil
        }
        return type
    }

    private static func isSubtype(_ type: any SecureCoding.Type, of allowed: any SecureCoding.Type) -> Bool {
        func check<A: SecureCoding>(_: A.Type) -> Bool { type is A.Type }
        return check(allowed)
    }

    /// Whether a class's names are the ones its superclass declares (the archiver refuses to write such a class too).
    static func inheritsConformance(_ type: any SecureCoding.Type) -> Bool {
        guard let cls = type as? AnyClass, let superclass = _getSuperclass(cls), let parent = superclass as? any SecureCoding.Type else {
            return false
        }
        return parent.archiveClassNames == type.archiveClassNames
    }

    // MARK: Helpers

    /// A stored integer that fits `I`; one that does not is `numberOutOfRange`.
    private func integer<I: FixedWidthInteger>(_ type: I.Type, _ key: String) -> I {
        guard let stored = primitive(key, String(describing: I.self), { value -> PlistInteger? in
            if case .integer(let integer) = value { integer } else { nil }
        }) else { return 0 }
        let exact: I? =
            switch stored {
            case .signed(let value): I(exactly: value)
            case .unsigned(let value): I(exactly: value)
            }
        guard let exact else {
            fail(.numberOutOfRange, "\(stored) does not fit \(I.self)", at: codingPath.appending(.key(key)))
            return 0
        }
        return exact
    }

    /// The inline value for `key` read by `read`, which returns nil for a value of another kind
    /// (a type mismatch). A missing key gives nil without an error.
    private func primitive<T>(_ key: String, _ what: @autoclosure () -> String, _ read: (PlistValue) -> T?) -> T? {
        guard error == nil, let level = levels.last, let stored = lookup(key) else { return nil }
        let path = level.path.appending(.key(key))
        if case .uid = stored {
            fail(.typeMismatch, "an object where a \(what()) was asked", at: path)
            return nil
        }
        guard let value = read(stored) else {
            fail(.typeMismatch, "a \(Self.kind(stored)) where a \(what()) was asked", at: path)
            return nil
        }
        return value
    }

    func fail(_ code: VettedError.Code, _ message: String, at path: DocumentPath) {
        failWithError(VettedError(code: code, path: path, message: message))
    }

    private static func kind(_ value: PlistValue) -> String {
        switch value {
        case .dictionary: "dictionary"
        case .array: "array"
        case .string: "string"
        case .data: "data"
        case .date: "date"
        case .integer: "integer"
        case .real: "real number"
        case .bool: "boolean"
        case .uid: "UID"
        }
    }

    private static func names(_ types: [any SecureCoding.Type]) -> String {
        types.isEmpty ? "nothing" : types.map { String(describing: $0) }.joined(separator: ", ")
    }
}
