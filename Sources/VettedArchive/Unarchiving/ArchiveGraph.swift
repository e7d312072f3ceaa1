public import VettedCore
public import VettedPlist

/// An NSKeyedArchiver archive as data: its top keys and its object table,
/// checked for structure, with nothing instantiated.
///
/// `$archiver` must be `NSKeyedArchiver`, `$version` 100000, `$top` a
/// dictionary of UIDs, `$objects` an array whose first element is `$null`.
/// Every UID is checked when it is followed.
public struct ArchiveGraph: Sendable {
    /// The `$objects` table.
    public let objects: [PlistValue]
    /// The `$top` dictionary: UIDs of the top objects, and primitives encoded at the top level.
    public let top: PlistDictionary

    /// Reads an archive from binary or XML plist bytes under `limits`
    /// (`maxValues` also bounds the object table).
    ///
    /// - Throws: `VettedError`: the plist's syntax and limits, then the archive's structure (`archiveCorrupted`).
    public init(parsing bytes: [UInt8], limits: Limits = .default) throws(VettedError) {
        let root = try PlistParser(limits: limits).parse(bytes)
        try self.init(root, limits: limits)
    }

    /// Reads an archive from a property list already read.
    ///
    /// - Throws: `VettedError` (`archiveCorrupted`) when `root` is not an archive's dictionary or its object table is malformed, or past `limits`.
    public init(_ root: PlistValue, limits: Limits = .default) throws(VettedError) {
        guard case .dictionary(let archive) = root else {
            throw Self.notArchive("the top level is not a dictionary")
        }
        guard archive["$archiver"]?.stringValue == "NSKeyedArchiver" else {
            throw Self.notArchive("$archiver is not \"NSKeyedArchiver\"")
        }
        guard case .integer(let version)? = archive["$version"], version == PlistInteger(Int64(100_000)) else {
            throw Self.notArchive("$version is not 100000")
        }
        guard case .array(let objects)? = archive["$objects"], objects.first?.stringValue == "$null" else {
            throw Self.notArchive("$objects is not an array starting with \"$null\"")
        }
        guard objects.count <= limits.maxValues else {
            throw VettedError(code: .valueLimitExceeded, message: "the archive has \(objects.count) objects; the limit is \(limits.maxValues)")
        }
        guard case .dictionary(let topDictionary)? = archive["$top"] else { throw Self.notArchive("$top is not a dictionary") }
        // UIDs are checked when they are followed, like every other reference.
        self.objects = objects
        self.top = topDictionary
    }

    /// The class of object `index`, if it is a keyed object: its `$classname`
    /// and `$classes`. Structure only — no class is looked up anywhere.
    ///
    /// - Throws: `VettedError` (`archiveCorrupted`) for an index outside the object table or a malformed class entry.
    public func classInfo(ofObject index: Int) throws(VettedError) -> (name: String, classes: [String])? {
        guard let uid = try classUID(ofObject: index) else { return nil }
        switch classDictionary(at: uid) {
        case .success(let info): return info
        case .failure(let defect): throw corrupted("object \(index): \(defect.reason)")
        }
    }

    /// ``classInfo(ofObject:)`` for every object, by index, each class dictionary
    /// checked once however many objects share it: linear in the archive.
    public func allClassInfo() -> [Result<(name: String, classes: [String])?, VettedError>] {
        var byClass: [Int: Result<(name: String, classes: [String]), ClassDefect>] = [:]
        var result: [Result<(name: String, classes: [String])?, VettedError>] = []
        result.reserveCapacity(objects.count)
        for index in objects.indices {
            let uid: Int?
            do { uid = try classUID(ofObject: index) } catch {
                result.append(.failure(error))
                continue
            }
            guard let uid else {
                result.append(.success(nil))
                continue
            }
            let info = byClass[uid] ?? classDictionary(at: uid)
            byClass[uid] = info
            switch info {
            case .success(let value): result.append(.success(value))
            case .failure(let defect): result.append(.failure(corrupted("object \(index): \(defect.reason)")))
            }
        }
        return result
    }

    /// The index of object `index`'s class dictionary (its `$class` UID, checked
    /// to be in the archive), or nil when the object is not a keyed object.
    public func classUID(ofObject index: Int) throws(VettedError) -> Int? {
        guard objects.indices.contains(index), case .dictionary(let object) = objects[index] else { return nil }
        guard let reference = object["$class"] else { return nil }
        guard case .uid(let uid) = reference, uid > 0, uid < UInt64(objects.count) else {
            throw corrupted("object \(index): $class is not a UID of an object in the archive")
        }
        return Int(uid)
    }

    /// The `$classname` of the class dictionary at `uid`, after checking that it
    /// is one (and that `$classes`, when present, is an array of strings).
    /// `object` names the object that refers to it, for the message.
    func className(ofClassAt uid: Int, object index: Int) throws(VettedError) -> String {
        switch classDictionary(at: uid) {
        case .success(let info): return info.name
        case .failure(let defect): throw corrupted("object \(index): \(defect.reason)")
        }
    }

    /// What is wrong with a class dictionary, without the object that refers to it.
    struct ClassDefect: Error {
        let reason: String
    }

    /// The class dictionary at `uid`: its `$classname` and `$classes`, or what is wrong with it.
    private func classDictionary(at uid: Int) -> Result<(name: String, classes: [String]), ClassDefect> {
        guard objects.indices.contains(uid), case .dictionary(let info) = objects[uid], let name = info["$classname"]?.stringValue else {
            return .failure(ClassDefect(reason: "$class does not name a class dictionary with $classname"))
        }
        var classes: [String] = []
        if let chain = info["$classes"] {
            guard case .array(let names) = chain else { return .failure(ClassDefect(reason: "$classes is not an array")) }
            for element in names {
                guard let name = element.stringValue else { return .failure(ClassDefect(reason: "$classes holds a non-string")) }
                classes.append(name)
            }
        }
        return .success((name, classes))
    }

    /// How many defects ``defects(limit:)`` lists unless told otherwise.
    public static let defaultDefectLimit = 100

    /// Every structural defect, each at its object (`$.$objects[3]`) or `$top`
    /// key: a UID outside the object table (in `$top` or in any object), a
    /// `$class` that is not a class dictionary (an instance, `$null`), a class
    /// dictionary whose `$classname` is not a string. Nothing is instantiated;
    /// one pass over the archive, iterative (no depth can overflow the stack).
    ///
    /// The first `limit` defects are listed, in archive order; `omitted` counts
    /// the rest. Memory is linear in the archive: a value's place is kept as a
    /// link to its container's, and a path is spelled out only for a defect
    /// that is listed (a 300 KB archive of 150,000 bad UIDs 500 levels deep
    /// once held a 500-component path for each, 1.9 GB).
    public func defectReport(limit: Int = defaultDefectLimit) -> (defects: [VettedError], omitted: Int) {
        var found: [VettedError] = []
        var omitted = 0
        // Places: the component that leads to a value, and the place of its container (-1: none).
        var places: [(parent: Int, component: DocumentPath.Component)] = []
        func path(of place: Int) -> DocumentPath {
            var components: [DocumentPath.Component] = []
            var current = place
            while current >= 0, current < places.count {
                components.append(places[current].component)
                current = places[current].parent
            }
            return DocumentPath(components.reversed())
        }
        func record(_ message: @autoclosure () -> String, at place: () -> DocumentPath) {
            guard found.count < limit else {
                omitted += 1
                return
            }
            found.append(corrupted(message(), path: place()))
        }
        func check(_ value: PlistValue, root: [DocumentPath.Component], what: String) {
            places.removeAll(keepingCapacity: true)
            var parent = -1
            for component in root {
                places.append((parent, component))
                parent = places.count - 1
            }
            var pending: [(value: PlistValue, place: Int)] = [(value, parent)]
            while let (value, place) = pending.popLast() {
                switch value {
                case .uid(let uid) where uid >= UInt64(objects.count):
                    record("\(what): UID \(uid) is outside the object table (\(objects.count) objects)") { path(of: place) }
                case .array(let elements):
                    for (index, element) in elements.enumerated().reversed() {
                        places.append((place, .index(index)))
                        pending.append((element, places.count - 1))
                    }
                case .dictionary(let dictionary):
                    for entry in dictionary.reversed() {
                        places.append((place, .key(entry.key)))
                        pending.append((entry.value, places.count - 1))
                    }
                default: break
                }
            }
        }
        for entry in top {
            check(entry.value, root: [.key("$top"), .key(entry.key)], what: "$top")
        }
        let infos = allClassInfo()
        for (index, object) in objects.enumerated() {
            check(object, root: [.key("$objects"), .index(index)], what: "object \(index)")
            guard case .dictionary(let dictionary) = object else { continue }
            let path = { DocumentPath([.key("$objects"), .index(index)]) }
            if dictionary["$classname"] != nil || dictionary["$classes"] != nil {
                // A class dictionary.
                if dictionary["$classname"]?.stringValue == nil {
                    record("object \(index): $classname is not a string") { path().appending(.key("$classname")) }
                }
                continue
            }
            if case .failure(let error) = infos[index] {
                if found.count < limit {
                    found.append(VettedError(code: error.code, path: path().appending(.key("$class")), message: error.message))
                } else {
                    omitted += 1
                }
            }
        }
        return (found, omitted)
    }

    /// The first `limit` of ``defectReport(limit:)``'s defects.
    public func defects(limit: Int = defaultDefectLimit) -> [VettedError] {
        defectReport(limit: limit).defects
    }

    /// Every class name the archive mentions, sorted, without instantiating anything.
    public func classNames() -> [String] {
        var names = Set<String>()
        for object in objects {
            guard case .dictionary(let dictionary) = object, let name = dictionary["$classname"]?.stringValue else { continue }
            names.insert(name)
        }
        return names.sorted()
    }

    func corrupted(_ message: String, path: DocumentPath = DocumentPath()) -> VettedError {
        VettedError(code: .archiveCorrupted, path: path, message: message)
    }

    private static func notArchive(_ why: String) -> VettedError {
        VettedError(code: .notAKeyedArchive, message: "not an NSKeyedArchiver archive: \(why)")
    }
}
