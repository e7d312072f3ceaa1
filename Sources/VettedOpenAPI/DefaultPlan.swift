#if OpenAPI  // the trait that brings in swift-openapi-runtime and Yams (Package.swift)
import Vetted

/// Where a request body's absent properties get a `default`, compiled once from the document
/// when the contract is made, so that filling them in costs a request no pointer lookups.
///
/// Defaults are filled in through `properties`, `items`, `allOf` and `$ref`, where which
/// schema applies does not depend on the value. (`anyOf`, `oneOf` and `if` choose by the
/// value; their defaults are not filled in.)
///
/// Each schema the body's schema reaches is one node, made once (a `$ref` cycle is a cycle
/// of nodes), so the plan is no larger than the document. Each value of the body is visited
/// once, with the nodes that apply to it, so the work is bounded by the body's size times the
/// document's schemas, never more.
struct DefaultPlan: Sendable {
    struct Node: Sendable {
        /// The schema's `properties`, in its order: each name and its schema's node.
        var properties: [(name: String, node: Int)] = []
        /// The node of `items`, if the schema has one.
        var items: Int?
        /// The nodes that apply with this one: its `$ref`'s target, then each of `allOf`.
        var applies: [Int] = []
        /// The schema's `default`, or that of the first schema its `$ref` chain reaches that has one.
        var defaultValue: JSONValue?
    }

    private let nodes: [Node]

    /// The plan of the schema at `pointer`, or `nil` when no property it reaches has a default.
    init?(document: OpenAPIDocument, pointer: String) {
        var ids: [String: Int] = [pointer: 0]
        var pointers = [pointer]
        func node(_ pointer: String) -> Int {
            if let id = ids[pointer] { return id }
            ids[pointer] = pointers.count
            pointers.append(pointer)
            return pointers.count - 1
        }
        var nodes: [Node] = []
        // `pointers` grows as nodes are met; each is built once, in the order it was first met.
        while nodes.count < pointers.count {
            let pointer = pointers[nodes.count]
            var built = Node()
            if case .object(let schema)? = document.value(at: pointer) {
                if case .string(let reference)? = schema["$ref"], reference.hasPrefix("#"), let target = OpenAPIDocument.fragmentPointer(reference) {
                    built.applies.append(node(target))
                }
                if case .array(let parts)? = schema["allOf"] {
                    for index in parts.indices { built.applies.append(node(pointer + "/allOf/\(index)")) }
                }
                if case .object(let properties)? = schema["properties"] {
                    for property in properties {
                        built.properties.append((property.key, node(pointer + "/properties/" + OpenAPIDocument.escape(property.key))))
                    }
                }
                if schema["items"] != nil { built.items = node(pointer + "/items") }
                built.defaultValue = Self.defaultValue(of: schema, in: document)
            }
            nodes.append(built)
        }
        guard nodes.contains(where: { $0.properties.contains { nodes[$0.node].defaultValue != nil } }) else { return nil }
        self.nodes = nodes
    }

    private static func defaultValue(of schema: JSONObject, in document: OpenAPIDocument) -> JSONValue? {
        var schema = schema
        for _ in 0..<OpenAPIDocument.maximumReferenceHops {
            if let value = schema["default"] { return value }
            guard case .string(let reference)? = schema["$ref"], reference.hasPrefix("#"), let target = OpenAPIDocument.fragmentPointer(reference),
                case .object(let next)? = document.value(at: target)
            else { return nil }
            schema = next
        }
        return nil
    }

    /// Fills `value`, a body valid against the plan's schema, in place; whether anything was filled in.
    func fill(_ value: inout JSONValue, maximumDepth: Int) -> Bool {
        fill(&value, nodes: [0], depth: 0, maximumDepth: maximumDepth)
    }

    private func fill(_ value: inout JSONValue, nodes start: [Int], depth: Int, maximumDepth: Int) -> Bool {
        guard depth < maximumDepth, !start.isEmpty else { return false }
        let applicable = closure(start)
        switch value {
        case .object(var object):
            var changed = false
            var children: [String: [Int]] = [:]
            for id in applicable {
                for property in nodes[id].properties {
                    if object[property.name] == nil, let filled = nodes[property.node].defaultValue {
                        object[property.name] = filled
                        changed = true
                    } else {
                        children[property.name, default: []].append(property.node)
                    }
                }
            }
            guard !children.isEmpty else {
                if changed { value = .object(object) }
                return changed
            }
            for index in object.indices {
                let member = object[index]
                guard let schemas = children[member.key] else { continue }
                var child = member.value
                if fill(&child, nodes: schemas, depth: depth + 1, maximumDepth: maximumDepth) {
                    object[member.key] = child
                    changed = true
                }
            }
            if changed { value = .object(object) }
            return changed
        case .array(var elements):
            let items = applicable.compactMap { nodes[$0].items }
            guard !items.isEmpty else { return false }
            var changed = false
            for index in elements.indices where fill(&elements[index], nodes: items, depth: depth + 1, maximumDepth: maximumDepth) { changed = true }
            if changed { value = .array(elements) }
            return changed
        default:
            return false
        }
    }

    /// The nodes `start` names and those they reach through `$ref` and `allOf`, each once.
    private func closure(_ start: [Int]) -> [Int] {
        if start.count == 1, nodes[start[0]].applies.isEmpty { return start }
        var seen: Set<Int> = []
        var stack = start
        var found: [Int] = []
        while let id = stack.popLast() {
            guard seen.insert(id).inserted else { continue }
            found.append(id)
            stack += nodes[id].applies
        }
        return found
    }
}
#endif
