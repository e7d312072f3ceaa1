import Foundation
import VettedCore
import VettedPlist

/// Containers, for the conformances of Array, Set and Dictionary.
extension KeyedUnarchiver {
    /// The elements of the current object (`NS.objects`, or `NS.object.0`, `NS.object.1`, …), each one of `types`.
    /// The object must hold nothing else but `$class`: a damaged key (`NS.objec.s`) is
    /// `archiveCorrupted`, never an empty collection.
    public func decodeElements(ofClasses types: [any SecureCoding.Type]) -> [Any]? {
        guard error == nil, let level = levels.last else { return nil }
        guard let references = references(in: level.object, arrayKey: "NS.objects", prefix: "NS.object.") else { return nil }
        guard onlyCollectionKeys(in: level, [("NS.objects", "NS.object.", references.count)]) else { return nil }
        return elements(references, allowed: types, at: level.path)
    }

    /// The pairs of the current object (`NS.keys` and `NS.objects` of equal length, or `NS.key.N` / `NS.object.N`).
    public func decodePairs(keyClasses: [any SecureCoding.Type], objectClasses: [any SecureCoding.Type]) -> [(Any, Any)]? {
        guard error == nil, let level = levels.last else { return nil }
        guard let keys = references(in: level.object, arrayKey: "NS.keys", prefix: "NS.key."),
            let objects = references(in: level.object, arrayKey: "NS.objects", prefix: "NS.object.")
        else { return nil }
        guard onlyCollectionKeys(in: level, [("NS.keys", "NS.key.", keys.count), ("NS.objects", "NS.object.", objects.count)]) else { return nil }
        guard keys.count == objects.count else {
            fail(.archiveCorrupted, "NS.keys has \(keys.count) elements and NS.objects \(objects.count)", at: level.path)
            return nil
        }
        guard let decodedKeys = elements(keys, allowed: keyClasses, at: level.path),
            let decodedObjects = elements(objects, allowed: objectClasses, at: level.path)
        else { return nil }
        return Array(zip(decodedKeys, decodedObjects))
    }

    /// Whether the collection object at `level` holds `$class` and the given parts only (each an
    /// array key, or `count` numbered keys); else records `archiveCorrupted` naming the stray key.
    fileprivate func onlyCollectionKeys(in level: Level, _ parts: [(arrayKey: String, prefix: String, count: Int)]) -> Bool {
        let object = level.object
        var expected = object["$class"] == nil ? 0 : 1
        for part in parts { expected += object[part.arrayKey] == nil ? part.count : 1 }
        guard object.count != expected else {
            // Every key is one of the collection's parts: all of them are read.
            if !levels.isEmpty { levels[levels.count - 1].allRead = true }
            return true
        }
        var allowed: Set<String> = ["$class"]
        for part in parts {
            if object[part.arrayKey] != nil {
                allowed.insert(part.arrayKey)
            } else {
                for index in 0..<part.count { allowed.insert(part.prefix + String(index)) }
            }
        }
        let stray = object.keys.first { !allowed.contains($0) } ?? "?"
        fail(.archiveCorrupted, "the collection holds an unexpected key \(Excerpt.escape(stray))", at: level.path.appending(.key(stray)))
        return false
    }

    fileprivate func references(in object: PlistDictionary, arrayKey: String, prefix: String) -> [UInt64]? {
        var references: [UInt64] = []
        if let list = object[arrayKey] {
            guard case .array(let values) = list else {
                fail(.archiveCorrupted, "\(arrayKey) is not an array", at: codingPath)
                return nil
            }
            guard values.count <= limits.maxMembers else {
                fail(.memberLimitExceeded, "\(arrayKey) has \(values.count) elements; the limit is \(limits.maxMembers)", at: codingPath)
                return nil
            }
            for value in values {
                guard case .uid(let uid) = value else {
                    fail(.archiveCorrupted, "\(arrayKey) holds a value that is not a UID", at: codingPath)
                    return nil
                }
                references.append(uid)
            }
            return references
        }
        // The older form: NS.object.0, NS.object.1, … until the first gap; its keys
        // indexed once, so the whole collection is read in time linear in its size.
        var numbered: [String: PlistValue] = [:]
        for entry in object where entry.key.hasPrefix(prefix) && numbered[entry.key] == nil { numbered[entry.key] = entry.value }
        while let value = numbered[prefix + String(references.count)] {
            guard references.count < limits.maxMembers else {
                fail(.memberLimitExceeded, "more than \(limits.maxMembers) elements", at: codingPath)
                return nil
            }
            guard case .uid(let uid) = value else {
                fail(.archiveCorrupted, "\(prefix)\(references.count) is not a UID", at: codingPath)
                return nil
            }
            references.append(uid)
        }
        return references
    }

    fileprivate func elements(_ references: [UInt64], allowed: [any SecureCoding.Type], at path: DocumentPath) -> [Any]? {
        var values: [Any] = []
        values.reserveCapacity(references.count)
        for (index, uid) in references.enumerated() {
            guard let value = object(uid, allowed: allowed, at: path.appending(.index(index))) else {
                if error == nil { fail(.typeMismatch, "a null element in a collection", at: path.appending(.index(index))) }
                return nil
            }
            values.append(value)
        }
        return values
    }
}
