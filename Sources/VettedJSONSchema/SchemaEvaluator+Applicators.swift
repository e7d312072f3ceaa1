import VettedCore
import VettedJSON
import VettedRules

// The applicators that are not references, each in a small function of its own: a
// debug build's recursion (evaluate → keywords → apply → applicator → evaluate) then
// keeps small stack frames.
extension SchemaEvaluator {
    @inline(never)
    mutating func applyAllOf(
        _ children: [Int], _ node: Int, _ instance: JSONValue, reporting: Bool, collect: Bool, _ annotations: inout Annotations
    ) -> Bool {
        var matches = true
        for child in children {
            if !inPlace(child, instance, reporting: reporting, collect: collect, &annotations) {
                matches = false
                if !reporting { return false }
            }
        }
        return matches
    }

    @inline(never)
    mutating func applyAnyOf(
        _ children: [Int], _ node: Int, _ instance: JSONValue, reporting: Bool, collect: Bool, _ annotations: inout Annotations
    ) -> Bool {
        var matches = false
        for child in children {
            if inPlace(child, instance, reporting: false, collect: collect, &annotations) {
                matches = true
                if !collect { break }
            }
        }
        if !matches, reporting { report("anyOf", node, keyword: "anyOf", "matches none of the \(children.count) schemas of anyOf") }
        return matches
    }

    @inline(never)
    mutating func applyOneOf(
        _ children: [Int], _ node: Int, _ instance: JSONValue, reporting: Bool, collect: Bool, _ annotations: inout Annotations
    ) -> Bool {
        var count = 0
        var chosen = Annotations()
        for child in children {
            let outcome = evaluate(child, instance, reporting: false, collect: collect)
            if outcome.valid {
                count += 1
                chosen = outcome.annotations
                if count > 1 { break }
            }
        }
        if count == 1 {
            if collect { annotations.merge(chosen) }
            return true
        }
        if reporting {
            report(
                "oneOf", node, keyword: "oneOf",
                count == 0 ? "matches none of the \(children.count) schemas of oneOf" : "matches more than one schema of oneOf")
        }
        return false
    }

    @inline(never)
    mutating func applyNot(
        _ child: Int, _ node: Int, _ instance: JSONValue, reporting: Bool, collect: Bool, _ annotations: inout Annotations
    ) -> Bool {
        let matches = !evaluate(child, instance, reporting: false, collect: false).valid
        if !matches, reporting { report("not", node, keyword: "not", "matches the schema it must not match") }
        return matches
    }

    @inline(never)
    mutating func applyConditional(
        _ condition: Int, _ then: Int?, _ otherwise: Int?, _ node: Int, _ instance: JSONValue, reporting: Bool, collect: Bool, _ annotations: inout Annotations
    ) -> Bool {
        let test = evaluate(condition, instance, reporting: false, collect: collect)
        if test.valid {
            if collect { annotations.merge(test.annotations) }
            guard let then else { return true }
            return inPlace(then, instance, reporting: reporting, collect: collect, &annotations)
        }
        guard let otherwise else { return true }
        return inPlace(otherwise, instance, reporting: reporting, collect: collect, &annotations)
    }

    @inline(never)
    mutating func applyDependentSchemas(
        _ dependencies: [(String, Int)], _ node: Int, _ instance: JSONValue, reporting: Bool, collect: Bool, _ annotations: inout Annotations
    ) -> Bool {
        guard case .object(let object) = instance else { return true }
        // The schemas of the members present, all of which must hold.
        let triggered = dependencies.filter { object[$0.0] != nil }.map(\.1)
        return applyAllOf(triggered, node, instance, reporting: reporting, collect: collect, &annotations)
    }

    @inline(never)
    mutating func applyObjectShape(
        _ properties: [String: Int], _ patterns: [(LinearPattern, String, Int)], _ additional: Int?, _ node: Int, _ instance: JSONValue, reporting: Bool, collect: Bool, _ annotations: inout Annotations
    ) -> Bool {
        guard case .object(let object) = instance else { return true }
        if patterns.isEmpty {
            return applyProperties(properties, additional, node, object, reporting: reporting, collect: collect, &annotations)
        }
        var matches = true
        for (position, member) in object.enumerated() {
            var matched = false
            if let child = properties[member.key] {
                matched = true
                if !below(child, position, member.value, reporting: reporting, keyword: "properties", from: node) {
                    matches = false
                    if !reporting { return false }
                }
            }
            for (pattern, _, child) in patterns where pattern.matches(member.key) {
                matched = true
                if !below(child, position, member.value, reporting: reporting, keyword: "patternProperties", from: node) {
                    matches = false
                    if !reporting { return false }
                }
            }
            if !matched, let additional {
                if !below(additional, position, member.value, reporting: reporting, keyword: "additionalProperties", from: node) {
                    matches = false
                    if !reporting { return false }
                }
            }
            if matched, collect { annotations.properties.insert(member.key) }
        }
        if additional != nil, collect { annotations.allProperties = true }
        return matches
    }

    /// `properties` and `additionalProperties` without `patternProperties`: each member's
    /// subschema found once per object shape (see ``memberSchemas``).
    private mutating func applyProperties(
        _ properties: [String: Int], _ additional: Int?, _ node: Int, _ object: JSONObject, reporting: Bool, collect: Bool, _ annotations: inout Annotations
    ) -> Bool {
        let keys = object.keys, values = object.values
        let children: [Int]
        if let known = memberSchemas[node], known.keys == keys {
            children = known.children
        } else {
            children = keys.map { properties[$0] ?? -1 }
            memberSchemas[node] = (keys, children)
        }
        var matches = true
        for index in 0..<Swift.min(keys.count, values.count, children.count) {
            let child = children[index]
            let valid: Bool
            if child >= 0 {
                valid = below(child, index, values[index], reporting: reporting, keyword: "properties", from: node)
                if collect { annotations.properties.insert(keys[index]) }
            } else if let additional {
                valid = below(additional, index, values[index], reporting: reporting, keyword: "additionalProperties", from: node)
            } else {
                continue
            }
            if !valid {
                matches = false
                if !reporting { return false }
            }
        }
        if additional != nil, collect { annotations.allProperties = true }
        return matches
    }

    @inline(never)
    mutating func applyPropertyNames(
        _ child: Int, _ node: Int, _ instance: JSONValue, reporting: Bool, collect: Bool, _ annotations: inout Annotations
    ) -> Bool {
        guard case .object(let object) = instance else { return true }
        var matches = true
        for (position, member) in object.enumerated() {
            if !below(child, position, .string(member.key), reporting: reporting, keyword: "propertyNames", from: node) {
                matches = false
                if !reporting { return false }
            }
        }
        return matches
    }

    @inline(never)
    mutating func applyArrayShape(
        _ prefix: [Int], _ rest: Int?, _ restKeyword: String, _ node: Int, _ instance: JSONValue, reporting: Bool, collect: Bool, _ annotations: inout Annotations
    ) -> Bool {
        guard case .array(let elements) = instance else { return true }
        var matches = true
        for (position, element) in elements.enumerated() {
            let child: Int
            let keyword: String
            if position < prefix.count {
                child = prefix[position]
                keyword = restKeyword == "items" && !prefix.isEmpty ? "prefixItems" : "items"
            } else if let rest {
                child = rest
                keyword = restKeyword
            } else {
                break
            }
            if !below(child, position, element, reporting: reporting, keyword: keyword, from: node) {
                matches = false
                if !reporting { return false }
            }
        }
        if collect {
            annotations.prefixItems = Swift.max(annotations.prefixItems, Swift.min(prefix.count, elements.count))
            if rest != nil { annotations.allItems = true }
        }
        return matches
    }

    @inline(never)
    mutating func applyContains(
        _ child: Int, _ minimum: Int, _ maximum: Int?, _ node: Int, _ instance: JSONValue, reporting: Bool, collect: Bool, _ annotations: inout Annotations
    ) -> Bool {
        guard case .array(let elements) = instance else { return true }
        var found = 0
        for (position, element) in elements.enumerated() {
            enter(position)
            let matched = evaluate(child, element, reporting: false, collect: false).valid
            leave()
            if matched {
                found += 1
                if collect { annotations.items.insert(position) }
            }
        }
        var matches = found >= minimum
        if let maximum, found > maximum { matches = false }
        if !matches, reporting {
            if found < minimum {
                report(
                    minimum == 1 ? "contains" : "minContains", node, keyword: minimum == 1 ? "contains" : "minContains",
                    "\(found) items match contains, fewer than \(minimum)", ["minContains": .integer(minimum), "found": .integer(found)])
            } else {
                report(
                    "maxContains", node, keyword: "maxContains", "\(found) items match contains, more than \(maximum ?? 0)",
                    ["maxContains": .integer(maximum ?? 0), "found": .integer(found)])
            }
        }
        return matches
    }

    @inline(never)
    mutating func applyUnevaluatedProperties(
        _ child: Int, _ node: Int, _ instance: JSONValue, reporting: Bool, collect: Bool, _ annotations: inout Annotations
    ) -> Bool {
        guard case .object(let object) = instance else { return true }
        if annotations.allProperties { return true }
        var matches = true
        for (position, member) in object.enumerated() where !annotations.properties.contains(member.key) {
            if !below(child, position, member.value, reporting: reporting, keyword: "unevaluatedProperties", from: node) {
                matches = false
                if !reporting { return false }
            }
        }
        if collect { annotations.allProperties = true }
        return matches
    }

    @inline(never)
    mutating func applyUnevaluatedItems(
        _ child: Int, _ node: Int, _ instance: JSONValue, reporting: Bool, collect: Bool, _ annotations: inout Annotations
    ) -> Bool {
        guard case .array(let elements) = instance else { return true }
        if annotations.allItems { return true }
        var matches = true
        for (position, element) in elements.enumerated() where position >= annotations.prefixItems && !annotations.items.contains(position) {
            if !below(child, position, element, reporting: reporting, keyword: "unevaluatedItems", from: node) {
                matches = false
                if !reporting { return false }
            }
        }
        if collect { annotations.allItems = true }
        return matches
    }
}
