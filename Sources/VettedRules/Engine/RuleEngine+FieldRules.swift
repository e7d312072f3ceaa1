extension RuleEngine {
    /// A field's rules on its decoded value, once the field's entry in the rules is
    /// known (generated decoding knows it from the start; `init(from:)` looks it up
    /// with ``TypeRules/entryIndex(_:)``): every decoder's one field-rule loop.
    ///
    /// Inlined into each decoder and specialized there for the field's type, so a
    /// rule of the value's own type checks it without boxing it; a field no rule
    /// names costs one bounds check.
    ///
    /// - Throws: What ``failed(_:check:name:valueType:in:path:location:)`` throws:
    ///   the violation in fail-fast mode, a declaration error for a rule of another type.
    @inlinable @inline(__always)
    package func validate<Value>(
        _ decoded: Value, entry: Int, name: () -> String, in scope: RuleScope,
        path: () -> [any CodingKey], location: () -> ValueLocation?
    ) throws {
        let rules = scope.rules
        guard rules.entries.indices.contains(entry) else { return }
        try rules.entries[entry].checks.forEachFailure(of: decoded) { check, outcome throws in
            try failed(outcome, check: check, name: name(), valueType: Value.self, in: scope, path: path, location: location)
        }
        if let slot = rules.entries[entry].slot { keep(decoded, slot: slot, in: scope) }
    }
}
