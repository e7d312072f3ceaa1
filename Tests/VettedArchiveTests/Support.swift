import Foundation
import Testing
import VettedArchive
import VettedCore
import VettedTestSupport
import VettedPlist

/// The archive's plist, edited by `edit`, written back as binary.
func rewritten(_ data: Data, _ edit: (inout [PlistValue], inout PlistDictionary) -> Void) throws -> Data {
    guard case .dictionary(var root) = try PlistParser().parse(Array(data)), case .array(var objects)? = root["$objects"],
        case .dictionary(var top)? = root["$top"]
    else { throw Unexpected() }
    edit(&objects, &top)
    root["$objects"] = .array(objects)
    root["$top"] = .dictionary(top)
    return Data(PlistWriter.binary(.dictionary(root)))
}

struct Unexpected: Error {}

/// Renames class `name` (its `$classname`) and sets its `$classes`.
func renamingClass(_ data: Data, _ name: String, to newName: String, classes: [String]? = nil) throws -> Data {
    try rewritten(data) { objects, _ in
        for index in objects.indices {
            guard case .dictionary(var info) = objects[index], info["$classname"]?.stringValue == name else { continue }
            info["$classname"] = .string(newName)
            info["$classes"] = .array((classes ?? [newName, "NSObject"]).map(PlistValue.string))
            objects[index] = .dictionary(info)
        }
    }
}

/// The index of the first object of class `name`.
func objectIndex(ofClass name: String, in objects: [PlistValue]) -> Int? {
    guard let classIndex = objects.firstIndex(where: { $0["$classname"]?.stringValue == name }) else { return nil }
    return objects.firstIndex { $0["$class"] == .uid(UInt64(classIndex)) }
}

/// The error of a top-level call that must fail.
func archiveError<T>(_ body: () throws -> T?, sourceLocation: SourceLocation = #_sourceLocation) -> (any Error)? {
    do {
        let value = try body()
        Issue.record("expected an error, got \(String(describing: value))", sourceLocation: sourceLocation)
        return nil
    } catch {
        return error
    }
}

extension Optional where Wrapped == any Error {
    var vetted: VettedError? { self as? VettedError }
}
