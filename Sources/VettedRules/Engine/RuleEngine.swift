public import VettedCore

// The format-neutral half of validating decoding. A decoder (JSON's tape
// decoder, the property-list decoder) walks its input and tells the engine
// what happens, in substance:
// - `begin`: a value of a `Validatable` type starts decoding;
// - `asked` / `readAllKeys` / `sawKeys`: its `init(from:)` looked up a key,
//   read `allKeys`, or made a keyed container of some key type;
// - a field of some type decoded at a key: the decoder finds the field's
//   entry (`TypeRules.entryIndex`), runs its checks in its own module, where
//   the loop is specialized for the field's type (one loop per format module:
//   a generic call into this module stays unspecialized, even `@inlinable`),
//   and hands what fails to `failed` and what relations need to `keep`;
// - `end`: the value finished (or failed).
// The engine runs the field rules and relations, collects violations under
// the mode and cap, and proves each type's rules are declared right: the
// first value of a type that decodes whole must have asked for every key a
// rule names, and every rule must be of its field's type. A misdeclared rule
// is an error in every mode, never a silent skip.

extension VettedError.Code {
    /// A rule (or relation) names a key that is none of the type's coding keys.
    public static let ruleKeyUnknown = VettedError.Code("ruleKeyUnknown")
    /// A rule (or relation) names a key that the type's `init(from:)` never looked up.
    public static let ruleKeyNotDecoded = VettedError.Code("ruleKeyNotDecoded")
    /// A rule's value type is neither its field's type nor its optional's wrapped type
    /// (or a relation's type is not its fields').
    public static let ruleTypeMismatch = VettedError.Code("ruleTypeMismatch")
    /// A tagged union's tag key (or content key) is also a field of a case's payload:
    /// the document could not say which is meant.
    public static let unionKeyIsPayloadField = VettedError.Code("unionKeyIsPayloadField")
    /// A field's default (`@Default`) breaks the field's own rules: every document without
    /// the key would fail. Reported when the default is first used.
    public static let defaultBreaksRule = VettedError.Code("defaultBreaksRule")

    /// Whether this code reports a rule declared wrong: a programmer's error, not bad input.
    /// (Compared one by one: hashing the code for the set cost more, and every violation asks.)
    public var isRuleDeclaration: Bool {
        self == .ruleKeyUnknown || self == .ruleKeyNotDecoded || self == .ruleTypeMismatch || self == .invalidPattern
            || self == .emptyHostAllowlist || self == .declarationNotChecked || self == .unionKeyIsPayloadField || self == .defaultBreaksRule
    }

    /// Every code that reports a rule declared wrong: thrown in every mode, never a value's fault.
    public static let ruleDeclarations: Set<VettedError.Code> = [
        .ruleKeyUnknown, .ruleKeyNotDecoded, .ruleTypeMismatch, .invalidPattern, .emptyHostAllowlist, .declarationNotChecked,
        .unionKeyIsPayloadField, .defaultBreaksRule,
    ]

    /// Whether a value broke one of VettedRules' own rules (range, length, pattern, URL,
    /// date, relation, display-safe text): the primitive stage's codes.
    public var isRuleViolation: Bool { Self.ruleViolations.contains(self) }

    /// Every code a rule of VettedRules reports for a value.
    public static let ruleViolations: Set<VettedError.Code> = [
        .outOfRange, .tooShort, .tooLong, .empty, .patternMismatch, .notAllowed, .notUnique, .tooEarly, .tooLate,
        .nonFiniteDate, .invalidURL, .schemeNotAllowed, .hostNotAllowed, .userInfoNotAllowed, .ipHostNotAllowed, .confusableHost,
        .relationViolated, .nulCharacter, .controlCharacter, .bidiControl, .invisibleCharacter, .nonCharacter,
    ]
}

/// `Module.Outer.Inner`: the full name of a type, without the
/// `(unknown context at $…)` the runtime puts in for private and local types
/// (synthesized `CodingKeys` are private).
func readableName(of type: Any.Type) -> String {
    var name = String(reflecting: type)
    while let start = name.firstRange(of: "(unknown context at "), let end = name[start.upperBound...].firstRange(of: ").") {
        name.removeSubrange(start.lowerBound..<end.upperBound)
    }
    return name
}

/// The rules of one `Validatable` type, as a decoder applies them during one call.
///
/// This and the other types the field-rule loop (``RuleEngine/validate(_:entry:name:in:path:location:)``)
/// touches are `@usableFromInline`: the loop is inlined into each decoder and
/// specialized there for the field's type (a `package` type without it is not).
@usableFromInline package final class TypeRules {
    /// What to do when a field decodes: one entry per key that has checks or feeds a relation.
    @usableFromInline package struct Entry {
        @usableFromInline package let key: String
        /// `key.utf8.count`, compared first.
        @usableFromInline package let length: Int
        @usableFromInline package let checks: [FieldCheck]
        /// Its position in ``relationKeys``, if a relation needs its value.
        @usableFromInline package let slot: Int?
    }

    /// The type's name, for declaration errors: made only when one is reported
    /// (reading it off the type costs more than the rest of the call for a small value).
    package var typeName: String { readableName(of: type) }
    private let type: Any.Type
    @usableFromInline package let entries: [Entry]
    package let relations: [RelationCheck]
    /// Keys some relation needs; their decoded values are kept while the type decodes.
    let relationKeys: [String]
    /// For each relation, the positions of its keys in ``relationKeys``.
    let relationSlots: [[Int]]
    /// Set once a value of the type decoded whole with its declaration checked:
    /// later values are not tracked.
    package fileprivate(set) var verified = false
    /// For a type with generated decoding: each field's entry (or -1), in the
    /// order of its field table, filled on the call's first value.
    private var fieldEntries: [Int]?

    /// Each field's entry (or -1) for a type with generated decoding.
    package func fieldEntries(of names: [String]) -> [Int] {
        if let known = fieldEntries { return known }
        let entries = names.map { entryIndex($0) ?? -1 }
        fieldEntries = entries
        return entries
    }

    package init<V: Validatable>(_ type: V.Type) {
        let validation = V.validation
        self.type = V.self
        let relationKeys = validation.relationKeyList
        var entries = zip(validation.fieldKeys, validation.fieldChecks).map { key, checks in
            Entry(key: key, length: key.utf8.count, checks: checks, slot: relationKeys.firstIndex(of: key))
        }
        for (slot, key) in relationKeys.enumerated() where !validation.fieldKeys.contains(key) {
            entries.append(Entry(key: key, length: key.utf8.count, checks: [], slot: slot))
        }
        self.entries = entries
        relations = validation.relations
        self.relationKeys = relationKeys
        relationSlots = validation.relations.map { relation in
            relation.keys.compactMap { relationKeys.firstIndex(of: $0) }
        }
    }

    /// Runs the entry's rules on a field's default (the key was absent): a default the
    /// rules refuse is the declaration's error, not the document's.
    ///
    /// - Throws: `VettedError` with ``VettedCore/VettedError/Code/defaultBreaksRule``.
    package func checkDefault<Value>(_ value: Value, entry: Int) throws {
        guard entries.indices.contains(entry) else { return }
        let key = entries[entry].key
        // Named as the declaration check names a type: `$.Listing.price` (made only on failure).
        var at: DocumentPath {
            let name = typeName
            return DocumentPath([.key(name.split(separator: ".").last.map(String.init) ?? name), .key(key)])
        }
        try entries[entry].checks.forEachFailure(of: value) { check, outcome throws(VettedError) in
            switch outcome {
            case .passed: return
            case .violated(let violation):
                throw VettedError(
                    code: .defaultBreaksRule, path: at,
                    message: "the default of \"\(Excerpt.escape(key, quotes: false))\" breaks its own rule (\(violation.code)): every document without the key would fail")
            case .wrongType:
                throw VettedError(
                    code: .ruleTypeMismatch, path: at,
                    message: "a rule of type \(check.valueTypeName) on \"\(Excerpt.escape(key, quotes: false))\", whose default is \(Value.self)")
            }
        }
    }

    /// The rules of `type`, or `nil` when it is not `Validatable`.
    package static func of<T>(_ type: T.Type) -> TypeRules? {
        (type as? any Validatable.Type).map { TypeRules($0) }
    }

    /// The entry for `name`: a few short keys, compared by length first (no hashing).
    @inlinable @inline(__always)
    package func entryIndex(_ name: String) -> Int? {
        let length = name.utf8.count
        for index in entries.indices where entries[index].length == length && entries[index].key == name { return index }
        return nil
    }
}

/// The rules of the value being decoded, and where its state lives in the engine.
@usableFromInline package struct RuleScope {
    @usableFromInline package let rules: TypeRules
    /// First slot of this value's relation values in the engine.
    let base: Int
    /// Its record of keys asked for, while the type's declaration is being checked; else -1.
    let tracked: Int

    /// Whether lookups of this value are being recorded (its type's first value).
    package var isTracking: Bool { tracked >= 0 }
}

/// Where a decoded value sits in the input, for a violation's offset, line,
/// column and excerpt.
@usableFromInline package struct ValueLocation {
    package let offset: Int
    package let source: SourceText

    package init(offset: Int, source: SourceText) {
        self.offset = offset
        self.source = source
    }
}

/// One decode call's validation state.
@usableFromInline package final class RuleEngine {
    package let mode: ValidationMode
    package private(set) var violations: [VettedError] = []
    package private(set) var omitted = 0
    /// Values of relation fields, per active Validatable value (a stack).
    private var relationValues: [Any?] = []

    // The steps on `relationValues`, each one access to it (every access to a
    // class's stored property is a run-time exclusivity check), with loops
    // the compiler specializes for `Any?`.

    /// Appends `count` empty slots; returns where they start.
    private static func appendEmpty(_ count: Int, to values: inout [Any?]) -> Int {
        let base = values.count
        for _ in 0..<Swift.max(0, count) { values.append(nil) }
        return base
    }

    private static func set(_ value: Any, at position: Int, in values: inout [Any?]) {
        if values.indices.contains(position) { values[position] = value }
    }

    private static func truncate(_ values: inout [Any?], to count: Int) {
        while values.count > Swift.max(0, count) { values.removeLast() }
    }
    /// Declaration checks under way (a stack): one per tracked value.
    private var tracking: [Tracked] = []
    /// Rules per type met so far (the property-list decoder's; the JSON tape keeps them in its own memo).
    private var types = _TypeMemo<TypeRules?>()

    private struct Tracked {
        var asked: [Bool]
        var readAllKeys = false
        /// `Key(stringValue:) != nil` for each key type the value made a keyed container of.
        var keyTypes: [(name: String, accepts: (String) -> Bool)] = []
    }

    /// The app's wording of violations, or `nil` for Vetted's English.
    package let messages: RuleMessageProvider?

    package init(mode: ValidationMode, messages: RuleMessageProvider? = nil) {
        self.mode = mode
        self.messages = messages
    }

    /// Where the value at a coding path sits in the input, for a structural
    /// error's offset, line, column and excerpt: set by a decoder that can tell
    /// (a failure path, asked once per error).
    package var locate: ([any CodingKey]) -> ValueLocation? = { _ in nil }

    /// `error` as the call reports it: a structural `DecodingError` gains its
    /// located ``VettedCore/VettedError``; other errors are returned as they are.
    package func located(_ error: any Error) -> any Error {
        guard let decoding = error as? DecodingError else { return error }
        return decoding.located(by: locate)
    }

    /// The rules of `type`, looked up once per call.
    package func rules<T>(for type: T.Type) -> TypeRules? {
        let id = ObjectIdentifier(type)
        if let recent = types.recentInfo(id) { return recent }
        return types.info(id) { TypeRules.of(type) }
    }

    // MARK: A value's life

    /// A value of a type with `rules` starts decoding.
    @inline(__always)
    private func begin(_ rules: TypeRules) -> RuleScope {
        let base = Self.appendEmpty(rules.relationKeys.count, to: &relationValues)
        var tracked = -1
        if !rules.verified {
            tracked = tracking.count
            tracking.append(Tracked(asked: Array(repeating: false, count: rules.entries.count)))
        }
        return RuleScope(rules: rules, base: base, tracked: tracked)
    }

    /// The value's `init(from:)` looked up `name` (to decode it, test for it, or nest into it).
    package func asked(_ name: String, in scope: RuleScope) {
        guard scope.isTracking, tracking.indices.contains(scope.tracked), let index = scope.rules.entryIndex(name) else { return }
        tracking[scope.tracked].asked[index] = true
    }

    /// The value's `init(from:)` read `allKeys`: it chooses its keys from the document.
    package func readAllKeys(in scope: RuleScope) {
        guard scope.isTracking, tracking.indices.contains(scope.tracked) else { return }
        tracking[scope.tracked].readAllKeys = true
    }

    /// The value made a keyed container keyed by `Key`.
    package func sawKeys<Key: CodingKey>(_ type: Key.Type, in scope: RuleScope) {
        guard scope.isTracking, tracking.indices.contains(scope.tracked) else { return }
        let name = readableName(of: Key.self)
        guard !tracking[scope.tracked].keyTypes.contains(where: { $0.name == name }) else { return }
        tracking[scope.tracked].keyTypes.append((name, { Key(stringValue: $0) != nil }))
    }

    /// A field check that did not pass: its violation is recorded, or a rule of
    /// another type than its field is a declaration error.
    @usableFromInline package func failed(
        _ outcome: CheckOutcome, check: FieldCheck, name: String, valueType: Any.Type, in scope: RuleScope,
        path: () -> [any CodingKey], location: () -> ValueLocation?
    ) throws {
        switch outcome {
        case .passed: return
        case .violated(let violation): try record(violation, at: path(), location())
        case .wrongType:
            throw declarationError(
                .ruleTypeMismatch, scope, path(),
                "\(scope.rules.typeName) has a rule of type \(check.valueTypeName) on \"\(name)\", which decodes as \(valueType)")
        }
    }

    /// Keeps a field's value for the relations of the value `scope` belongs to.
    @usableFromInline package func keep(_ value: Any, slot: Int, in scope: RuleScope) {
        let position = scope.base + slot
        Self.set(value, at: position, in: &relationValues)
    }

    /// The value finished decoding (`succeeded`) or failed: runs its relations,
    /// then, for its type's first whole value, checks that every key a rule
    /// names was asked for. `path` is the value's coding path.
    private func end(_ scope: RuleScope, path: @autoclosure () -> [any CodingKey], succeeded: Bool) throws {
        defer { pop(scope) }
        try runRelations(scope, path)
        guard scope.isTracking, tracking.indices.contains(scope.tracked) else { return }
        guard succeeded else { return }
        let tracked = tracking[scope.tracked]
        let rules = scope.rules
        for (index, entry) in rules.entries.enumerated() where !(tracked.asked.indices.contains(index) && tracked.asked[index]) {
            let accepted = tracked.keyTypes.contains { $0.accepts(entry.key) }
            if !accepted {
                let keyTypes = tracked.keyTypes.map(\.name)
                let what =
                    keyTypes.isEmpty
                    ? "its init(from:) made no keyed container, so the rule cannot run"
                    : "no key of \(keyTypes.joined(separator: " or ")) has that string value"
                throw declarationError(.ruleKeyUnknown, scope, path(), "\(rules.typeName) has a rule on \"\(entry.key)\", but \(what)")
            }
            if !tracked.readAllKeys {
                throw declarationError(
                    .ruleKeyNotDecoded, scope, path(),
                    "\(rules.typeName) has a rule on \"\(entry.key)\", but its init(from:) never looked that key up")
            }
        }
        rules.verified = true
    }

    /// Runs `body` — a value's `init(from:)` — as a value of the type with
    /// `rules`: begins its scope, then ends it (relations, the declaration
    /// check) when it returns or fails; a fail-fast violation on its way out
    /// ends it without checking more. `path` is the value's coding path.
    package func run<T>(_ rules: TypeRules, path: () -> [any CodingKey], _ body: (RuleScope) throws -> T) throws -> T {
        let scope = begin(rules)
        let result: T
        do {
            result = try body(scope)
        } catch let error as ValidationErrors {
            // A fail-fast violation on its way out: the value's state is dropped, nothing more is checked.
            pop(scope)
            throw error
        } catch {
            try end(scope, path: path(), succeeded: false)
            throw error
        }
        try end(scope, path: path(), succeeded: true)
        return result
    }

    /// Drops the value's state (after `end`, or when decoding gives up on it).
    private func pop(_ scope: RuleScope) {
        Self.truncate(&relationValues, to: scope.base)
        if scope.isTracking, tracking.count > scope.tracked { tracking.removeLast(tracking.count - scope.tracked) }
    }

    private func runRelations(_ scope: RuleScope, _ path: () -> [any CodingKey]) throws {
        let rules = scope.rules
        guard !rules.relations.isEmpty else { return }
        // One read of the array (each read of a class property is an exclusivity check).
        let stored = relationValues
        func value(_ slot: Int) -> Any? {
            let position = scope.base + slot
            return stored.indices.contains(position) ? stored[position] : nil
        }
        let relations = rules.relations
        for index in relations.indices where index < rules.relationSlots.count {
            let slots = rules.relationSlots[index]
            guard slots.count == relations[index].keys.count else { continue }
            guard let outcome = relations[index].outcome({ value(slots[$0]) }) else { continue }
            if case .passed = outcome { continue }
            let relation = relations[index]
            switch outcome {
            case .passed: continue
            case .violated(let violation): try record(violation, at: path() + [PathKey(stringValue: relation.reportedKey)], nil)
            case .wrongType:
                throw declarationError(
                    .ruleTypeMismatch, scope, path() + [PathKey(stringValue: relation.reportedKey)],
                    "\(rules.typeName) has a relation of type \(relation.valueTypeName) on \(relation.keys.map { "\"\($0)\"" }.joined(separator: ", ")), whose fields decode as another type")
            }
        }
    }

    // MARK: Violations

    /// Set when the decode call has returned: a decoder or container that
    /// escaped its `init(from:)` and is used later has no call to collect
    /// its violations into, so each is thrown at once.
    package private(set) var callFinished = false

    /// Records a violation, or throws it at once in fail-fast mode (or after the call).
    package func record(_ violation: RuleViolation, at codingPath: [any CodingKey], _ location: ValueLocation?) throws {
        // A rule that cannot work as declared: the programmer's error, in every mode.
        if violation.code.isRuleDeclaration { throw violation.error(at: DocumentPath(codingPath: codingPath)) }
        let error = self.error(violation, at: codingPath, location)
        if callFinished { throw ValidationErrors(errors: [error], omitted: 0) }
        switch mode {
        case .failFast:
            throw ValidationErrors(errors: [error], omitted: 0)
        case .collect(let cap):
            if violations.count < cap { violations.append(error) } else { omitted += 1 }
        }
    }

    /// A violation as every decoder reports it: at its path, located at the value when the
    /// value has a place in the input, in the app's wording when it has one.
    package func error(_ violation: RuleViolation, at codingPath: [any CodingKey], _ location: ValueLocation?) -> VettedError {
        var error: VettedError
        // A located value: its offset, line and column, and the input around it.
        // (A violation inside the value, such as one element's, keeps the value's place.)
        if let location {
            error = VettedError(
                violation.code, at: location.offset, in: location.source, path: violation.path(below: DocumentPath(codingPath: codingPath)),
                message: violation.message)
            error.parameters = violation.parameters
        } else {
            error = violation.error(at: DocumentPath(codingPath: codingPath))
        }
        if let messages, let text = messages(violation.code, violation.parameters) { error.message = text }
        return error
    }

    // MARK: Structural errors

    /// Whether a structural error (a missing field, a wrong type, `null`, a value that does
    /// not convert) is recorded and decoding goes on with the next field or element, so that
    /// the call reports each one (``recover(_:)``): set by a decoder whose generated bodies
    /// and arrays recover, under ``ValidationMode/collect(upTo:)``. Off while a type's own
    /// `init(from:)` runs (each decoder turns it off around the call): it cannot go on after a
    /// failure, and may catch one itself.
    package var collectsStructure = false
    /// The structural errors recorded so far.
    private var structural = StructuralRecord()

    /// What a generated body or an array does with an error thrown by one of its fields or
    /// elements: under collection, a structural error is recorded and the caller goes on
    /// (it throws ``RecordedErrors`` once it ends); ``RecordedErrors`` itself (a nested value's,
    /// already recorded) is taken the same way. Any other error, or any error when not
    /// collecting, is thrown again.
    package func recover(_ error: any Error) throws {
        if error is RecordedErrors { return }
        guard collectsStructure, !callFinished, case .collect = mode, let decoding = error as? DecodingError else { throw error }
        recordStructural(decoding)
    }

    private func recordStructural(_ decoding: DecodingError) {
        guard case .collect(let cap) = mode else { return }
        structural.record(decoding, keeping: cap, locate: locate)
    }

    /// The outcome of a whole decode call: `result` (what the decoder made, or
    /// why it stopped) combined with the violations collected.
    package func finish<T>(_ result: Result<T, any Error>) throws -> T {
        if !structural.isEmpty {
            callFinished = true
            // A rule declared wrong is the program's error, whatever the document's.
            if case .failure(let error as VettedError) = result, error.code.isRuleDeclaration { throw error }
            // Thrown past every recovering body (a type's own init(from:) at the top): one more.
            if case .failure(let error as DecodingError) = result { recordStructural(error) }
            if let failure = structural.failure { throw failure }
        }
        callFinished = true
        switch result {
        case .success(let value):
            // Under a cap of 0 every violation is counted and none kept: still a failure.
            guard violations.isEmpty, omitted == 0 else { throw ValidationErrors(errors: violations, omitted: omitted) }
            return value
        case .failure(let error as ValidationErrors):
            throw error
        case .failure(let error as VettedError) where error.code.isRuleDeclaration:
            throw error
        case .failure(let error):
            // A structural failure stops the call and is its answer, whatever rules
            // failed before it: the document is not the model's shape, so it is
            // refused at that stage, as it is when nothing failed before.
            throw located(error)
        }
    }

    private func declarationError(_ code: VettedError.Code, _ scope: RuleScope, _ path: [any CodingKey], _ message: String) -> VettedError {
        VettedError(code: code, path: DocumentPath(codingPath: path), message: message)
    }
}

/// A decoder that runs its rules through a ``RuleEngine`` (both of Vetted's).
package protocol RuleEngineDecoder {
    var ruleEngine: RuleEngine { get }
}

extension RuleEngine {
    /// Where the record of violations stands now.
    package var mark: (count: Int, omitted: Int) { (violations.count, omitted) }

    /// The violations recorded since `mark`, taken out of the call's record
    /// (the values they belong to were skipped). Those over the cap are counted.
    package func takeViolations(since mark: (count: Int, omitted: Int)) -> (errors: [VettedError], omitted: Int) {
        guard violations.count >= mark.count, omitted >= mark.omitted else { return ([], 0) }
        let taken = Array(violations[mark.count...])
        violations.removeSubrange(mark.count...)
        let extra = omitted - mark.omitted
        omitted = mark.omitted
        return (taken, extra)
    }
}
