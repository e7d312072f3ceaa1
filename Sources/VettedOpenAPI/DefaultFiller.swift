#if OpenAPI  // the trait that brings in swift-openapi-runtime and Yams (Package.swift)
import Vetted

/// Fills in, in a valid body, each absent property that has a `default` where its schema
/// says so: through `properties`, `items`, `allOf` and `$ref`, where which schema applies
/// does not depend on the value. (`anyOf`, `oneOf` and `if` choose by the value; their
/// defaults are not filled in.)
///
/// Each value of the body is visited once, with the set of schemas that apply to it, so
/// the work is bounded by the body's size times the document's schemas, never more.
struct DefaultFiller {
    let document: OpenAPIDocument
    let maximumDepth: Int

    /// Fills `value` from the schemas at `schemas` (pointers); whether anything was filled in.
    mutating func fill(_ value: inout JSONValue, schemas: [String], depth: Int) -> Bool {
        guard depth < maximumDepth, !schemas.isEmpty else { return false }
        let applicable = closure(schemas)
        switch value {
        case .object(var object):
            var changed = false
            var children: [String: [String]] = [:]
            for (pointer, schema) in applicable {
                guard case .object(let properties)? = schema["properties"] else { continue }
                for property in properties {
                    let child = pointer + "/properties/" + OpenAPIDocument.escape(property.key)
                    if object[property.key] == nil, let value = defaultValue(at: child) {
                        object[property.key] = value
                        changed = true
                    } else {
                        children[property.key, default: []].append(child)
                    }
                }
            }
            for index in object.indices {
                let member = object[index]
                guard let pointers = children[member.key] else { continue }
                var child = member.value
                if fill(&child, schemas: pointers, depth: depth + 1) {
                    object[member.key] = child
                    changed = true
                }
            }
            if changed { value = .object(object) }
            return changed
        case .array(var elements):
            let items = applicable.compactMap { $0.1["items"] == nil ? nil : $0.0 + "/items" }
            guard !items.isEmpty else { return false }
            var changed = false
            for index in elements.indices where fill(&elements[index], schemas: items, depth: depth + 1) { changed = true }
            if changed { value = .array(elements) }
            return changed
        default:
            return false
        }
    }

    /// The schemas at `pointers` and those they reach through `$ref` and `allOf`, each once.
    private func closure(_ pointers: [String]) -> [(String, JSONObject)] {
        var seen: Set<String> = []
        var queue = pointers
        var found: [(String, JSONObject)] = []
        while let pointer = queue.popLast() {
            guard seen.insert(pointer).inserted, case .object(let schema)? = document.value(at: pointer) else { continue }
            found.append((pointer, schema))
            if case .string(let reference)? = schema["$ref"], reference.hasPrefix("#"), let target = OpenAPIDocument.fragmentPointer(reference) {
                queue.append(target)
            }
            if case .array(let parts)? = schema["allOf"] {
                for index in parts.indices { queue.append(pointer + "/allOf/\(index)") }
            }
        }
        return found
    }

    /// The `default` of the schema at `pointer`, or of the first schema its `$ref` chain reaches that has one.
    private func defaultValue(at pointer: String) -> JSONValue? {
        var pointer = pointer
        for _ in 0..<OpenAPIDocument.maximumReferenceHops {
            guard case .object(let schema)? = document.value(at: pointer) else { return nil }
            if let value = schema["default"] { return value }
            guard case .string(let reference)? = schema["$ref"], reference.hasPrefix("#"), let target = OpenAPIDocument.fragmentPointer(reference) else {
                return nil
            }
            pointer = target
        }
        return nil
    }
}
#endif
